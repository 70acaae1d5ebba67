import { Alert } from '@mui/material';
import { useTranslate } from 'react-admin';

/** Why an anonymous questionnaire's results for this group are hidden (API.md: withheld). */
export function WithheldNotice({ withheld }: { withheld: { minGroupSize: number } | null | undefined }) {
  const translate = useTranslate();
  if (!withheld) return null;
  return (
    <Alert severity="info" data-testid="withheld-notice">
      {translate('qe.statistics.withheld', { n: withheld.minGroupSize })}
    </Alert>
  );
}
