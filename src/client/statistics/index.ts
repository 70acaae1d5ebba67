/** The data statistics screens (spec §2: dataStatisticsList, dataStatisticsDetail). */
export { StatisticsList } from './list/StatisticsList';
export { StatisticsDetail } from './detail/StatisticsDetail';
