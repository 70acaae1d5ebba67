import { Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import { CenteredCard } from '../auth/CenteredCard';

/** /tutorial (public): how to use QE. */
export function TutorialPage() {
  const translate = useTranslate();
  return (
    <CenteredCard title={translate('qe.tutorial.title')}>
      <Typography>{translate('qe.tutorial.body')}</Typography>
    </CenteredCard>
  );
}
