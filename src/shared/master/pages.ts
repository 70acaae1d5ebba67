import type { EntityMeta, MasterEntity } from './entity.js';
import { serverNames } from '../i18n/text.js';

/** A master-data entity's permission page, as its schema's `x-qe.page` gives it (a PageDef of permissions.ts). */
export interface MasterPage {
  code: string;
  /** the page's names, qe.permissions.pages.<code> of the message files (src/shared/i18n/server-en.ts) */
  nameHk: string;
  nameEn: string;
  actions: string[];
  /** user types whose out-of-the-box role holds every action of the page (the super administrator holds every page's) */
  grantedTo: NonNullable<EntityMeta['page']['grantedTo']>;
  /** place in the master-data menu, lower first */
  menuOrder: number;
}

/**
 * The permission pages of master-data entities, in menu order: each schema gives its page's code,
 * its actions and who holds them (docs/recipes/add-master-entity.md), the message files its
 * names (an entity without them, such as a test's, is named by the key). Entities sharing a page
 * code share one page.
 */
export function masterPages(entities: MasterEntity[]): MasterPage[] {
  const pages = new Map<string, MasterPage>();
  for (const { meta } of entities) {
    if (pages.has(meta.permission)) continue;
    pages.set(meta.permission, { code: meta.permission, ...serverNames(`qe.permissions.pages.${meta.permission}`), actions: meta.page.actions, grantedTo: meta.page.grantedTo ?? [], menuOrder: meta.menuOrder ?? Number.MAX_SAFE_INTEGER });
  }
  return [...pages.values()].sort((a, b) => a.menuOrder - b.menuOrder);
}
