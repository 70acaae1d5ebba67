import SettingsBackupRestoreIcon from '@mui/icons-material/SettingsBackupRestore';
import { BackupScreen } from '../backup/BackupScreen';
import type { QeRouteGroup } from './types';

/** The school's system: backup and restore. */
export const systemRoutes: QeRouteGroup = {
  name: 'system',
  path: '/system',
  redirect: '/system/backups',
  icon: SettingsBackupRestoreIcon,
  children: [{ path: '/system/backups', name: 'backups', permission: 'backup.view', icon: SettingsBackupRestoreIcon, ownHeading: true, element: <BackupScreen /> }],
};
