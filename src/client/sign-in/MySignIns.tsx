import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Typography, useMediaQuery } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from '../i18n/translate';
import { signInApi } from './api';
import { SignInLinkItems } from './LinkedSignIns';

export const MY_LINKS_KEY = ['my-sign-in-links'];

/**
 * "My sign-ins" from the user menu: the school accounts the user can sign in with (GET
 * /v1/my/sign-in-links), read only — an administrator unlinks one on the user's screen.
 * `onClosed`: once it has gone (the focus goes back where the user opened it from).
 */
export function MySignInsDialog({ open, onClose, onClosed }: { open: boolean; onClose: () => void; onClosed?: () => void }) {
  const translate = useTranslate();
  const phone = useMediaQuery('(max-width:599.95px)', { noSsr: true });
  const { data, isPending, isError } = useQuery({ queryKey: MY_LINKS_KEY, queryFn: signInApi.myLinks, enabled: open, retry: false, staleTime: 0 });
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" fullScreen={phone} slotProps={{ paper: { sx: { maxWidth: phone ? undefined : 600 } }, transition: { onExited: onClosed } }} aria-labelledby="qe-my-sign-ins-title" aria-describedby="qe-my-sign-ins-help" data-testid="my-sign-ins">
      <DialogTitle id="qe-my-sign-ins-title">{translate('qe.signIn.links.mine')}</DialogTitle>
      <DialogContent>
        <DialogContentText id="qe-my-sign-ins-help" sx={{ mb: 2 }}>
          {translate('qe.signIn.links.mineHelp')}
        </DialogContentText>
        {isPending ? (
          <Typography variant="body2" color="text.secondary">
            {translate('qe.app.loading')}
          </Typography>
        ) : isError || !data ? (
          <Typography variant="body2">{translate('qe.signIn.links.loadFailed')}</Typography>
        ) : (
          <SignInLinkItems links={data} />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} autoFocus data-testid="my-sign-ins-close">
          {translate('qe.common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
