/** The screens of a master entity: /master/{route}/list, view, add and edit (the record's id as `?id=`). */
export const masterPath = (route: string, screen: 'list' | 'view' | 'add' | 'edit', id?: unknown) =>
  `/master/${route}/${screen}${id === undefined ? '' : `?id=${encodeURIComponent(String(id))}`}`;
