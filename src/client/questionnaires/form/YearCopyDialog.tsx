import { useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, FormControl, FormControlLabel, FormLabel, Radio, RadioGroup, Typography } from '@mui/material';
import { useNavigate } from 'react-router-dom';
import { useTranslate } from '../../i18n/translate';
import type { QuestionnaireType } from '../../../shared/questionnaire/types';
import type { YearCopyBody, YearCopyRemap } from '../../../shared/calls/questionnaires';
import { QUESTIONNAIRE_TYPES } from '../../../shared/questionnaire/enums';
import { questionnaireApi } from './api';
import { formsPath } from './paths';

type YearCopyText = 'title' | 'intro' | 'audience' | 'byGrade' | 'byPeople' | 'done' | 'dropped' | 'open';

/**
 * "Copy for this year" (docs/product-rules.md#copy-for-this-year): the user chooses how the audience
 * is carried over — by grade and class, or the same people — and the type again; the dialog then
 * says what became of the audience (how many it was aimed at, how many now, how many dropped) and
 * opens the draft.
 */
export function YearCopyDialog({ id, type, onClose }: { id: number; type: QuestionnaireType; onClose: () => void }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [audience, setAudience] = useState<YearCopyBody['audience']>('GRADE');
  const [chosenType, setChosenType] = useState<QuestionnaireType>(type);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ id: number; remap: YearCopyRemap } | null>(null);
  const submit = async () => {
    setBusy(true);
    try {
      const answer = await questionnaireApi.copyForYear(id, { audience, type: chosenType });
      setDone({ id: answer.questionnaire.id, remap: answer.remap });
    } catch {
      // request() has shown the server's message
    } finally {
      setBusy(false);
    }
  };
  const m = (key: YearCopyText, options?: Record<string, unknown>) => translate(`qe.questionnaire.yearCopy.${key}`, options);
  return (
    <Dialog open onClose={onClose} aria-labelledby="qe-year-copy-title" data-testid="year-copy-dialog" fullWidth maxWidth="sm">
      <DialogTitle id="qe-year-copy-title">{m('title')}</DialogTitle>
      {done ? (
        <>
          <DialogContent>
            <Alert severity="success" data-testid="year-copy-done">
              <Typography variant="body2">{m('done', { before: done.remap.before, after: done.remap.after })}</Typography>
              {done.remap.dropped > 0 && <Typography variant="body2">{m('dropped', { smart_count: done.remap.dropped })}</Typography>}
            </Alert>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{translate('qe.common.close')}</Button>
            <Button variant="contained" onClick={() => navigate(formsPath('view', done.id))} data-testid="year-copy-open">
              {m('open')}
            </Button>
          </DialogActions>
        </>
      ) : (
        <>
          <DialogContent>
            <Typography variant="body2" sx={{ mb: 2 }}>{m('intro')}</Typography>
            <FormControl sx={{ mb: 2 }}>
              <FormLabel id="qe-year-copy-audience">{m('audience')}</FormLabel>
              <RadioGroup aria-labelledby="qe-year-copy-audience" value={audience} onChange={(e) => setAudience(e.target.value as YearCopyBody['audience'])}>
                <FormControlLabel value="GRADE" control={<Radio />} label={m('byGrade')} data-testid="year-copy-grade" />
                <FormControlLabel value="PEOPLE" control={<Radio />} label={m('byPeople')} data-testid="year-copy-people" />
              </RadioGroup>
            </FormControl>
            <FormControl>
              <FormLabel id="qe-year-copy-type">{translate('qe.questionnaire.fields.type')}</FormLabel>
              <RadioGroup row aria-labelledby="qe-year-copy-type" value={chosenType} onChange={(e) => setChosenType(e.target.value as QuestionnaireType)}>
                {QUESTIONNAIRE_TYPES.map((t) => (
                  <FormControlLabel key={t} value={t} control={<Radio />} label={translate(`qe.questionnaire.type.${t}`)} />
                ))}
              </RadioGroup>
            </FormControl>
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{translate('qe.common.cancel')}</Button>
            <Button variant="contained" onClick={submit} disabled={busy} data-testid="year-copy-submit">
              {translate('qe.questionnaire.action.copyForYear')}
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
