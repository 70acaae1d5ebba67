import type { ReactElement } from 'react';
import { ScrollRegion } from '../common/ScrollRegion';
import AddIcon from '@mui/icons-material/Add';
import { Button, DataTable, FilterButton, List, Pagination, ResourceContextProvider, SearchInput, SelectInput, TextInput, TopToolbar, useListContext } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { useNavigate } from 'react-router-dom';
import type { MasterEntity } from '../../shared/master/entity';
import { useMayDo } from './access';
import { column } from './columns';
import { EXTRA_LIST_ACTIONS } from './extraListActions';
import { ExportButton } from './ExportButton';
import { ImportButton } from './ImportButton';
import { ReferencePicker, useEnumChoices } from './inputs';
import { useFieldLabel } from './labels';
import { masterPath } from './paths';
import { kindOf } from './schema';
import { isYearly, SchoolYearFilter, withSchoolYear } from './schoolYear';
import { NoData } from '../common/NoData';
import { useMobileMode } from '../layout/useMobileMode';
import { SchemaCards } from './SchemaCards';
import { RowActions } from './RowActions';
import { composedKey } from '../../shared/i18n/keys';
import { useFittingColumns } from '../common/useFittingColumns';

export const PER_PAGE = 20;
export const PER_PAGE_OPTIONS = [20, 50, 100];


/** A filter of the list (meta.filters): an enum as a select, a reference as a searchable picker. */
// react-admin's filter form reads `source` and `alwaysOn` from the element's props
// (and `label`, which the phone's filter button lists)
function FilterInput({ entity, source: name }: { entity: MasterEntity; source: string; alwaysOn?: boolean; label?: string }) {
  const prop = entity.schema.properties[name];
  const label = useFieldLabel(entity.key)(name);
  const choices = useEnumChoices(entity.key, name, prop);
  switch (kindOf(prop)) {
    case 'enum':
      return <SelectInput source={name} label={label} choices={choices} translateChoice={false} emptyText="—" />;
    case 'reference':
      return <ReferencePicker source={name} prop={prop} label={label} />;
    default:
      return <TextInput source={name} label={label} />;
  }
}

function ListActions({ entity }: { entity: MasterEntity }) {
  const { meta } = entity;
  const navigate = useNavigate();
  const mobile = useMobileMode();
  const mayAdd = useMayDo(meta, 'add');
  const mayImport = useMayDo(meta, 'import');
  const mayExport = useMayDo(meta, 'export');
  const Extra = EXTRA_LIST_ACTIONS[entity.key];
  return (
    <TopToolbar>
      {/* on a phone the filters wait behind this button; those in use show with their clear button */}
      {mobile && <FilterButton disableSaveQuery data-testid="master-filters" />}
      {mayAdd && (
        <Button label="qe.master.add" onClick={() => navigate(masterPath(meta.route, 'add'))} data-testid="master-add">
          <AddIcon />
        </Button>
      )}
      {meta.importable && mayImport && <ImportButton meta={meta} yearly={isYearly(entity)} />}
      {mayExport && <ExportButton meta={meta} />}
      {Extra && <Extra />}
    </TopToolbar>
  );
}

/** The rows of the list (cards on a phone); a row opens its record in the school year the list shows. */
function SchemaTable({ entity, mayEdit, mayDelete }: { entity: MasterEntity; mayEdit: boolean; mayDelete: boolean }) {
  const { meta } = entity;
  const translate = useTranslate();
  const label = useFieldLabel(entity.key);
  const { filterValues } = useListContext();
  // where the table is too wide, its last columns give way first; the first two (a code and a name) stay
  const fit = useFittingColumns(meta.columns.slice(2).reverse());
  // below the mobile breakpoint every list is cards: a table would scroll sideways
  if (useMobileMode()) return <SchemaCards entity={entity} mayEdit={mayEdit} mayDelete={mayDelete} />;
  return (
    <ScrollRegion ref={fit.ref}>
    <DataTable
      rowClick={(id) => withSchoolYear(masterPath(meta.route, 'view', id), filterValues.schoolYearId)}
      bulkActionButtons={false}
      empty={<NoData />}
      data-testid={`list-${meta.resource}`}
      // short headers on one line; a wide table scrolls inside its card rather than the page
      sx={{ '& .RaDataTable-headerCell, & .column-actions': { whiteSpace: 'nowrap' } }}
    >
      {meta.columns.filter(fit.shows).map((name) => column(entity, name, label(name)))}
      {(mayEdit || mayDelete) && (
        <DataTable.Col label={translate('qe.master.actions')} disableSort className="column-actions">
          <RowActions entity={entity} mayEdit={mayEdit} mayDelete={mayDelete} />
        </DataTable.Col>
      )}
    </DataTable>
    </ScrollRegion>
  );
}

/**
 * The list of a master entity, composed from its schema: server-side pagination and sort, the
 * search box (`q`), the school year for per-year values, the filters of meta.filters, the columns of meta.columns; a row opens the
 * record, and add, edit, delete, import and export follow the user's permissions. A cached
 * list (meta.cached) keeps its filters and page in react-admin's store; the others start afresh.
 */
export function SchemaList({ entity }: { entity: MasterEntity }) {
  const { meta } = entity;
  const translate = useTranslate();
  const mayEdit = useMayDo(meta, 'edit');
  const mayDelete = useMayDo(meta, 'delete');
  // on a phone only the search box stands above the cards: the others behind the filter button
  const shown = !useMobileMode();
  const label = useFieldLabel(entity.key);
  const filters: ReactElement[] = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('qe.master.search')} />,
    ...(isYearly(entity) ? [<SchoolYearFilter key="schoolYearId" source="schoolYearId" alwaysOn={shown} label={translate('qe.master.schoolYear.label')} />] : []),
    ...(meta.filters ?? []).map((name) => <FilterInput key={name} entity={entity} source={name} alwaysOn={shown} label={label(name)} />),
  ];
  return (
    <ResourceContextProvider value={meta.resource}>
      <List
        resource={meta.resource}
        title={translate(composedKey(`qe.menu.${meta.name}`))}
        perPage={PER_PAGE}
        sort={meta.defaultSort}
        filters={filters}
        storeKey={meta.cached ? `${meta.resource}.listParams` : false}
        actions={<ListActions entity={entity} />}
        pagination={<Pagination rowsPerPageOptions={PER_PAGE_OPTIONS} />}
        empty={false}
        exporter={false}
        // the route table has checked `${meta.permission}.view`; react-admin's own check would ask about the API resource name
        disableAuthentication
        sx={{ '& .RaList-main, & .RaList-content': { minWidth: 0 } }}
      >
        <SchemaTable entity={entity} mayEdit={mayEdit} mayDelete={mayDelete} />
      </List>
    </ResourceContextProvider>
  );
}
