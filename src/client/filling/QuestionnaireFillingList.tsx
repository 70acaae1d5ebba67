import type { ReactElement } from 'react';
import { ScrollRegion } from '../common/ScrollRegion';
import { Chip, Link } from '@mui/material';
import { DataTable, List, Pagination, ResourceContextProvider, SelectInput, useListContext, useLocale, useRecordContext, type RaRecord } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { QUESTIONNAIRE_STATUSES } from '../../shared/questionnaire/types';
import { titleIn } from '../../shared/questionnaire/languages';
import { recordName } from '../master/labels';
import { PER_PAGE, PER_PAGE_OPTIONS } from '../master/SchemaList';
import { statusKey } from '../questionnaires/form/labels';
import { formatDateTime } from '../common/schoolClock';
import { StatusCell, StatusChip } from '../questionnaires/form/StatusChip';
import { useMobileMode } from '../layout/useMobileMode';
import { FEEDBACK_STATUSES, feedbackStatusKey, fillingFieldKey, fillingPath, MY_QUESTIONNAIRES, screenFor, type MyQuestionnaire } from './model';
import { useSchoolYears } from '../common/useSchoolYears';
import { ListCard, ListCards } from '../common/ListCard';
import { NoData } from '../common/NoData';
import { Loading } from '../common/Loading';
import { ReleasedResults } from './ReleasedResults';

/** The list's filters and page are kept in react-admin's store (a cached route). */
export const FILLING_LIST_STORE_KEY = 'filling.listParams';

/** My feedback status as a chip: not submitted stands out, submitted is quiet. */
export function FeedbackChip({ status }: { status: string | undefined }) {
  const translate = useTranslate();
  if (!status) return null;
  return (
    <Chip
      size="small"
      variant={status === 'SUBMITTED' ? 'outlined' : 'filled'}
      color={status === 'SUBMITTED' ? 'success' : status === 'NOT_SUBMITTED' ? 'warning' : 'default'}
      label={translate(feedbackStatusKey(status))}
      data-testid="feedback-chip"
    />
  );
}


function FeedbackCell() {
  const record = useRecordContext<MyQuestionnaire>();
  return <FeedbackChip status={record?.feedbackStatus} />;
}

/** The title opens the questionnaire: a link, so that a keyboard reaches it (a row's click is the mouse's only, WCAG 2.1.1). */
function TitleLink({ record }: { record: MyQuestionnaire }) {
  const locale = useLocale();
  return (
    <Link component={RouterLink} to={fillingPath(screenFor(record), record.id)} onClick={(e) => e.stopPropagation()} data-testid="filling-open">
      {titleIn(record, locale === 'en' ? 'en' : 'zh-hk')}
    </Link>
  );
}

/** A phone's list: one card per questionnaire, the whole card opens it. */
function FillingCards() {
  const { data, isPending } = useListContext<MyQuestionnaire>();
  const translate = useTranslate();
  const locale = useLocale();
  const navigate = useNavigate();
  if (isPending) return <Loading />;
  if (!data?.length) return <NoData textKey="qe.filling.list.empty" />;
  const label = (name: string) => translate(fillingFieldKey(name));
  const line = (name: string, value: string) => (value ? translate('qe.common.line', { label: label(name), value }) : null);
  return (
    <ListCards testId="filling-cards">
      {data.map((q) => (
        <ListCard
          key={q.id}
          id={q.id}
          testId="filling-card"
          title={titleIn(q, locale === 'en' ? 'en' : 'zh-hk')}
          onOpen={() => navigate(fillingPath(screenFor(q), q.id))}
          chips={
            <>
              <StatusChip status={q.status} />
              <FeedbackChip status={q.feedbackStatus} />
            </>
          }
          lines={[
            line('designatedCode', q.designatedCode),
            line('inCharge', recordName(q.inCharge as unknown as RaRecord, locale)),
            line('openDate', formatDateTime(q.openDate)),
            line('endDate', formatDateTime(q.endDate)),
            line('submittedAt', formatDateTime(q.submittedAt)),
          ]}
        />
      ))}
    </ListCards>
  );
}

/**
 * QuestionnaireFillingList: the questionnaires that target me (GET /v1/my/questionnaires), in
 * progress first, filtered by school year (the current one by default, from my user info) and
 * status, with my designated code, feedback status and submit time. A table on a wide screen, cards below the
 * mobile breakpoint. A row opens the answer screen: the detail route while I may answer, the
 * view route otherwise. Filters and page are kept when I come back (kept alive).
 */
export function QuestionnaireFillingList() {
  const translate = useTranslate();
  const locale = useLocale();
  const mobile = useMobileMode();
  const { years, currentYear, isPending } = useSchoolYears();
  if (isPending) return <Loading />;
  const label = (name: string) => translate(fillingFieldKey(name));

  const filters: ReactElement[] = [
    <SelectInput key="schoolYearId" source="schoolYearId" label={label('schoolYear')} choices={years.map((y) => ({ id: y.id, name: y.name }))} translateChoice={false} emptyText="—" alwaysOn />,
    <SelectInput
      key="status"
      source="status"
      label={label('status')}
      choices={QUESTIONNAIRE_STATUSES.filter((s) => s !== 'PREPARING').map((s) => ({ id: s, name: translate(statusKey(s)) }))}
      translateChoice={false}
      emptyText="—"
      alwaysOn
    />,
    <SelectInput
      key="feedbackStatus"
      source="feedbackStatus"
      label={label('feedbackStatus')}
      choices={FEEDBACK_STATUSES.map((s) => ({ id: s, name: translate(feedbackStatusKey(s)) }))}
      translateChoice={false}
      emptyText="—"
      alwaysOn
    />,
  ];

  return (
    <ResourceContextProvider value={MY_QUESTIONNAIRES}>
      <ReleasedResults />
      <List
        resource={MY_QUESTIONNAIRES}
        title={translate('qe.menu.QuestionnaireFillingList')}
        perPage={PER_PAGE}
        filters={filters}
        filterDefaultValues={currentYear ? { schoolYearId: currentYear.id } : {}}
        storeKey={FILLING_LIST_STORE_KEY}
        actions={false}
        pagination={<Pagination rowsPerPageOptions={PER_PAGE_OPTIONS} />}
        empty={false}
        exporter={false}
        // the route table has checked form-input.view; react-admin's own check would ask about the API resource name
        disableAuthentication
        sx={{
          '& .RaList-main, & .RaList-content': { minWidth: 0 },
          // the filters wrap on a phone rather than widen the page
          '& .RaFilterForm-root': { flexWrap: 'wrap', minWidth: 0 },
          '& .RaFilterForm-root .MuiFormControl-root': { minWidth: mobile ? 140 : 180 },
        }}
      >
        {mobile ? (
          <FillingCards />
        ) : (
          <ScrollRegion>
          <DataTable
            rowClick={(_id, _resource, record) => fillingPath(screenFor(record as MyQuestionnaire), record.id)}
            bulkActionButtons={false}
            empty={<NoData textKey="qe.filling.list.empty" />}
            data-testid="list-filling"
            sx={{
              '& .RaDataTable-headerCell, & .column-designatedCode, & .column-status, & .column-openDate, & .column-endDate, & .column-feedbackStatus, & .column-submittedAt': { whiteSpace: 'nowrap' },
            }}
          >
            <DataTable.Col source="title" label={label('title')} disableSort render={(r: RaRecord) => <TitleLink record={r as MyQuestionnaire} />} />
            <DataTable.Col source="designatedCode" label={label('designatedCode')} disableSort render={(r: RaRecord) => <span data-testid="designated-code">{(r as MyQuestionnaire).designatedCode}</span>} />
            <DataTable.Col source="inCharge" label={label('inCharge')} disableSort render={(r: RaRecord) => recordName((r as MyQuestionnaire).inCharge as unknown as RaRecord, locale)} />
            <DataTable.Col source="status" label={label('status')} disableSort>
              <StatusCell />
            </DataTable.Col>
            <DataTable.Col source="openDate" label={label('openDate')} disableSort render={(r: RaRecord) => formatDateTime(r.openDate)} />
            <DataTable.Col source="endDate" label={label('endDate')} disableSort render={(r: RaRecord) => formatDateTime(r.endDate)} />
            <DataTable.Col source="feedbackStatus" label={label('feedbackStatus')} disableSort>
              <FeedbackCell />
            </DataTable.Col>
            <DataTable.Col source="submittedAt" label={label('submittedAt')} disableSort render={(r: RaRecord) => formatDateTime(r.submittedAt)} />
          </DataTable>
          </ScrollRegion>
        )}
      </List>
    </ResourceContextProvider>
  );
}
