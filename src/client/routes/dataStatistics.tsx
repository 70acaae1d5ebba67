import BarChartIcon from '@mui/icons-material/BarChart';
import { StatisticsDetail, StatisticsList } from '../statistics';
import type { QeRouteGroup } from './types';

/** Data statistics: the list and its hidden detail, both for data-statistics.view. */
export const dataStatisticsRoutes: QeRouteGroup = {
  name: 'dataStatistics',
  path: '/data-statistics',
  redirect: '/data-statistics/list',
  icon: BarChartIcon,
  children: [
    { path: '/data-statistics/list', name: 'dataStatisticsList', permission: 'data-statistics.view', cached: true, element: <StatisticsList /> },
    { path: '/data-statistics/detail', name: 'dataStatisticsDetail', permission: 'data-statistics.view', hidden: true, activeMenu: '/data-statistics/list', element: <StatisticsDetail /> },
  ],
};
