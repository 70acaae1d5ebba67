import { memo, type ChangeEvent, type Dispatch } from 'react';
import { Paper, TextField, Typography } from '@mui/material';
import { useTranslate } from '../../i18n/translate';
import { CLOSING_MESSAGE_MAX } from '../../../shared/questionnaire/languages';
import type { DesignerAction } from './model';
import { useProblems } from './problems';

/** The questionnaire's closing message: what a respondent reads once their reply is submitted (optional). */
export const ClosingMessageEditor = memo(function ClosingMessageEditor({ message, dispatch }: { message: string | undefined; dispatch: Dispatch<DesignerAction> }) {
  const translate = useTranslate();
  const problem = useProblems().at('closingMessage');
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="closing-editor">
      <Typography variant="subtitle2" component="h2" sx={{ mb: 1 }}>
        {translate('qe.designer.closing.title')}
      </Typography>
      <TextField
        fullWidth
        multiline
        minRows={2}
        size="small"
        label={translate('qe.designer.closing.label')}
        value={message ?? ''}
        onChange={(e: ChangeEvent<HTMLInputElement>) => dispatch({ type: 'setClosingMessage', message: e.target.value })}
        error={Boolean(problem)}
        helperText={problem ?? translate('qe.designer.closing.help')}
        slotProps={{ htmlInput: { maxLength: CLOSING_MESSAGE_MAX, 'data-testid': 'closing-message' } }}
      />
    </Paper>
  );
});
