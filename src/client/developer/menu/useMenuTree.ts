/** The developer menu screen's data: the menus with their actions (developerApi.tree, in their order), loaded on mount and again on demand. */
import { useCallback, useEffect, useState } from 'react';
import { developerApi, type MenuNode } from '../api';
import { sortedMenus } from '../permissionGrid';

/** The menus (null while loading), whether the last load failed, and `load` to load them again. */
export function useMenuTree() {
  const [menus, setMenus] = useState<MenuNode[] | null>(null);
  const [failed, setFailed] = useState(false);

  const load = useCallback(async () => {
    try {
      setMenus(sortedMenus(await developerApi.tree()));
      setFailed(false);
    } catch {
      setFailed(true);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  return { menus, setMenus, failed, load };
}
