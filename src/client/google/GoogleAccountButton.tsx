import { useCallback, useEffect, useRef, useState } from 'react';
import { CircularProgress, IconButton, Tooltip } from '@mui/material';
import GoogleIcon from '@mui/icons-material/Google';
import { Confirm, useCanAccess, useGetIdentity, useNotify } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { useSchoolInfo } from '../auth/useSchoolInfo';
import { forgetUserInfo } from '../providers/authProvider';
import { request } from '../providers/http';
import { GOOGLE_MESSAGE, POPUP_FEATURES, POPUP_NAME, type GoogleMessage } from './message';
import type { AuthLink, Bound } from '../../shared/calls/google';

/** How long a closed popup may still have its message on the way before the binding counts as given up. */
const CLOSED_GRACE_MS = 1500;
const POLL_MS = 400;

function isGoogleMessage(data: unknown): data is GoogleMessage {
  return Boolean(data) && typeof data === 'object' && (data as { type?: unknown }).type === GOOGLE_MESSAGE;
}

/**
 * Google account authorisation (navbar, google-account.view, shown only when the server has
 * Google sign-in configured; docs/product-rules.md#states): confirm, get the
 * provider's link (GET auth-url; a failure is ignored silently), open it in a popup, wait for
 * the /google-callback page in it to post {type:'qe-google', code, state} from this origin,
 * then POST bind. Success: the toast 'success' and the user info read again (the tooltip shows
 * the new account). Failure — the bind refused, the popup closed or blocked — clears the popup
 * reference and stops loading without a message.
 */
export function GoogleAccountButton() {
  const translate = useTranslate();
  const notify = useNotify();
  const { canAccess } = useCanAccess({ resource: 'google-account', action: 'view' });
  // a QE without Google sign-in (no QE_GOOGLE_CLIENT_ID) offers no binding: the button is hidden, not failing
  const { data: school } = useSchoolInfo();
  const { identity, refetch } = useGetIdentity();
  const [confirming, setConfirming] = useState(false);
  const [loading, setLoading] = useState(false);
  const [boundMail, setBoundMail] = useState<string | null | undefined>(undefined);
  const popup = useRef<Window | null>(null);
  /** a popup of ours is open and its answer not yet taken */
  const waiting = useRef(false);
  const poll = useRef<ReturnType<typeof setInterval> | null>(null);

  const stop = useCallback(() => {
    waiting.current = false;
    if (poll.current) clearInterval(poll.current);
    poll.current = null;
    try {
      if (popup.current && !popup.current.closed) popup.current.close();
    } catch {
      // a popup on another origin may refuse to be touched
    }
    popup.current = null;
    setLoading(false);
  }, []);

  const bind = useCallback(
    async (message: GoogleMessage) => {
      try {
        if (!message.code) throw new Error(message.error ?? 'no code');
        const answer = await request<Bound>('/v1/google/actions/bind', { method: 'POST', body: { code: message.code, state: message.state ?? undefined }, ignoreErr: true });
        notify('qe.success.google', { type: 'success' });
        setBoundMail(answer?.googleMail ?? null);
        forgetUserInfo();
        void refetch();
      } catch {
        // a failed binding shows no message (docs/product-rules.md#states)
      } finally {
        stop();
      }
    },
    [notify, refetch, stop],
  );

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || !isGoogleMessage(event.data) || !waiting.current) return;
      waiting.current = false;
      void bind(event.data);
    };
    window.addEventListener('message', onMessage);
    return () => {
      window.removeEventListener('message', onMessage);
      if (poll.current) clearInterval(poll.current);
    };
  }, [bind]);

  if (!canAccess || !school?.googleConfigured) return null;

  const open = async () => {
    setConfirming(false);
    setLoading(true);
    let link: string | undefined;
    try {
      link = (await request<AuthLink>('/v1/google/actions/auth-url', { ignoreErr: true }))?.link;
    } catch {
      // a failing auth-url call is ignored silently (docs/product-rules.md#states)
    }
    if (!link) return stop();
    const left = Math.max(0, window.screenX + (window.outerWidth - 520) / 2);
    const top = Math.max(0, window.screenY + (window.outerHeight - 640) / 2);
    popup.current = window.open(link, POPUP_NAME, `${POPUP_FEATURES},left=${Math.round(left)},top=${Math.round(top)}`);
    if (!popup.current) return stop();
    waiting.current = true;
    // the user may close the popup without choosing an account: stop waiting then
    let closedSince = 0;
    poll.current = setInterval(() => {
      if (!waiting.current) return;
      if (!popup.current?.closed) return void (closedSince = 0);
      closedSince ||= Date.now();
      if (Date.now() - closedSince >= CLOSED_GRACE_MS) stop();
    }, POLL_MS);
  };

  const mail = boundMail !== undefined ? boundMail : ((identity?.googleMail as string | null | undefined) ?? null);
  const label = mail ? translate('qe.google.bound', { mail }) : translate('qe.google.notBound');
  return (
    <>
      <Tooltip title={label}>
        <span>
          <IconButton color="inherit" onClick={() => setConfirming(true)} disabled={loading} aria-label={`${translate('qe.nav.googleAccount')} — ${label}`} aria-busy={loading} data-testid="google-account">
            {loading ? <CircularProgress size={20} color="inherit" aria-hidden /> : <GoogleIcon />}
          </IconButton>
        </span>
      </Tooltip>
      <Confirm
        isOpen={confirming}
        title={translate('qe.nav.googleAccount')}
        content={`${translate('qe.nav.googleConfirm', { name: identity?.fullName ?? '' })}${mail ? ` ${translate('qe.google.replaces', { mail })}` : ''}`}
        onConfirm={open}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
