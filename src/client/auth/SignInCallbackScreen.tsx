import { useEffect, useRef, useState } from 'react';
import type { TestReport } from '../../shared/calls/sign-in';
import type { Locale } from '../i18n/locale';
import type { Translate } from '../i18n/messages';
import { clearSession, getToken, saveSession, setCurrentUserId } from '../providers/session';
import { Alert, CheckIcon, CrossIcon, PublicCard, Spinner, useDocumentLanguage } from './PublicScreen';
import { appPathOf, completeSignIn, forgetSignIn, isProviderLink, leave, pendingSignIn, SIGN_IN_CALLBACK_PATH, startSignIn, startTest, type PendingSignIn } from './signInFlow';

/** What the page shows: at work, the report of a test, or why it did not sign in (with the provider's own words, if any). */
type State = { kind: 'working' } | { kind: 'report'; report: TestReport } | { kind: 'failed'; message: string; detail?: string };

/** The settings screen the super administrator tested from: where "close" leads when the window cannot close itself. */
const SETTINGS_PATH = '/qe/master/school';

/** The report of a provider's test: every check with a tick or a cross and what was found, what the provider said, the QE account it matched. */
function TestReportView({ report, locale, translate }: { report: TestReport; locale: Locale; translate: Translate }) {
  const { claims, account } = report;
  const yesNo = (v: boolean) => translate(v ? 'qe.signIn.report.yes' : 'qe.signIn.report.no');
  const text = (v: string | null) => v || translate('qe.signIn.report.none');
  const userType = (t: string) => (['SUPER_ADMIN', 'ADMIN', 'TEACHER', 'STUDENT'].includes(t) ? translate(`qe.signIn.report.userType.${t as 'ADMIN'}`) : t);
  return (
    <div className="qe-p-report" data-testid="sign-in-test-report">
      <Alert severity={report.ok ? 'success' : 'error'} testId="sign-in-test-result">
        {translate(report.ok ? 'qe.signIn.report.passed' : 'qe.signIn.report.failed')}
      </Alert>
      <h2 className="qe-p-subtitle">{translate('qe.signIn.report.checks')}</h2>
      <ul className="qe-p-steps">
        {report.steps.map((s) => (
          <li key={s.step} className={s.ok ? 'qe-p-step-ok' : 'qe-p-step-failed'} data-testid={`sign-in-test-step-${s.step}`} data-ok={s.ok}>
            <span role="img" aria-label={translate(s.ok ? 'qe.signIn.report.ok' : 'qe.signIn.report.notOk')}>
              {s.ok ? <CheckIcon /> : <CrossIcon />}
            </span>
            <div>
              <p className="qe-p-step-name">{translate(`qe.signIn.report.steps.${s.step}`)}</p>
              {s.detail && <p className="qe-p-secondary">{s.detail}</p>}
            </div>
          </li>
        ))}
      </ul>
      {claims && (
        <>
          <h2 className="qe-p-subtitle">{translate('qe.signIn.report.claims')}</h2>
          <dl className="qe-p-facts" data-testid="sign-in-test-claims">
            <dt>{translate('qe.signIn.report.subject')}</dt>
            <dd>{claims.subject}</dd>
            <dt>{translate('qe.signIn.report.email')}</dt>
            <dd>{text(claims.email)}</dd>
            <dt>{translate('qe.signIn.report.emailVerified')}</dt>
            <dd>{yesNo(claims.emailVerified)}</dd>
            <dt>{translate('qe.signIn.report.name')}</dt>
            <dd>{text(claims.name)}</dd>
          </dl>
        </>
      )}
      <h2 className="qe-p-subtitle">{translate('qe.signIn.report.account')}</h2>
      <p className="qe-p-secondary" data-testid="sign-in-test-account">
        {account ? translate('qe.signIn.report.accountLine', { name: locale === 'en' ? account.nameEn : account.nameHk, userType: userType(account.userType) }) : translate('qe.signIn.report.noAccount')}
      </p>
    </div>
  );
}

/**
 * /sign-in-callback — where the school's identity provider sends the browser back
 * (?code=…&state=…, or ?error=…): the flow this tab started completes with its browser key
 * (signInFlow.ts), which is forgotten at once. A sign-in stores the session as the password login
 * does and `onLoggedIn` opens where the user meant to go; the super administrator's test shows its
 * report. A refusal shows the server's message, with the way back to the login page and another
 * try. Plain React, like the login screen: it is the page a phone comes back to.
 */
export function SignInCallbackScreen({ locale, translate, onLoggedIn }: { locale: Locale; translate: Translate; onLoggedIn: (to: string) => void }) {
  const [state, setState] = useState<State>({ kind: 'working' });
  const [retrying, setRetrying] = useState(false);
  // the flow this tab started: read once, then forgotten in storage (a retry starts a new one)
  const [flow, setFlow] = useState<PendingSignIn | null>(null);
  // once per page load: React's strict mode runs effects twice, and a code is good for one exchange
  const started = useRef(false);
  const first = useRef({ locale, translate, onLoggedIn });
  useDocumentLanguage(locale);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const { locale: lang, translate: t, onLoggedIn: loggedIn } = first.current;
    const params = new URLSearchParams(window.location.search);
    const mine = pendingSignIn();
    setFlow(mine);
    forgetSignIn();
    // the code is used once: not left in the address bar, the history or a reload
    window.history.replaceState(window.history.state, '', `/qe${SIGN_IN_CALLBACK_PATH}`);
    const error = params.get('error');
    if (error) {
      // an address nobody's sign-in came back to (a link someone made up) shows no text of its own
      if (!mine) return setState({ kind: 'failed', message: t('qe.signIn.callback.unknown') });
      const description = params.get('error_description')?.slice(0, 300);
      setState({
        kind: 'failed',
        message: error === 'access_denied' ? t('qe.signIn.callback.denied') : t('qe.signIn.callback.providerError', { error }),
        ...(description ? { detail: t('qe.signIn.callback.providerSaid', { description }) } : {}),
      });
      return;
    }
    const code = params.get('code');
    const stateParam = params.get('state');
    if (!code || !stateParam) return setState({ kind: 'failed', message: t('qe.signIn.callback.invalid') });
    if (!mine) return setState({ kind: 'failed', message: t('qe.signIn.callback.unknown') });
    completeSignIn(code, stateParam, mine.browserKey, getToken(), { locale: lang, translate: t }, params.get('iss') ?? undefined)
      .then((done) => {
        if (done.purpose === 'test' && done.report) return setState({ kind: 'report', report: done.report });
        if (done.purpose !== 'sign-in' || !done.tk || done.userId === undefined) throw new Error(t('qe.error.operationFailed'));
        // a session of someone else in this browser ends with everything it kept
        clearSession();
        saveSession(done.tk, done.userId);
        setCurrentUserId(String(done.userId));
        loggedIn(appPathOf(done.returnTo ?? mine.returnTo));
      })
      .catch((err: Error) => setState({ kind: 'failed', message: err?.message || t('qe.error.tryLater') }));
  }, []);

  const test = flow?.purpose === 'test';

  /** A new flow with the same provider (and, for a sign-in, the same destination). */
  const retry = async () => {
    if (!flow) return;
    setRetrying(true);
    try {
      if (flow.purpose === 'sign-in') {
        await startSignIn(flow.providerId, flow.returnTo, { locale, translate });
        return; // leaving for the provider's page
      }
      const token = getToken();
      if (!token) throw new Error(translate('qe.signIn.callback.unknown'));
      const link = await startTest(flow.providerId, token, { locale, translate });
      if (isProviderLink(link)) leave.to(link);
    } catch (err) {
      setState({ kind: 'failed', message: (err as Error)?.message || translate('qe.error.tryLater') });
      setRetrying(false);
    }
  };

  /** The test's window closes itself; opened any other way, it goes back to the settings. */
  const close = () => {
    window.close();
    window.setTimeout(() => leave.to(SETTINGS_PATH), 300);
  };

  const toLogin = `/qe/login${flow?.returnTo ? `?redirect=${encodeURIComponent(appPathOf(flow.returnTo))}` : ''}`;
  const title = translate(test || state.kind === 'report' ? 'qe.signIn.report.title' : 'qe.signIn.callback.title');

  return (
    <PublicCard title={title}>
      {state.kind === 'working' && (
        <div className="qe-p-center" data-testid="sign-in-working">
          <Spinner size={40} label={translate('qe.signIn.callback.working')} />
        </div>
      )}
      {state.kind === 'report' && (
        <>
          <TestReportView report={state.report} locale={locale} translate={translate} />
          <div className="qe-p-actions qe-p-spaced">
            <button type="button" className="qe-p-button qe-p-inline" onClick={close} data-testid="sign-in-close">
              {translate('qe.signIn.callback.close')}
            </button>
          </div>
        </>
      )}
      {state.kind === 'failed' && (
        <div data-testid="sign-in-failed">
          <Alert severity="warning">
            {state.message}
            {state.detail && <span className="qe-p-secondary qe-p-detail">{state.detail}</span>}
          </Alert>
          <div className="qe-p-actions">
            {test ? (
              <button type="button" className="qe-p-button qe-p-inline" onClick={close} data-testid="sign-in-close">
                {translate('qe.signIn.callback.close')}
              </button>
            ) : (
              <a className="qe-p-button qe-p-inline" href={toLogin} data-testid="sign-in-to-login">
                {translate('qe.signIn.callback.toLogin')}
              </a>
            )}
            {flow && (
              <button type="button" className="qe-p-text-button" onClick={() => void retry()} disabled={retrying} aria-busy={retrying} data-testid="sign-in-retry">
                {translate('qe.signIn.callback.retry')}
              </button>
            )}
          </div>
        </div>
      )}
    </PublicCard>
  );
}
