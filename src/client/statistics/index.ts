/** The data statistics screens (routes dataStatisticsList, dataStatisticsDetail). */
export { StatisticsList } from './list/StatisticsList';
export { StatisticsDetail } from './detail/StatisticsDetail';
