import { MenuItem, TextField } from '@mui/material';
import { useInput } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { useSearchParams } from 'react-router-dom';
import { propertyMeta, type MasterEntity } from '../../shared/master/entity';
import { useSchoolYears } from '../common/useSchoolYears';

/**
 * Entities with values kept per school year (a student's class and class number) are listed,
 * read, saved, imported and exported for a chosen year: the current one unless another is chosen
 * (next year's classes entered before it begins). The year travels as `schoolYearId`,
 * in the list's filter and in the record screens' address.
 */
export const isYearly = (entity: MasterEntity) => Object.values(entity.schema.properties).some((p) => Boolean(propertyMeta(p).yearly));

/** A record screen's address for another year; none: the current year. */
export const withSchoolYear = (path: string, schoolYearId: unknown) =>
  schoolYearId === undefined || schoolYearId === null || schoolYearId === '' ? path : `${path}${path.includes('?') ? '&' : '?'}schoolYearId=${encodeURIComponent(String(schoolYearId))}`;

/** The year choices, the current one first marked as such; the empty choice means the current year. */
function useYearChoices() {
  const translate = useTranslate();
  const { years, currentYear, isPending } = useSchoolYears();
  const currentText = currentYear ? translate('qe.master.schoolYear.current', { name: currentYear.name }) : translate('qe.master.schoolYear.noCurrent');
  const others = years.filter((y) => y.id !== currentYear?.id).map((y) => ({ id: y.id, name: y.name }));
  return { currentText, others, isPending, currentYear };
}

/** The list's school-year filter (alwaysOn): empty is the current year, so a stored filter never hides it. */
// react-admin's filter form reads `source` and `alwaysOn` from the element's props
export function SchoolYearFilter({ source }: { source: 'schoolYearId'; alwaysOn?: boolean; label?: string }) {
  const { field } = useInput({ source });
  return <SchoolYearSelect value={field.value ? String(field.value) : ''} onChange={(v) => field.onChange(v ? Number(v) : undefined)} testId="school-year-filter" />;
}

/** A select of the school years (the empty value: the current year), for screens outside a form. */
export function SchoolYearSelect({ value, onChange, testId }: { value: string; onChange: (yearId: string) => void; testId: string }) {
  const translate = useTranslate();
  const { currentText, others, currentYear } = useYearChoices();
  // the current year's own id (an address from before a switch of years) is the empty choice
  const shown = value === String(currentYear?.id ?? '') || !others.some((y) => String(y.id) === value) ? '' : value;
  return (
    <TextField
      select
      size="small"
      label={translate('qe.master.schoolYear.label')}
      value={shown}
      onChange={(e) => onChange(e.target.value)}
      sx={{ minWidth: 220 }}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      data-testid={testId}
    >
      <MenuItem value="">{currentText}</MenuItem>
      {others.map((y) => (
        <MenuItem key={y.id} value={String(y.id)}>
          {y.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The record screen's year, read from and written to its address (`?schoolYearId=`). */
export function useScreenSchoolYear(): [string, (yearId: string) => void] {
  const [params, setParams] = useSearchParams();
  const value = params.get('schoolYearId') ?? '';
  const set = (yearId: string) => {
    const next = new URLSearchParams(params);
    if (yearId) next.set('schoolYearId', yearId);
    else next.delete('schoolYearId');
    setParams(next, { replace: true });
  };
  return [value, set];
}

/** The record screen's year chooser: view, add and edit show and save the class and number of this year. */
export function ScreenSchoolYear() {
  const [value, set] = useScreenSchoolYear();
  return <SchoolYearSelect value={value} onChange={set} testId="school-year-screen" />;
}
