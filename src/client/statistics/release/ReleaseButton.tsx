import { useState } from 'react';
import { Alert, Box, Button, Checkbox, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, FormControlLabel, Stack, Typography, useMediaQuery } from '@mui/material';
import CampaignIcon from '@mui/icons-material/Campaign';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import { formatDateTime } from '../../common/schoolClock';
import { questionnaireApi, type AudienceOption } from '../../questionnaires/form/api';
import { OptionsAutocomplete } from '../../questionnaires/form/OptionsAutocomplete';
import { MY_SUMMARIES_KEY, fetchReleaseState, releaseResults, releaseStateKey, withdrawRelease } from './api';

/**
 * "Release results" on the statistics detail (docs/product-rules.md#results-released): for the
 * person in charge or a results manager (the state's `mayRelease`). The dialog chooses the readers
 * — the respondents who replied, chosen staff — says what the summary shows (the charts and how
 * many text answers are marked shown), releases, and withdraws after a confirmation.
 */
export function ReleaseButton({ id }: { id: number }) {
  const translate = useTranslate();
  const notify = useNotify();
  const client = useQueryClient();
  const phone = useMediaQuery('(max-width:599.95px)', { noSsr: true });
  const state = useQuery({ queryKey: releaseStateKey(id), queryFn: () => fetchReleaseState(id), retry: false, refetchOnWindowFocus: false });
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [respondents, setRespondents] = useState(true);
  const [staff, setStaff] = useState<AudienceOption[]>([]);
  const [busy, setBusy] = useState(false);
  if (!state.data?.mayRelease) return null;
  const s = state.data;
  const standing = s.release && !s.release.withdrawnAt ? s.release : null;
  const finished = s.status === 'FINISHED';

  const start = () => {
    setRespondents(standing ? standing.respondents : true);
    setStaff(standing ? standing.staff.map((p) => ({ id: p.id, code: null, nameHk: p.nameHk, nameEn: p.nameEn })) : []);
    setConfirming(false);
    setOpen(true);
  };
  const run = async (call: () => Promise<unknown>, done: 'qe.resultRelease.done' | 'qe.resultRelease.withdrawnDone') => {
    setBusy(true);
    try {
      client.setQueryData(releaseStateKey(id), await call());
      void client.invalidateQueries({ queryKey: MY_SUMMARIES_KEY });
      notify(translate(done), { type: 'success' });
      setOpen(false);
    } catch {
      // request() has shown the refusal
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="outlined" startIcon={<CampaignIcon />} onClick={start} data-testid="release-results">
        {translate(standing ? 'qe.resultRelease.released' : 'qe.resultRelease.action')}
      </Button>
      {open && (
        <Dialog open onClose={() => setOpen(false)} fullWidth maxWidth="sm" fullScreen={phone} aria-labelledby="release-title" data-testid="release-dialog">
          <DialogTitle id="release-title">{translate('qe.resultRelease.title')}</DialogTitle>
          <DialogContent>
            <Stack spacing={2}>
              {standing && (
                <Alert severity="success" data-testid="release-standing">
                  {translate('qe.resultRelease.releasedAt', { at: formatDateTime(standing.releasedAt) })}
                </Alert>
              )}
              {!standing && s.release?.withdrawnAt && <Typography variant="body2">{translate('qe.resultRelease.withdrawnAt', { at: formatDateTime(s.release.withdrawnAt) })}</Typography>}
              {!finished && <Alert severity="info">{translate('qe.resultRelease.notFinished')}</Alert>}
              {s.withheld && <Alert severity="warning">{translate('qe.resultRelease.withheld', { min: s.withheld.minGroupSize })}</Alert>}
              <FormControlLabel
                control={<Checkbox checked={respondents} onChange={(e) => setRespondents(e.target.checked)} slotProps={{ input: { 'aria-describedby': 'release-respondents-help' } }} data-testid="release-respondents" />}
                label={translate('qe.resultRelease.toRespondents')}
              />
              <Typography id="release-respondents-help" variant="caption" sx={{ color: 'text.secondary', mt: '0 !important' }}>
                {translate('qe.resultRelease.toRespondentsHelp')}
              </Typography>
              <OptionsAutocomplete load={(q) => questionnaireApi.staffOptions({ q })} value={staff} onChange={setStaff} label={translate('qe.resultRelease.staff')} testId="release-staff" />
              <Box data-testid="release-shows">
                <Typography variant="subtitle2">{translate('qe.resultRelease.showsTitle')}</Typography>
                <Typography variant="body2">{translate('qe.resultRelease.shows', { n: s.shownTexts })}</Typography>
              </Box>
              {confirming && (
                <Alert severity="warning" data-testid="release-withdraw-confirm">
                  <DialogContentText>{translate('qe.resultRelease.withdrawConfirm')}</DialogContentText>
                </Alert>
              )}
            </Stack>
          </DialogContent>
          <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
            {standing && !confirming && (
              <Button color="error" onClick={() => setConfirming(true)} disabled={busy} data-testid="release-withdraw">
                {translate('qe.resultRelease.withdraw')}
              </Button>
            )}
            {confirming && (
              <Button color="error" variant="contained" onClick={() => run(() => withdrawRelease(id), 'qe.resultRelease.withdrawnDone')} disabled={busy} data-testid="release-withdraw-yes">
                {translate('qe.resultRelease.withdrawYes')}
              </Button>
            )}
            <Button onClick={() => setOpen(false)} disabled={busy}>
              {translate('qe.resultRelease.cancel')}
            </Button>
            <Button
              variant="contained"
              onClick={() => run(() => releaseResults(id, { respondents, staff: staff.map((p) => p.id) }), 'qe.resultRelease.done')}
              disabled={busy || !finished || Boolean(s.withheld) || (!respondents && staff.length === 0)}
              data-testid="release-confirm"
            >
              {translate('qe.resultRelease.confirm')}
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </>
  );
}
