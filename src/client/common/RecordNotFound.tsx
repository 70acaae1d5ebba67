import { Card, CardContent, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { useTranslate } from '../i18n/translate';

/** A detail screen whose record is missing (or may not be seen): the title and 'record not found'. */
export function RecordNotFound({ title }: { title: string }) {
  const translate = useTranslate();
  return (
    <Card sx={{ mt: 2 }}>
      <Title title={title} />
      <CardContent>
        <Typography data-testid="record-not-found">{translate('qe.error.recordNotFound')}</Typography>
      </CardContent>
    </Card>
  );
}
