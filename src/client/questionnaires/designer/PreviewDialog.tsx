import { useState } from 'react';
import { AppBar, Box, Dialog, IconButton, Toolbar, Typography } from '@mui/material';
import CloseIcon from '@mui/icons-material/Close';
import { useTranslate } from '../../i18n/translate';
import type { Definition } from '../../../shared/questionnaire/definition';
import type { Answers } from '../../../shared/questionnaire/answers';
import { QuestionnaireView } from '../respondent/QuestionnaireView';

/** The questionnaire exactly as a respondent will see it, full screen; the answers given here stay here. */
export function PreviewDialog({ definition, title, onClose }: { definition: Definition; title: string; onClose: () => void }) {
  const translate = useTranslate();
  const [answers, setAnswers] = useState<Answers>({});
  return (
    <Dialog fullScreen open onClose={onClose} aria-labelledby="qe-preview-title" data-testid="preview-dialog">
      <AppBar position="sticky" color="default" elevation={1}>
        <Toolbar variant="dense">
          <IconButton edge="start" onClick={onClose} aria-label={translate('qe.designer.preview.close')} data-testid="preview-close">
            <CloseIcon />
          </IconButton>
          <Typography id="qe-preview-title" variant="h6" component="h2" sx={{ ml: 1, flex: 1 }}>
            {translate('qe.designer.preview.title')}
          </Typography>
        </Toolbar>
      </AppBar>
      <Box sx={{ bgcolor: 'grey.100', flex: 1, p: { xs: 1 }, pt: 2 }}>
        <QuestionnaireView definition={definition} value={answers} onChange={setAnswers} preview title={title} />
      </Box>
    </Dialog>
  );
}
