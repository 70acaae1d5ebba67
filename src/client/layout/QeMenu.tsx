import { useEffect, useRef, useState } from 'react';
import { Box, Collapse, List, ListItemButton, ListItemIcon, ListItemText, Tooltip } from '@mui/material';
import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import HomeIcon from '@mui/icons-material/Home';
import { Menu, usePermissions, useSidebarState } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { useLocation } from 'react-router-dom';
import type { PermissionEntry } from '../../shared/permissions';
import { findRoute, keptGroups, routeTitleKey, type QeRouteGroup } from '../routes';
import { useMobileMode } from './useMobileMode';
import { composedKey } from '../../shared/i18n/keys';

/**
 * The sidebar is the site's navigation — links, some in groups that open — not an application
 * menu: its entries are links (not ARIA menu items, which need a menu around them and arrow keys),
 * the screen shown is the current page, and the lists are plain blocks (a `ul` may hold only `li`).
 */
const linkRole = (current: boolean) => ({ role: 'link', 'aria-current': current ? ('page' as const) : undefined });

/** The list path a screen highlights: itself, or for a hidden detail screen its parent list (docs/product-rules.md#screens-and-routes). */
function activePath(pathname: string): string {
  return findRoute(pathname)?.route.activeMenu ?? pathname;
}

/**
 * The sidebar, built from the routes the user may open: hidden screens are not listed, a
 * group with a single visible screen shows it directly, and one submenu is open at a time.
 */
export function QeMenu() {
  const translate = useTranslate();
  const { permissions } = usePermissions<PermissionEntry[]>();
  const { pathname } = useLocation();
  const [sidebarOpen, setSidebarOpen] = useSidebarState();
  const mobile = useMobileMode();
  const active = activePath(pathname);
  const groups = keptGroups(permissions ?? []);
  const groupOf = (path: string) => groups.find((g) => g.children.some((c) => c.path === path))?.name ?? null;
  const [open, setOpen] = useState<string | null>(() => groupOf(active));

  // following a link into another group opens that group (and closes the others); on a phone
  // the drawer closes after a move. Only after a move: the drawer mounts this menu as it opens,
  // and closing it then would shut it at once.
  const shown = useRef(active);
  useEffect(() => {
    const g = groupOf(active);
    if (g) setOpen(g);
    if (shown.current === active) return;
    shown.current = active;
    if (mobile) setSidebarOpen(false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [active]);

  const renderGroup = (group: QeRouteGroup) => {
    const visible = group.children.filter((c) => !c.hidden);
    if (visible.length === 0 && !group.alwaysShow) return null;
    const Icon = group.icon;
    if (visible.length === 1 && !group.alwaysShow) {
      const only = visible[0];
      return (
        <Menu.Item
          key={only.path}
          to={only.path}
          primaryText={translate(routeTitleKey(only))}
          leftIcon={<Icon />}
          selected={active === only.path}
          {...linkRole(active === only.path)}
          data-testid={`menu-${only.name}`}
        />
      );
    }
    const isOpen = open === group.name;
    const title = translate(composedKey(`qe.menu.${group.name}`));
    return (
      <div key={group.name}>
        <Tooltip title={sidebarOpen ? '' : title} placement="right">
          <ListItemButton
            onClick={() => {
              setOpen(isOpen ? null : group.name);
              if (!sidebarOpen) setSidebarOpen(true);
            }}
            aria-expanded={isOpen}
            data-testid={`menu-group-${group.name}`}
            sx={{ py: 0.75 }}
          >
            <ListItemIcon sx={{ minWidth: 40 }}>
              <Icon />
            </ListItemIcon>
            <ListItemText primary={title} />
            {isOpen ? <ExpandLess /> : <ExpandMore />}
          </ListItemButton>
        </Tooltip>
        <Collapse in={isOpen && sidebarOpen} timeout={200} unmountOnExit>
          <List component="div" disablePadding sx={{ pl: sidebarOpen ? 2 : 0 }}>
            {visible.map((r) => {
              const ItemIcon = r.icon;
              return (
                <Menu.Item
                  key={r.path}
                  to={r.path}
                  primaryText={translate(routeTitleKey(r))}
                  leftIcon={ItemIcon ? <ItemIcon /> : undefined}
                  selected={active === r.path}
                  {...linkRole(active === r.path)}
                  data-testid={`menu-${r.name}`}
                />
              );
            })}
          </List>
        </Collapse>
      </div>
    );
  };

  return (
    <Box component="nav" aria-label={translate('qe.nav.mainMenu')}>
      <Menu component="div" role="none">
        <Menu.Item to="/dashboard" primaryText={translate('qe.menu.dashboard')} leftIcon={<HomeIcon />} selected={active === '/dashboard'} {...linkRole(active === '/dashboard')} data-testid="menu-dashboard" />
        {groups.map(renderGroup)}
      </Menu>
    </Box>
  );
}
