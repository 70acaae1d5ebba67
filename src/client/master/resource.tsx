import type { ComponentType } from 'react';
import AdminPanelSettingsIcon from '@mui/icons-material/AdminPanelSettings';
import BadgeIcon from '@mui/icons-material/Badge';
import CalendarMonthIcon from '@mui/icons-material/CalendarMonth';
import ClassIcon from '@mui/icons-material/Class';
import CoPresentIcon from '@mui/icons-material/CoPresent';
import FaceIcon from '@mui/icons-material/Face';
import GroupsIcon from '@mui/icons-material/Groups';
import MailIcon from '@mui/icons-material/Mail';
import StorageIcon from '@mui/icons-material/Storage';
import type { EntityMeta, MasterEntity } from '../../shared/master/entity';
import { MailSettingScreen } from './MailSettingScreen';
import { SchemaList } from './SchemaList';
import { SchemaScreen, type ScreenType } from './SchemaScreen';
import { SingleScreen } from './SingleScreen';

/** The icons the schemas name (meta.icon), imported one by one so the bundle holds only these. */
const ICONS: Record<string, ComponentType> = {
  AdminPanelSettings: AdminPanelSettingsIcon,
  Badge: BadgeIcon,
  CalendarMonth: CalendarMonthIcon,
  Class: ClassIcon,
  CoPresent: CoPresentIcon,
  Face: FaceIcon,
  Groups: GroupsIcon,
  Mail: MailIcon,
  Storage: StorageIcon,
};

export interface MasterResource {
  entity: MasterEntity;
  meta: EntityMeta;
  icon: ComponentType;
  /** the list screen; for a single entity (the mail setting) its one screen */
  List: ComponentType;
  /** view, add and edit in one screen */
  Screen: ComponentType<{ type: ScreenType }>;
}

/** The screens of a master entity, composed from its schema (generated/resources.ts calls this once per entity). */
export function masterResource(entity: MasterEntity): MasterResource {
  const { meta } = entity;
  const Single: ComponentType = () => (entity.key === 'mailSetting' ? <MailSettingScreen entity={entity} /> : <SingleScreen entity={entity} />);
  const List: ComponentType = meta.single ? Single : () => <SchemaList entity={entity} />;
  // keyed by type: going from view to edit of the same record builds a fresh form
  const Screen: ComponentType<{ type: ScreenType }> = meta.single ? Single : ({ type }) => <SchemaScreen key={type} entity={entity} type={type} />;
  List.displayName = `${entity.key}List`;
  Screen.displayName = `${entity.key}Screen`;
  return { entity, meta, icon: (meta.icon && ICONS[meta.icon]) || StorageIcon, List, Screen };
}
