import { Box, Chip, List, ListItem, ListItemText, Typography } from '@mui/material';
import { useTranslate } from '../i18n/translate';
import { masterEntities } from '../../shared/generated/master-entities';
import { formatDateTime } from '../common/schoolClock';
import { DashboardCard, EmptyLine } from './DashboardCard';
import { rateText, type Dashboard, type DashboardImport } from './useDashboard';
import { composedKey } from '../../shared/i18n/keys';

/** The master-data list an import went into, named as the menu names it (qe.menu.{name}); its resource name otherwise. */
function useResourceName() {
  const translate = useTranslate();
  return (resource: string) => {
    const entity = Object.values(masterEntities).find((e) => e.meta.resource === resource);
    return entity ? translate(composedKey(`qe.menu.${entity.meta.name}`)) : resource;
  };
}

const STATUS_COLORS: Record<DashboardImport['status'], 'info' | 'success' | 'error' | 'warning'> = {
  running: 'info',
  done: 'success',
  failed: 'error',
  interrupted: 'warning',
};

/** A figure: the number large, what it counts below. */
function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Box sx={{ minWidth: 0 }} data-testid={testId}>
      <Typography variant="h5" component="p" sx={{ overflowWrap: 'anywhere' }}>
        {value}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
    </Box>
  );
}

/** The school: questionnaires in progress, their respondents and submissions in all, and my latest imports. */
export function SchoolCard({ data }: { data: NonNullable<Dashboard['school']> }) {
  const translate = useTranslate();
  const resourceName = useResourceName();
  const t = (key: string, options?: Record<string, unknown>) => translate(composedKey(`qe.dashboard.school.${key}`), options);
  return (
    <DashboardCard title={t('title')} testId="dashboard-school">
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: 2, mb: 2 }}>
        <Figure label={t('openQuestionnaires')} value={String(data.openQuestionnaires)} testId="school-open" />
        <Figure label={t('respondents')} value={String(data.respondents)} testId="school-respondents" />
        <Figure label={t('submitted')} value={t('submittedRate', { submitted: data.submitted, rate: rateText(data.submitted, data.respondents) })} testId="school-submitted" />
      </Box>
      <Typography variant="subtitle1" component="h3">
        {t('imports')}
      </Typography>
      {data.imports.length === 0 ? (
        <EmptyLine text={t('noImports')} testId="imports-empty" />
      ) : (
        <List dense disablePadding>
          {data.imports.map((job) => (
            <ListItem key={job.id} disableGutters divider data-testid="import-item" sx={{ display: 'block' }}>
              <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
                <Typography sx={{ fontWeight: 500 }}>{resourceName(job.resource)}</Typography>
                <Chip size="small" variant="outlined" color={STATUS_COLORS[job.status]} label={t(`importStatus.${job.status}`)} data-testid="import-status" />
              </Box>
              <ListItemText
                sx={{ m: 0 }}
                primary={t('importCounts', { rows: job.rows, added: job.added, updated: job.updated, skipped: job.skipped })}
                secondary={t('importedAt', { time: formatDateTime(job.createdAt) })}
                slotProps={{ primary: { variant: 'body2' } }}
              />
            </ListItem>
          ))}
        </List>
      )}
    </DashboardCard>
  );
}
