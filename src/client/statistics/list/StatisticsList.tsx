import type { ReactElement } from 'react';
import { ScrollRegion } from '../../common/ScrollRegion';
import { Typography } from '@mui/material';
import { DataTable, List, Pagination, ResourceContextProvider, SearchInput, SelectInput, useListContext, useLocale, type RaRecord } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import { useNavigate } from 'react-router-dom';
import type { StatisticsRow } from '../../../shared/statistics/types';
import { titleIn } from '../../../shared/questionnaire/languages';
import { PER_PAGE, PER_PAGE_OPTIONS } from '../../master/SchemaList';
import { useMobileMode } from '../../layout/useMobileMode';
import { statusKey } from '../../questionnaires/form/labels';
import { formatDay } from '../../common/schoolClock';
import { StatusCell, StatusChip } from '../../questionnaires/form/StatusChip';
import { STATISTICS, STATISTICS_LIST_STORE_KEY, statisticsPath } from '../api';
import { formatPercent, nameOf, statisticsFieldKey } from '../labels';
import { useSchoolYears } from '../../common/useSchoolYears';
import { ListCard, ListCards } from '../../common/ListCard';
import { NoData } from '../../common/NoData';
import { Loading } from '../../common/Loading';
import { useFittingColumns } from '../../common/useFittingColumns';

/** Only questionnaires that have opened have statistics (API.md). */
const STATUSES = ['PROCESSING', 'FINISHED'] as const;

/** A phone's list: one card per questionnaire, the whole card opens its statistics. */
function StatisticsCards() {
  const { data, isPending } = useListContext<StatisticsRow & RaRecord>();
  const translate = useTranslate();
  const locale = useLocale();
  const navigate = useNavigate();
  if (isPending) return <Loading />;
  if (!data?.length) return <NoData textKey="qe.statistics.list.empty" />;
  const line = (name: string, value: string) => (value ? translate('qe.common.line', { label: translate(statisticsFieldKey(name)), value }) : null);
  return (
    <ListCards testId="statistics-cards">
      {data.map((r) => (
        <ListCard
          key={r.id}
          id={r.id}
          testId="statistics-card"
          title={titleIn(r, locale === 'en' ? 'en' : 'zh-hk')}
          onOpen={() => navigate(statisticsPath('detail', r.id))}
          chips={
            <>
              <StatusChip status={r.status} />
              <Typography variant="body2" sx={{ fontWeight: 500 }}>
                {translate('qe.statistics.list.rateLine', { rate: formatPercent(r.responseRate), submitted: r.submittedNum, respondents: r.respondentNum })}
              </Typography>
            </>
          }
          lines={[line('schoolYear', r.schoolYear?.name ?? ''), line('principal', nameOf(r.principal, locale)), line('createDate', formatDay(r.createDate))]}
        />
      ))}
    </ListCards>
  );
}

/**
 * dataStatisticsList: the questionnaires whose statistics the user may see (GET /v1/statistics:
 * all with data-statistics.management, else those in their charge or that they assist with),
 * searchable by title, filtered by status and school year (the current one by default). A row
 * opens the detail. A table on a wide screen, cards below the mobile breakpoint; filters and
 * page are kept when the user comes back (the route is cached).
 */
export function StatisticsList() {
  const translate = useTranslate();
  const locale = useLocale();
  const mobile = useMobileMode();
  // where the table is too wide these give way, the least needed first
  const fit = useFittingColumns(['createDate', 'schoolYear', 'respondentNum', 'principal']);
  const { years, currentYear, isPending } = useSchoolYears();
  if (isPending) return <Loading />;
  const label = (name: string) => translate(statisticsFieldKey(name));

  const filters: ReactElement[] = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('qe.statistics.list.searchTitle')} />,
    <SelectInput key="status" source="status" label={label('status')} choices={STATUSES.map((s) => ({ id: s, name: translate(statusKey(s)) }))} translateChoice={false} emptyText="—" alwaysOn />,
    <SelectInput key="schoolYearId" source="schoolYearId" label={label('schoolYear')} choices={years.map((y) => ({ id: y.id, name: y.name }))} translateChoice={false} emptyText="—" alwaysOn />,
  ];

  return (
    <ResourceContextProvider value={STATISTICS}>
      <List
        resource={STATISTICS}
        title={translate('qe.menu.dataStatisticsList')}
        perPage={PER_PAGE}
        sort={{ field: 'createDate', order: 'DESC' }}
        filters={filters}
        filterDefaultValues={currentYear ? { schoolYearId: currentYear.id } : {}}
        storeKey={STATISTICS_LIST_STORE_KEY}
        actions={false}
        pagination={<Pagination rowsPerPageOptions={PER_PAGE_OPTIONS} />}
        empty={false}
        exporter={false}
        // the route table has checked data-statistics.view; react-admin's own check would ask about the API resource name
        disableAuthentication
        sx={{
          '& .RaList-main, & .RaList-content': { minWidth: 0 },
          '& .RaFilterForm-root': { flexWrap: 'wrap', minWidth: 0 },
          '& .RaFilterForm-root .MuiFormControl-root': { minWidth: mobile ? 140 : 180 },
        }}
      >
        {mobile ? (
          <StatisticsCards />
        ) : (
          <ScrollRegion ref={fit.ref}>
          <DataTable
            rowClick={(id) => statisticsPath('detail', id)}
            bulkActionButtons={false}
            empty={<NoData textKey="qe.statistics.list.empty" />}
            data-testid="list-statistics"
            sx={{
              '& .RaDataTable-headerCell, & .column-schoolYear, & .column-status, & .column-createDate, & .column-submittedNum, & .column-respondentNum, & .column-responseRate': { whiteSpace: 'nowrap' },
            }}
          >
            {fit.shows('schoolYear') && <DataTable.Col source="schoolYear" label={label('schoolYear')} disableSort render={(r: RaRecord) => (r as StatisticsRow).schoolYear?.name ?? ''} />}
            {fit.shows('principal') && <DataTable.Col source="principal" label={label('principal')} disableSort render={(r: RaRecord) => nameOf((r as StatisticsRow).principal, locale)} />}
            <DataTable.Col source="status" label={label('status')}>
              <StatusCell />
            </DataTable.Col>
            <DataTable.Col source="title" label={label('title')} render={(r: RaRecord) => titleIn(r as StatisticsRow, locale === 'en' ? 'en' : 'zh-hk')} />
            {fit.shows('createDate') && <DataTable.Col source="createDate" label={label('createDate')} render={(r: RaRecord) => formatDay(r.createDate)} />}
            <DataTable.Col source="submittedNum" label={label('submittedNum')} disableSort />
            {fit.shows('respondentNum') && <DataTable.Col source="respondentNum" label={label('respondentNum')} disableSort />}
            <DataTable.Col source="responseRate" label={label('responseRate')} disableSort render={(r: RaRecord) => formatPercent((r as StatisticsRow).responseRate)} />
          </DataTable>
          </ScrollRegion>
        )}
      </List>
    </ResourceContextProvider>
  );
}
