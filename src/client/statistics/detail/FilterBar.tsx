import { Box, Button, MenuItem, TextField } from '@mui/material';
import { useLocale } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import type { GroupCount, RespondentRole, StatisticsDetail, StatisticsFilter } from '../../../shared/statistics/types';
import { nameOf, roleKey, statisticsFieldKey } from '../labels';

const ALL = '';

/**
 * The respondent filters of the detail: role, grade and class (the groups the server lists,
 * with how many of each submitted), the classes narrowed by the grade. Grades and classes are
 * the students': choosing teachers clears them. Every change is a new filter for the caller,
 * which keeps it in the URL and asks the server again.
 */
export function FilterBar({ groups, filter, onChange }: { groups: StatisticsDetail['groups']; filter: StatisticsFilter; onChange: (next: StatisticsFilter) => void }) {
  const translate = useTranslate();
  const locale = useLocale();
  const counted = (name: string, g: GroupCount) => translate('qe.statistics.filter.option', { name, submitted: g.submittedNum, respondents: g.respondentNum });
  const classes = groups.classes.filter((c) => filter.gradeId === undefined || c.gradeId === filter.gradeId);
  const teachers = filter.role === 'TEACHER';
  const any = filter.role !== undefined || filter.gradeId !== undefined || filter.classId !== undefined;

  const setRole = (value: string) => {
    const role = (value || undefined) as RespondentRole | undefined;
    onChange(role === 'TEACHER' ? { role } : { ...filter, role });
  };
  const setGrade = (value: string) => {
    const gradeId = value ? Number(value) : undefined;
    const keepClass = filter.classId !== undefined && groups.classes.some((c) => c.id === filter.classId && (gradeId === undefined || c.gradeId === gradeId));
    onChange({ ...filter, gradeId, classId: keepClass ? filter.classId : undefined });
  };
  const setClass = (value: string) => onChange({ ...filter, classId: value ? Number(value) : undefined });

  const select = (name: string, value: string, change: (v: string) => void, items: { value: string; label: string }[], disabled = false) => (
    <TextField
      select
      size="small"
      label={translate(statisticsFieldKey(name))}
      value={items.some((i) => i.value === value) ? value : ALL}
      onChange={(e) => change(e.target.value)}
      disabled={disabled}
      sx={{ minWidth: 150, flex: '1 1 150px', maxWidth: { sm: 260 } }}
      data-testid={`filter-${name}`}
    >
      <MenuItem value={ALL}>{translate('qe.statistics.filter.all')}</MenuItem>
      {items.map((i) => (
        <MenuItem key={i.value} value={i.value}>
          {i.label}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', alignItems: 'center' }} data-testid="statistics-filters" role="group" aria-label={translate('qe.statistics.filter.label')}>
      {select(
        'role',
        filter.role ?? ALL,
        setRole,
        groups.roles.map((r) => ({ value: r.role, label: counted(translate(roleKey(r.role)), r) })),
      )}
      {select(
        'grade',
        filter.gradeId === undefined ? ALL : String(filter.gradeId),
        setGrade,
        groups.grades.map((g) => ({ value: String(g.id), label: counted(nameOf(g, locale), g) })),
        teachers || groups.grades.length === 0,
      )}
      {select(
        'class',
        filter.classId === undefined ? ALL : String(filter.classId),
        setClass,
        classes.map((c) => ({ value: String(c.id), label: counted(nameOf(c, locale), c) })),
        teachers || classes.length === 0,
      )}
      {any && (
        <Button size="small" onClick={() => onChange({})} data-testid="filter-clear">
          {translate('qe.statistics.filter.clear')}
        </Button>
      )}
    </Box>
  );
}
