import { useState } from 'react';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, FormControlLabel, Switch, TextField } from '@mui/material';
import { useTranslate } from '../i18n/translate';

/** "Make a backup now": optionally encrypted with a passphrase typed twice, and why it matters that it is kept. */
export function MakeBackupDialog({ onStart, onClose }: { onStart: (passphrase?: string) => void; onClose: () => void }) {
  const translate = useTranslate();
  const [encrypt, setEncrypt] = useState(false);
  const [passphrase, setPassphrase] = useState('');
  const [repeat, setRepeat] = useState('');
  const short = encrypt && passphrase.length > 0 && passphrase.length < 8;
  const differs = encrypt && repeat.length > 0 && repeat !== passphrase;
  const ready = !encrypt || (passphrase.length >= 8 && repeat === passphrase);
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="qe-make-backup-title" data-testid="make-backup-dialog">
      <DialogTitle id="qe-make-backup-title">{translate('qe.backup.make')}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <DialogContentText>{translate('qe.backup.makeHelp')}</DialogContentText>
        <FormControlLabel control={<Switch checked={encrypt} onChange={(e) => setEncrypt(e.target.checked)} data-testid="backup-encrypt" />} label={translate('qe.backup.encrypt')} />
        {encrypt && (
          <>
            <Alert severity="info">{translate('qe.backup.passphraseKeep')}</Alert>
            <TextField type="password" label={translate('qe.backup.passphrase')} value={passphrase} onChange={(e) => setPassphrase(e.target.value)} error={short} helperText={short ? translate('qe.backup.passphraseShort') : ' '} autoComplete="new-password" slotProps={{ htmlInput: { 'data-testid': 'backup-passphrase' } }} />
            <TextField type="password" label={translate('qe.backup.passphraseRepeat')} value={repeat} onChange={(e) => setRepeat(e.target.value)} error={differs} helperText={differs ? translate('qe.backup.passphraseDiffers') : ' '} autoComplete="new-password" slotProps={{ htmlInput: { 'data-testid': 'backup-passphrase-repeat' } }} />
          </>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('qe.common.cancel')}</Button>
        <Button variant="contained" disabled={!ready} onClick={() => onStart(encrypt ? passphrase : undefined)} data-testid="backup-start">
          {translate('qe.backup.start')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
