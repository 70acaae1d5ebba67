import type { ComponentType, ReactElement } from 'react';
import type { MessageKey } from '../../shared/i18n/keys';

/** One screen of the route table (docs/product-rules.md#screens-and-routes). */
export interface QeRoute {
  /** full path under /qe, e.g. /forms/list */
  path: string;
  /** the route name (formsList); its title is qe.menu.<name> */
  name: string;
  /** `page.action` or `*` (any logged-in user) */
  permission: string;
  /** detail screens: not listed in the sidebar; they highlight `activeMenu` instead */
  hidden?: boolean;
  activeMenu?: string;
  /** lists that keep their filters and page when the user comes back */
  cached?: boolean;
  /** breadcrumb and title suffix for shared view/add/edit screens */
  screen?: 'list' | 'view' | 'add' | 'edit';
  /** title key when the name is not a qe.menu key (the master screens) */
  titleKey?: MessageKey;
  /** the screen names itself in a level-one heading of its own (the breadcrumb's last step is then no heading) */
  ownHeading?: boolean;
  /** the sidebar icon of a screen listed inside its group */
  icon?: ComponentType;
  element: ReactElement;
}

/** A group of the sidebar (form, questionnaireFilling, …): a path that redirects to its first screen, and its screens. */
export interface QeRouteGroup {
  name: string;
  path: string;
  redirect: string;
  icon: ComponentType;
  alwaysShow?: boolean;
  children: QeRoute[];
}
