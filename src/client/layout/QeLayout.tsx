import type { ReactNode } from 'react';
import { useMediaQuery, type Theme } from '@mui/material';
import { Layout, Sidebar, type SidebarProps } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { QeAppBar } from './QeAppBar';
import { QeMenu } from './QeMenu';
import { Breadcrumb } from './Breadcrumb';
import { DocumentTitle } from './DocumentTitle';
import { Notices } from './Notices';
import { useMobileMode } from './useMobileMode';
import { StaffPersonalPrompt } from '../personal/StaffPersonalPrompt';
import { LanguageOfScreen } from './LanguageOfScreen';

/** The menu's sidebar; on a phone a drawer over the screen (a modal dialog), named as the menu it holds. */
function QeSidebar(props: SidebarProps) {
  const translate = useTranslate();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return <Sidebar {...props} slotProps={phone ? { paper: { 'aria-label': translate('qe.nav.mainMenu') } } : undefined} />;
}

/** Sidebar, top bar, breadcrumb and content (docs/product-rules.md#screens-and-routes), in the user's language throughout. */
export function QeLayout({ children }: { children: ReactNode }) {
  const mobile = useMobileMode();
  return (
    <LanguageOfScreen>
      <Layout appBar={QeAppBar} menu={QeMenu} sidebar={QeSidebar} sx={{ minWidth: 0, '& .RaLayout-content': { px: mobile ? 1 : 2, minWidth: 0 } }}>
        <DocumentTitle />
        <Breadcrumb />
        {children}
        <Notices />
        <StaffPersonalPrompt />
      </Layout>
    </LanguageOfScreen>
  );
}
