import type { ReactNode, Ref } from 'react';
import { Box } from '@mui/material';
import { useTranslate } from '../i18n/translate';

/**
 * A table that may be wider than the screen scrolls inside this region, which a keyboard can
 * reach (Tab, then the arrow keys) and a screen reader names: a scrolling area nobody can focus
 * cannot be scrolled without a mouse (axe's scrollable-region-focusable). Where a screen has
 * several, each is named for its table (`label`): regions of one name cannot be told apart.
 */
export function ScrollRegion({ children, ref, label }: { children: ReactNode; ref?: Ref<HTMLDivElement>; label?: string }) {
  const translate = useTranslate();
  return (
    <Box ref={ref} role="region" aria-label={label ?? translate('qe.common.scrollTable')} tabIndex={0} sx={{ overflowX: 'auto', '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 } }}>
      {children}
    </Box>
  );
}
