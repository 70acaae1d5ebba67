import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Typography } from '@mui/material';
import { useTranslate } from '../i18n/translate';
import { formatDateTime, formatTime } from '../common/schoolClock';
import type { DraftOffer, ServerDraftState } from './serverDraft';


/**
 * Where the answers are kept besides this device, under the local draft's note: the server's
 * copy of a named questionnaire (saving, saved at HH:mm, not saved, or refused and why), or, for an anonymous one,
 * that they stay on this device only (docs/product-rules.md#states).
 */
export function ServerDraftNote({ anonymous, status }: { anonymous: boolean; status: ServerDraftState }) {
  const translate = useTranslate();
  if (anonymous) {
    return (
      <Typography variant="caption" component="p" sx={{ color: 'text.secondary' }} data-testid="draft-device-only">
        {translate('qe.filling.serverDraft.deviceOnly')}
      </Typography>
    );
  }
  const text =
    status.state === 'saving'
      ? translate('qe.filling.serverDraft.saving')
      : status.state === 'saved'
        ? translate('qe.filling.serverDraft.saved', { time: formatTime(status.at) })
        : status.state === 'failed'
          ? translate('qe.filling.serverDraft.failed')
          : status.state === 'refused'
            ? translate(`qe.filling.serverDraft.refused.${status.why}`)
            : '';
  const warning = status.state === 'failed' || status.state === 'refused';
  return (
    <Typography
      variant="caption"
      component="p"
      sx={{ color: warning ? 'warning.main' : 'text.secondary', minHeight: '1.66em' }}
      data-testid="server-draft-state"
      data-state={status.state}
      data-why={status.state === 'refused' ? status.why : undefined}
    >
      {text}
    </Typography>
  );
}

/** The offer of a newer draft from another device: continue it, or start again (which deletes it). */
export function DraftOfferDialog({ offer, onContinue, onStartAgain }: { offer: DraftOffer | null; onContinue: () => void; onStartAgain: () => void }) {
  const translate = useTranslate();
  // the offer's text kept while the dialog closes, so that it does not change on the way out
  const [shown, setShown] = useState(offer);
  if (offer && offer !== shown) setShown(offer);
  return (
    <Dialog open={offer !== null} aria-labelledby="draft-offer-title" aria-describedby="draft-offer-text" data-testid="draft-offer">
      <DialogTitle id="draft-offer-title">{translate('qe.filling.serverDraft.offerTitle')}</DialogTitle>
      <DialogContent>
        <DialogContentText id="draft-offer-text">{translate('qe.filling.serverDraft.offer', { time: shown ? formatDateTime(shown.savedAt) : '' })}</DialogContentText>
      </DialogContent>
      <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onStartAgain} color="inherit" data-testid="draft-start-again">
          {translate('qe.filling.serverDraft.startAgain')}
        </Button>
        <Button onClick={onContinue} variant="contained" autoFocus data-testid="draft-continue">
          {translate('qe.filling.serverDraft.continue')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
