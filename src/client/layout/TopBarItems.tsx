import { useState } from 'react';
import { Box, Button, IconButton, Menu as MuiMenu, MenuItem, Tooltip } from '@mui/material';
import HelpOutlineIcon from '@mui/icons-material/HelpOutlined';
import TranslateIcon from '@mui/icons-material/Translate';
import { useCanAccess, useLocaleState, useLocales } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { PdfStatus } from '../statistics/pdf/PdfStatus';

/** Help link (help.view): the tutorial page in a new tab. */
export function HelpLink() {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: 'help', action: 'view' });
  if (!canAccess) return null;
  return (
    <Tooltip title={translate('qe.nav.help')}>
      <IconButton color="inherit" component="a" href="/qe/tutorial" target="_blank" rel="noopener" aria-label={translate('qe.nav.help')} data-testid="help-link">
        <HelpOutlineIcon />
      </IconButton>
    </Tooltip>
  );
}

/** Switch between zh-hk and en; the choice is remembered. */
export function LanguageSwitch() {
  const translate = useTranslate();
  const [locale, setLocale] = useLocaleState();
  const locales = useLocales();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const name = locales.find((l) => l.locale === locale)?.name ?? '';
  return (
    <>
      <Tooltip title={translate('qe.nav.language')}>
        <Button color="inherit" onClick={(e) => setAnchor(e.currentTarget)} startIcon={<TranslateIcon />} aria-label={translate('qe.nav.languageNow', { name })} data-testid="language-switch" sx={{ minWidth: 0, textTransform: 'none', whiteSpace: 'nowrap', '& .MuiButton-startIcon': { mr: { xs: 0, sm: 1 } } }}>
          {/* on a phone the icon alone: the name would wrap one character a line */}
          <Box component="span" sx={{ display: { xs: 'none', sm: 'inline' } }}>
            {name}
          </Box>
        </Button>
      </Tooltip>
      <MuiMenu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {locales.map((l) => (
          <MenuItem
            key={l.locale}
            selected={l.locale === locale}
            lang={l.locale === 'en' ? 'en' : 'zh-HK'}
            data-testid={`language-${l.locale}`}
            onClick={() => {
              setAnchor(null);
              setLocale(l.locale);
            }}
          >
            {l.name}
          </MenuItem>
        ))}
      </MuiMenu>
    </>
  );
}

/** The PDF support state (docs/product-rules.md#screens-and-routes): shown only once a PDF screen has started loading its font pack. */
export function PdfSupportState() {
  return <PdfStatus />;
}
