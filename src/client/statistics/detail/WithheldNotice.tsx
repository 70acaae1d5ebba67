import { Alert } from '@mui/material';
import { useTranslate } from '../../i18n/translate';
import type { Withheld } from '../../../shared/statistics/types';

/** Why an anonymous questionnaire's results for this group are hidden (API.md: withheld). */
export function WithheldNotice({ withheld }: { withheld: Withheld | null | undefined }) {
  const translate = useTranslate();
  if (!withheld) return null;
  return (
    <Alert severity="info" data-testid="withheld-notice">
      {translate(withheld.reason === 'total' ? 'qe.statistics.withheldTotal' : 'qe.statistics.withheld', { n: withheld.minGroupSize })}
    </Alert>
  );
}
