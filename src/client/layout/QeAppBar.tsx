import { useRef, useState } from 'react';
import { ListItemIcon, ListItemText, MenuItem, useMediaQuery, type Theme } from '@mui/material';
import LockResetIcon from '@mui/icons-material/LockReset';
import KeyIcon from '@mui/icons-material/VpnKeyOutlined';
import { AppBar, Logout, UserMenu, useGetIdentity, useUserMenu } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { ON_THEME_COLOUR, THEME_COLOUR } from './theme';
import { Link } from 'react-router-dom';
import { SchoolBrand } from './SchoolBrand';
import { GoogleAccountButton } from '../google/GoogleAccountButton';
import { HelpLink, LanguageSwitch, PdfSupportState } from './TopBarItems';
import { MySignInsDialog } from '../sign-in/MySignIns';

function ChangePasswordItem() {
  const translate = useTranslate();
  const userMenu = useUserMenu();
  return (
    <MenuItem component={Link} to="/change-psw" onClick={() => userMenu?.onClose()} data-testid="change-password">
      <ListItemIcon>
        <LockResetIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('qe.nav.changePassword')}</ListItemText>
    </MenuItem>
  );
}

/** The school accounts the user signs in with: a dialog of the app bar's (the menu closes as it opens); `onOpen` gets the menu's button, for the focus to come back to. */
function MySignInsItem({ onOpen }: { onOpen: (menuButton: HTMLElement | null) => void }) {
  const translate = useTranslate();
  const userMenu = useUserMenu();
  return (
    <MenuItem
      onClick={() => {
        // react-admin's user menu button owns the open menu
        const button = document.querySelector<HTMLElement>('[aria-owns="menu-appbar"]');
        userMenu?.onClose();
        onOpen(button);
      }}
      data-testid="my-sign-ins-item"
    >
      <ListItemIcon>
        <KeyIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate('qe.signIn.links.mine')}</ListItemText>
    </MenuItem>
  );
}

/** Sidebar toggle, school logo and name, PDF state, help, Google account, language and the user menu (docs/product-rules.md#screens-and-routes; and the user's own sign-ins). */
export function QeAppBar() {
  const translate = useTranslate();
  // wide, the button shows the name: its accessible name says it too (WCAG 2.5.3); narrow it is
  // an avatar, and react-admin reads its label as a message key there (else "Profile", in English)
  const name = useGetIdentity().identity?.fullName;
  const wide = useMediaQuery((theme: Theme) => theme.breakpoints.up('sm'));
  const [mySignIns, setMySignIns] = useState(false);
  const menuButton = useRef<HTMLElement | null>(null);
  return (
    <>
      <AppBar
        sx={{ bgcolor: THEME_COLOUR, color: ON_THEME_COLOUR }}
        toolbar={
          <>
            <PdfSupportState />
            <HelpLink />
            <GoogleAccountButton />
            <LanguageSwitch />
          </>
        }
        userMenu={
          <UserMenu label={wide && name ? translate('qe.nav.userMenuOf', { name }) : 'qe.nav.userMenu'}>
            <ChangePasswordItem />
            <MySignInsItem
              onOpen={(button) => {
                menuButton.current = button;
                setMySignIns(true);
              }}
            />
            <Logout />
          </UserMenu>
        }
      >
        <SchoolBrand />
      </AppBar>
      <MySignInsDialog open={mySignIns} onClose={() => setMySignIns(false)} onClosed={() => menuButton.current?.focus()} />
    </>
  );
}
