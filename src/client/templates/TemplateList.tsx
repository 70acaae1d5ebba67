import { useCallback, useState } from 'react';
import { Box, Chip, Tab, Tabs, Typography } from '@mui/material';
import { DataTable, List, Pagination, ResourceContextProvider, SearchInput, TopToolbar, useListContext, useLocale, type RaRecord } from 'react-admin';
import type { TemplateSummary } from '../../shared/calls/templates';
import { formatDateTime } from '../common/schoolClock';
import { ListCard, ListCards } from '../common/ListCard';
import { Loading } from '../common/Loading';
import { NoData } from '../common/NoData';
import { ScrollRegion } from '../common/ScrollRegion';
import { useFittingColumns } from '../common/useFittingColumns';
import { useTranslate } from '../i18n/translate';
import { useMobileMode } from '../layout/useMobileMode';
import { PER_PAGE, PER_PAGE_OPTIONS } from '../master/SchemaList';
import { TEMPLATES } from './api';
import { audienceText, templateDescription, templateName } from './labels';
import { TemplateActions } from './TemplateActions';
import { TemplatePreview } from './TemplatePreview';

type Row = TemplateSummary & RaRecord;

/** In use or retired: two tabs over the list's `retired` filter. */
function RetiredTabs() {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListContext();
  const retired = filterValues.retired === true || filterValues.retired === 'true';
  return (
    <Tabs
      value={retired ? 'retired' : 'active'}
      onChange={(_, v: string) => setFilters({ ...filterValues, retired: v === 'retired' ? true : undefined }, {})}
      aria-label={translate('qe.template.list.tabs')}
      sx={{ px: 1 }}
      data-testid="template-tabs"
    >
      <Tab value="active" label={translate('qe.template.list.active')} data-testid="template-tab-active" />
      <Tab value="retired" label={translate('qe.template.list.retired')} data-testid="template-tab-retired" />
    </Tabs>
  );
}

/** Nothing to list: the search's "nothing found, clear it", or that there are no templates (retired ones) at all. */
function Empty() {
  const { filterValues } = useListContext();
  if (filterValues.q) return <NoData />;
  return <NoData textKey={filterValues.retired ? 'qe.template.list.emptyRetired' : 'qe.template.list.empty'} />;
}

function Chips({ r }: { r: TemplateSummary }) {
  const translate = useTranslate();
  return (
    <>
      <Chip size="small" variant="outlined" label={audienceText(translate, r.audienceKind, r.gradeCode)} />
      {r.starter && <Chip size="small" label={translate('qe.template.starter')} />}
      {r.retired && <Chip size="small" color="warning" label={translate('qe.template.retiredChip')} />}
    </>
  );
}

/** A phone's list: one card per template, the card opening its preview, its actions under it. */
function TemplateCards({ onPreview }: { onPreview: (id: number) => void }) {
  const { data, isPending } = useListContext<Row>();
  const translate = useTranslate();
  const locale = useLocale();
  if (isPending) return <Loading />;
  if (!data?.length) return <Empty />;
  const line = (name: 'description' | 'questionCount' | 'updatedAt', value: string) => (value ? translate('qe.common.line', { label: translate(`qe.template.fields.${name}`), value }) : null);
  return (
    <ListCards testId="template-cards">
      {data.map((r) => (
        <ListCard
          key={r.id}
          id={r.id}
          testId="template-card"
          title={templateName(r, locale)}
          onOpen={() => onPreview(r.id)}
          chips={<Chips r={r} />}
          lines={[line('description', templateDescription(r, locale)), line('questionCount', String(r.questionCount)), line('updatedAt', formatDateTime(r.updatedAt))]}
          actions={<TemplateActions record={r} />}
        />
      ))}
    </ListCards>
  );
}

/**
 * formsTemplates (form-template.view): the school's questionnaire templates by name in the reader's
 * language, searched in both languages (names and descriptions), in use or retired; each row
 * previews the template, and offers new from template, edit, retire or restore as the user's
 * rights allow (docs/product-rules.md#templates). Below the mobile breakpoint the rows are cards.
 */
export function TemplateList() {
  const translate = useTranslate();
  const locale = useLocale();
  const mobile = useMobileMode();
  const fit = useFittingColumns(['updatedAt', 'questionCount', 'audienceKind', 'description']);
  const [preview, setPreview] = useState<number | null>(null);
  const closePreview = useCallback(() => setPreview(null), []);
  const label = (name: 'name' | 'description' | 'audienceKind' | 'questionCount' | 'updatedAt') => translate(`qe.template.fields.${name}`);
  const filters = [<SearchInput key="q" source="q" alwaysOn placeholder={translate('qe.template.list.search')} />];
  return (
    <ResourceContextProvider value={TEMPLATES}>
      <List
        resource={TEMPLATES}
        title={translate('qe.menu.formsTemplates')}
        perPage={PER_PAGE}
        // by name in the reader's language
        sort={{ field: locale === 'en' ? 'nameEn' : 'nameHk', order: 'ASC' }}
        filters={filters}
        storeKey={false}
        actions={<TopToolbar />}
        pagination={<Pagination rowsPerPageOptions={PER_PAGE_OPTIONS} />}
        empty={false}
        exporter={false}
        // the route table has checked form-template.view; react-admin's own check would ask about the API resource name
        disableAuthentication
        sx={{ '& .RaList-main, & .RaList-content': { minWidth: 0 } }}
      >
        <RetiredTabs />
        {mobile ? (
          <TemplateCards onPreview={setPreview} />
        ) : (
          <ScrollRegion ref={fit.ref}>
            <DataTable
              rowClick={(id) => {
                setPreview(Number(id));
                return false;
              }}
              bulkActionButtons={false}
              empty={<Empty />}
              data-testid="list-templates"
              sx={{
                '& .column-name': { minWidth: '11em' },
                '& .column-description': { minWidth: '12em' },
                '& .RaDataTable-headerCell, & .column-actions, & .column-updatedAt': { whiteSpace: 'nowrap' },
              }}
            >
              <DataTable.Col source="name" label={label('name')} disableSort render={(r: Row) => <Box component="span" data-testid="template-name">{templateName(r, locale)}</Box>} />
              {fit.shows('description') && (
                <DataTable.Col source="description" label={label('description')} disableSort render={(r: Row) => <Typography variant="body2" sx={{ color: 'text.secondary' }}>{templateDescription(r, locale)}</Typography>} />
              )}
              {fit.shows('audienceKind') && <DataTable.Col source="audienceKind" label={label('audienceKind')} disableSort render={(r: Row) => <Box sx={{ display: 'flex', gap: 0.5, flexWrap: 'wrap' }}><Chips r={r} /></Box>} />}
              {fit.shows('questionCount') && <DataTable.Col source="questionCount" label={label('questionCount')} disableSort />}
              {fit.shows('updatedAt') && <DataTable.Col source="updatedAt" label={label('updatedAt')} render={(r: Row) => formatDateTime(r.updatedAt)} />}
              <DataTable.Col label={translate('qe.master.actions')} disableSort className="column-actions" render={(r: Row) => <TemplateActions record={r} />} />
            </DataTable>
          </ScrollRegion>
        )}
      </List>
      {preview !== null && <TemplatePreview id={preview} onClose={closePreview} />}
    </ResourceContextProvider>
  );
}
