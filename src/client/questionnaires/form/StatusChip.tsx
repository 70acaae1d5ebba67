import { Chip } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import type { QuestionnaireStatus } from '../../../shared/questionnaire/types';
import { STATUS_COLORS, statusKey } from './labels';

/** A questionnaire's status as a coloured chip with its translated text. */
export function StatusChip({ status }: { status: QuestionnaireStatus | undefined }) {
  const translate = useTranslate();
  if (!status) return null;
  return <Chip size="small" color={STATUS_COLORS[status] ?? 'default'} variant={status === 'FINISHED' ? 'outlined' : 'filled'} label={translate(statusKey(status))} data-testid="status-chip" />;
}

/** A list cell with the status chip of the row's questionnaire. */
export function StatusCell() {
  const record = useRecordContext<{ status?: QuestionnaireStatus }>();
  return <StatusChip status={record?.status} />;
}
