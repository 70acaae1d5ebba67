import { Chip } from '@mui/material';
import { useTranslate } from '../i18n/translate';
import { CONFIRM_STATUS_TAGS, type ConfirmStatus } from '../../shared/personal';

/** A request's status as its tag (docs/product-rules.md#records-and-fields): WAITTING warning, CONFIRM success, REJECT danger. */
export function ConfirmStatusTag({ status }: { status: ConfirmStatus | null | undefined }) {
  const translate = useTranslate();
  if (!status) return null;
  return <Chip size="small" color={CONFIRM_STATUS_TAGS[status]} label={translate(`qe.personalData.status.${status}`)} data-testid="confirm-status" data-status={status} />;
}
