import type { ReactNode } from 'react';
import { Layout } from 'react-admin';
import { QeAppBar } from './QeAppBar';
import { QeMenu } from './QeMenu';
import { Breadcrumb } from './Breadcrumb';
import { Notices } from './Notices';
import { useMobileMode } from './useMobileMode';
import { StaffPersonalPrompt } from '../personal/StaffPersonalPrompt';
import { LanguageOfScreen } from './LanguageOfScreen';

/** Sidebar, top bar, breadcrumb and content (docs/product-rules.md#screens-and-routes), in the user's language throughout. */
export function QeLayout({ children }: { children: ReactNode }) {
  const mobile = useMobileMode();
  return (
    <LanguageOfScreen>
      <Layout appBar={QeAppBar} menu={QeMenu} sx={{ minWidth: 0, '& .RaLayout-content': { px: mobile ? 1 : 2, minWidth: 0 } }}>
        <Breadcrumb />
        {children}
        <Notices />
        <StaffPersonalPrompt />
      </Layout>
    </LanguageOfScreen>
  );
}
