import { useState, type ReactElement } from 'react';
import { ScrollRegion } from '../../common/ScrollRegion';
import AddIcon from '@mui/icons-material/Add';
import { Chip } from '@mui/material';
import { Button, DataTable, List, Pagination, ResourceContextProvider, SearchInput, SelectInput, TopToolbar, useLocale, useListContext, useRecordContext, type RaRecord } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import { useNavigate } from 'react-router-dom';
import { QUESTIONNAIRE_STATUSES, type Questionnaire } from '../../../shared/questionnaire/types';
import { titleIn } from '../../../shared/questionnaire/languages';
import type { Lang } from '../../../shared/i18n/text';
import { recordName } from '../../master/labels';
import { PER_PAGE, PER_PAGE_OPTIONS } from '../../master/SchemaList';
import { useMayForm } from '../form/access';
import { LifecycleActions } from '../form/LifecycleActions';
import { fieldKey, SCOPES, statusKey, typeKey } from '../form/labels';
import { formatDateTime, formatDay } from '../../common/schoolClock';
import { formsPath, QUESTIONNAIRES } from '../form/paths';
import { StatusCell, StatusChip } from '../form/StatusChip';
import { ListCard, ListCards } from '../../common/ListCard';
import { useMobileMode } from '../../layout/useMobileMode';
import { useSchoolYears } from '../../common/useSchoolYears';
import { NoData } from '../../common/NoData';
import { useFittingColumns } from '../../common/useFittingColumns';
import { Loading } from '../../common/Loading';
import { TemplateIcon, UseTemplateDialog, useMayTemplate } from '../../templates';

function ListActions() {
  const navigate = useNavigate();
  const mayAdd = useMayForm('add');
  const mayUseTemplates = useMayTemplate('view') && mayAdd;
  const [fromTemplate, setFromTemplate] = useState(false);
  return (
    <TopToolbar>
      {mayAdd && (
        <Button label="qe.questionnaire.action.add" onClick={() => navigate(formsPath('add'))} data-testid="questionnaire-add">
          <AddIcon />
        </Button>
      )}
      {mayUseTemplates && (
        <Button label="qe.questionnaire.action.fromTemplate" onClick={() => setFromTemplate(true)} data-testid="questionnaire-from-template">
          <TemplateIcon />
        </Button>
      )}
      {fromTemplate && <UseTemplateDialog onClose={() => setFromTemplate(false)} />}
    </TopToolbar>
  );
}

function RowActions() {
  const record = useRecordContext<Questionnaire>();
  if (!record) return null;
  // a copy for this year and save as template are offered on the questionnaire's own screen: the row keeps its width (five actions fit at 1280 px)
  return <LifecycleActions record={record} omit={['copyForYear', 'saveAsTemplate']} />;
}



/** The title in the reader's language where the questionnaire has it (docs/questionnaire-languages.md), its main title otherwise. */
const titleFor = (r: Questionnaire, locale: string) => titleIn(r, (locale === 'en' ? 'en' : 'zh-hk') satisfies Lang);

/** submitted / respondents, once the questionnaire has opened (its feedback records exist from then on). */
const progress = (r: Questionnaire) => (r.status === 'PROCESSING' || r.status === 'FINISHED' ? `${r.submittedCount ?? 0} / ${r.respondentCount ?? 0}` : '—');

/** A phone's list: one card per questionnaire, the whole card opening its screen (the actions are there). */
function QuestionnaireCards() {
  const { data, isPending } = useListContext<Questionnaire & RaRecord>();
  const translate = useTranslate();
  const locale = useLocale();
  const navigate = useNavigate();
  if (isPending) return <Loading />;
  if (!data?.length) return <NoData />;
  const line = (name: string, value: string) => (value ? translate('qe.common.line', { label: translate(fieldKey(name)), value }) : null);
  return (
    <ListCards testId="questionnaire-cards">
      {data.map((r) => (
        <ListCard
          key={r.id}
          id={r.id}
          testId="questionnaire-card"
          title={titleFor(r, locale)}
          onOpen={() => navigate(formsPath('view', r.id))}
          chips={
            <>
              <StatusChip status={r.status} />
              <Chip size="small" variant="outlined" label={translate(typeKey(r.type))} />
            </>
          }
          lines={[
            line('inCharge', recordName(r.inCharge as unknown as RaRecord, locale)),
            line('openDate', formatDateTime(r.openDate)),
            line('endDate', formatDateTime(r.endDate)),
            line('progress', progress(r) === '—' ? '' : progress(r)),
            line('lastNoticeTime', formatDateTime(r.lastNoticeTime)),
          ]}
        />
      ))}
    </ListCards>
  );
}

/**
 * formsList: the questionnaires the user may see (GET /v1/questionnaires), searchable by
 * title and filtered by status, school year (the years of the user's info, the current one
 * by default: a teacher may lack school-year.view) and scope — mine, assisting, and all for
 * those who hold form.management. A row opens the view screen; each row offers the actions
 * of its status that the user may take. Below the mobile breakpoint the rows are cards.
 */
export function QuestionnaireList() {
  const translate = useTranslate();
  const locale = useLocale();
  const { years, currentYear, isPending } = useSchoolYears();
  const manages = useMayForm('management');
  const mobile = useMobileMode();
  // where the table is too wide these give way, the least needed first: title, status, end and actions stay
  const fit = useFittingColumns(['lastNoticeTime', 'createDate', 'type', 'openDate', 'inCharge', 'submittedCount']);
  if (isPending) return <Loading />;
  const label = (name: string) => translate(fieldKey(name));

  const filters: ReactElement[] = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('qe.questionnaire.message.searchTitle')} />,
    <SelectInput
      key="status"
      source="status"
      label={label('status')}
      choices={QUESTIONNAIRE_STATUSES.map((s) => ({ id: s, name: translate(statusKey(s)) }))}
      translateChoice={false}
      emptyText="—"
      alwaysOn
    />,
    <SelectInput key="schoolYearId" source="schoolYearId" label={label('schoolYear')} choices={years.map((y) => ({ id: y.id, name: y.name }))} translateChoice={false} emptyText="—" alwaysOn />,
    <SelectInput
      key="scope"
      source="scope"
      label={label('scope')}
      choices={SCOPES.filter((s) => s !== 'all' || manages).map((s) => ({ id: s, name: translate(`qe.questionnaire.scope.${s}`) }))}
      translateChoice={false}
      emptyText="—"
      alwaysOn
    />,
  ];

  return (
    <ResourceContextProvider value={QUESTIONNAIRES}>
      <List
        resource={QUESTIONNAIRES}
        title={translate('qe.menu.formsList')}
        perPage={PER_PAGE}
        sort={{ field: 'createDate', order: 'DESC' }}
        filters={filters}
        filterDefaultValues={currentYear ? { schoolYearId: currentYear.id } : {}}
        storeKey={false}
        actions={<ListActions />}
        pagination={<Pagination rowsPerPageOptions={PER_PAGE_OPTIONS} />}
        empty={false}
        exporter={false}
        // the route table has checked form.view; react-admin's own check would ask about the API resource name
        disableAuthentication
        sx={{ '& .RaList-main, & .RaList-content': { minWidth: 0 } }}
      >
        {mobile ? (
          <QuestionnaireCards />
        ) : (
          <ScrollRegion ref={fit.ref}>
          <DataTable
            rowClick={(id) => formsPath('view', id)}
            bulkActionButtons={false}
            empty={<NoData />}
            data-testid="list-questionnaires"
            sx={{
              // a title reads as a line of words, not four characters a line
              '& .column-title': { minWidth: '11em' },
              '& .RaDataTable-headerCell, & .column-actions, & .column-status, & .column-openDate, & .column-endDate, & .column-createDate, & .column-lastNoticeTime': { whiteSpace: 'nowrap' },
            }}
          >
            <DataTable.Col source="title" label={label('title')} render={(r: RaRecord) => titleFor(r as Questionnaire, locale)} />
            {fit.shows('inCharge') && <DataTable.Col source="inCharge" label={label('inCharge')} disableSort render={(r: RaRecord) => recordName((r as Questionnaire).inCharge as unknown as RaRecord, locale)} />}
            <DataTable.Col source="status" label={label('status')}>
              <StatusCell />
            </DataTable.Col>
            {fit.shows('type') && <DataTable.Col source="type" label={label('type')} disableSort render={(r: RaRecord) => translate(typeKey(r.type))} />}
            {fit.shows('openDate') && <DataTable.Col source="openDate" label={label('openDate')} render={(r: RaRecord) => formatDateTime(r.openDate)} />}
            <DataTable.Col source="endDate" label={label('endDate')} render={(r: RaRecord) => formatDateTime(r.endDate)} />
            {fit.shows('createDate') && <DataTable.Col source="createDate" label={label('createDate')} render={(r: RaRecord) => formatDay(r.createDate)} />}
            {fit.shows('lastNoticeTime') && <DataTable.Col source="lastNoticeTime" label={label('lastNoticeTime')} disableSort render={(r: RaRecord) => formatDateTime(r.lastNoticeTime)} />}
            {fit.shows('submittedCount') && <DataTable.Col source="submittedCount" label={label('progress')} disableSort render={(r: RaRecord) => progress(r as Questionnaire)} />}
            <DataTable.Col label={translate('qe.master.actions')} disableSort className="column-actions">
              <RowActions />
            </DataTable.Col>
          </DataTable>
          </ScrollRegion>
        )}
      </List>
    </ResourceContextProvider>
  );
}
