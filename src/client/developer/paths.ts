/** The developer area's screens (docs/product-rules.md#screens-and-routes); a role's id goes in `?id=`. */
export const ROLE_LIST = '/developer/role/list';

export const rolePath = (screen: 'view' | 'add' | 'edit' | 'permission', id?: unknown) =>
  `/developer/role/${screen}${id === undefined ? '' : `?id=${encodeURIComponent(String(id))}`}`;
