import type { ComponentType } from 'react';
import StorageIcon from '@mui/icons-material/Storage';
import type { EntityMeta, MasterEntity } from '../../shared/master/entity';
import { MailSettingScreen } from './MailSettingScreen';
import { SchemaList } from './SchemaList';
import { SchemaScreen, type ScreenType } from './SchemaScreen';
import { SingleScreen } from './SingleScreen';

export interface MasterResource {
  entity: MasterEntity;
  meta: EntityMeta;
  icon: ComponentType;
  /** the list screen; for a single entity (the mail setting) its one screen */
  List: ComponentType;
  /** view, add and edit in one screen */
  Screen: ComponentType<{ type: ScreenType }>;
}

/**
 * The screens of a master entity, composed from its schema (generated/resources.ts calls this once
 * per entity, with the icon its schema names, imported there so the bundle holds only those).
 */
export function masterResource(entity: MasterEntity, icon: ComponentType = StorageIcon): MasterResource {
  const { meta } = entity;
  const Single: ComponentType = () => (entity.key === 'mailSetting' ? <MailSettingScreen entity={entity} /> : <SingleScreen entity={entity} />);
  const List: ComponentType = meta.single ? Single : () => <SchemaList entity={entity} />;
  // keyed by type: going from view to edit of the same record builds a fresh form
  const Screen: ComponentType<{ type: ScreenType }> = meta.single ? Single : ({ type }) => <SchemaScreen key={type} entity={entity} type={type} />;
  List.displayName = `${entity.key}List`;
  Screen.displayName = `${entity.key}Screen`;
  return { entity, meta, icon, List, Screen };
}
