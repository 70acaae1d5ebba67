import BadgeIcon from '@mui/icons-material/Badge';
import { ApprovalQueuePage } from '../personal/ApprovalQueuePage';
import { MyPersonalDataPage } from '../personal/MyPersonalDataPage';
import type { QeRouteGroup } from './types';

/** Staff personal data: one's own (Personal) and the approver's queue (Approve). */
export const personalDataRoutes: QeRouteGroup = {
  name: 'personalDataGroup',
  path: '/personal-data',
  redirect: '/personal-data/mine',
  icon: BadgeIcon,
  children: [
    { path: '/personal-data/mine', name: 'personalData', permission: 'personal-data.personal', ownHeading: true, element: <MyPersonalDataPage /> },
    { path: '/personal-data/approve', name: 'personalDataApprove', permission: 'personal-data.approve', element: <ApprovalQueuePage /> },
  ],
};
