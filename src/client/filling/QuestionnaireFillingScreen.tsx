import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Box, Button, Chip, CircularProgress, Dialog, DialogActions, DialogContent, Paper, Stack, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import CheckCircleIcon from '@mui/icons-material/CheckCircleOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Title, useGetIdentity, useLocale, useLocaleState, useNotify, type HttpError, type RaRecord } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { sectionPath, type Answers } from '../../shared/questionnaire/answers';
import { definitionIn, languageShown, languagesOf, titleIn } from '../../shared/questionnaire/languages';
import type { Lang } from '../../shared/i18n/text';
import { request } from '../providers/http';
import { replyBody } from '../../shared/calls/filling';
import { recordName } from '../master/labels';
import { formatDateTime } from '../common/schoolClock';
import { QuestionnaireView } from '../questionnaires/respondent/QuestionnaireView';
import { clearDraft, loadDraft, newSubmissionKey, saveDraft, type Draft } from './draft';
import { carriedOver, carryOver, dropCarried, updateCarried } from './carryOver';
import { ContentLanguageSwitch } from './ContentLanguageSwitch';
import { LeaveGuard } from './LeaveGuard';
import { useServerDraft } from './serverDraft';
import { DraftOfferDialog, ServerDraftNote } from './ServerDraftNote';
import { fillingFieldKey, fillingPath, isAnswerable, MY_QUESTIONNAIRES, screenFor, type FillingScreenType, type MyQuestionnaireDetail } from './model';
import { FeedbackChip } from './QuestionnaireFillingList';
import { Loading } from '../common/Loading';

/** docs/product-rules.md#states: the post-submit check waits up to 30 s; after that, 'system busy, check later'. */
export const POST_SUBMIT_WAIT_MS = 30_000;

export const fillingQueryKey = (id: number) => ['filling', id] as const;
const replyPath = (id: number) => `/v1/my/questionnaires/${id}/replies`;

/** What the server's refusal (709) said, carried to the read-only screen. */
interface LocationState {
  notice?: string;
}

/** My designated code, person in charge, dates, anonymity: what a respondent sees above the questions. */
function Facts({ q }: { q: MyQuestionnaireDetail }) {
  const translate = useTranslate();
  const locale = useLocale();
  const fact = (name: string, value: string) =>
    value ? (
      <Typography variant="body2" sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }} data-testid={`fact-${name}`}>
        {translate('qe.common.line', { label: translate(fillingFieldKey(name)), value })}
      </Typography>
    ) : null;
  return (
    <Box sx={{ mt: 1 }}>
      <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mb: 0.5 }}>
        <FeedbackChip status={q.feedbackStatus} />
        {q.type === 'ANONYMOUS' && <Chip size="small" variant="outlined" label={translate('qe.filling.anonymous')} data-testid="anonymous-chip" />}
      </Box>
      {fact('designatedCode', q.designatedCode)}
      {fact('inCharge', recordName(q.inCharge as unknown as RaRecord, locale))}
      {fact('endDate', formatDateTime(q.endDate))}
      {fact('submittedAt', formatDateTime(q.submittedAt))}
    </Box>
  );
}

function BackToList() {
  const translate = useTranslate();
  const navigate = useNavigate();
  return (
    <Button startIcon={<ArrowBackIcon />} onClick={() => navigate(fillingPath('list'))} sx={{ alignSelf: 'flex-start' }} data-testid="filling-back">
      {translate('qe.filling.backToList')}
    </Button>
  );
}

/**
 * The questionnaire in the reader's language (the interface's, where the questionnaire has it:
 * languages.ts), its title, and the switch between its languages, which changes the interface
 * language (`before` runs first: the app is mounted afresh in the new language).
 */
function useShownIn(q: MyQuestionnaireDetail, before?: (next: Lang) => void) {
  const [locale, setLocale] = useLocaleState();
  const reader: Lang = locale === 'en' ? 'en' : 'zh-hk';
  const definition = useMemo(() => definitionIn(q.definition, reader), [q.definition, reader]);
  const switcher = (
    <ContentLanguageSwitch
      languages={languagesOf(q.definition)}
      value={languageShown(q.definition, reader)}
      onChange={(next) => {
        before?.(next);
        setLocale(next);
      }}
    />
  );
  return { definition, title: titleIn(q, reader), switcher };
}

/** A closing message of the questionnaire, shown with the 'received' message. */
function ClosingMessage({ text }: { text?: string }) {
  if (!text?.trim()) return null;
  return (
    <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', mt: 1 }} data-testid="closing-message">
      {text}
    </Typography>
  );
}

type Phase = 'idle' | 'checking' | 'busy';

/**
 * Answering: the questionnaire with my answers, kept in the browser on every change (restored on
 * load) — and, when it is named, on the server too, to go on on another device (serverDraft.ts,
 * which offers a newer draft from elsewhere on opening) — and sent once with a submission key that a retry reuses. While the server has not answered
 * the message 'reply received and being checked, please wait' shows; after 30 s without an answer
 * 'system busy, check later' (the draft is kept, Submit tries again with the same key). A 422 puts
 * each message on its question; a 709 is handed up (`onRefused`); success opens the read-only view.
 * A questionnaire in two languages can be switched between them on the screen: the answers (by
 * id, the same in either) and the section reached are handed over to the screen mounted in the
 * new language (carryOver.ts).
 */
function AnswerForm({ q, userId, waitMs, onRefused }: { q: MyQuestionnaireDetail; userId: unknown; waitMs: number; onRefused: (message: string) => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const locale = useLocale();
  const [carried] = useState(() => carriedOver(userId, q.id, locale));
  // what a switch of language left (carryOver.ts) goes over the local draft, which may not be kept
  const [initial] = useState((): Draft | null => {
    const draft = loadDraft(userId, q.id);
    return carried ? { submissionKey: carried.submissionKey, ...(draft ?? { savedAt: new Date().toISOString() }), answers: carried.answers } : draft;
  });
  useEffect(() => dropCarried(), []);
  const wayRef = useRef<number[]>(carried?.way ?? [0]);
  const [answers, setAnswers] = useState<Answers>(() => initial?.answers ?? {});
  const keyRef = useRef<string | undefined>(initial?.submissionKey);
  const [phase, setPhase] = useState<Phase>('idle');
  // what the dialog says: kept while it closes, so that its text does not change on the way out
  const [said, setSaid] = useState<Exclude<Phase, 'idle'>>('checking');
  const phaseRef = useRef<Phase>('idle');
  const go = (next: Phase) => {
    phaseRef.current = next;
    setPhase(next);
    if (next !== 'idle') setSaid(next);
  };
  const [pending, setPending] = useState(false);
  const [refused, setRefused] = useState<Record<string, string>>();
  const [stray, setStray] = useState<string[]>([]);
  const passRef = useRef(false);
  const [kept, setKept] = useState(carried?.kept ?? true);
  const shown = useShownIn(q, (next) => carryOver({ userId: String(userId), questionnaireId: q.id, locale: next, answers, way: wayRef.current, kept, submissionKey: keyRef.current }));
  const anonymous = q.type === 'ANONYMOUS';
  // an anonymous questionnaire's answers never leave this device before the submission (docs/security.md#anonymous-means-unlinkable)
  const server = useServerDraft({ questionnaireId: q.id, definition: q.definition, userId, enabled: !anonymous, initial });

  const change = (next: Answers) => {
    setAnswers(next);
    const stored = saveDraft(userId, q.id, { answers: next, submissionKey: keyRef.current });
    setKept(stored);
    updateCarried(userId, q.id, { answers: next, kept: stored });
    server.save(next);
  };
  const continueDraft = () => {
    const taken = server.accept();
    setAnswers(taken.answers);
    setKept(saveDraft(userId, q.id, { answers: taken.answers, submissionKey: keyRef.current, serverSavedAt: taken.savedAt }));
  };
  const startAgain = () => {
    setAnswers({});
    clearDraft(userId, q.id);
    void server.startAgain();
  };

  const submit = async (sent: Answers) => {
    // one key per attempt: made by the first submit, kept with the draft until the reply is stored
    const submissionKey = keyRef.current ?? newSubmissionKey();
    keyRef.current = submissionKey;
    saveDraft(userId, q.id, { answers, submissionKey });
    server.pause();
    setStray([]);
    go('checking');
    setPending(true);
    const timer = setTimeout(() => phaseRef.current === 'checking' && go('busy'), waitMs);
    try {
      await request(replyPath(q.id), { method: 'POST', body: { submissionKey, answers: sent }, bodySchema: replyBody, ignoreErr: true });
      clearDraft(userId, q.id);
      keyRef.current = undefined;
      passRef.current = true;
      go('idle');
      notify('qe.filling.submitted', { type: 'success' });
      queryClient.removeQueries({ queryKey: fillingQueryKey(q.id) });
      void queryClient.invalidateQueries({ queryKey: [MY_QUESTIONNAIRES] });
      navigate(fillingPath('view', q.id), { replace: true });
    } catch (e) {
      const error = e as HttpError & { body?: { code?: number; errors?: Record<string, string> } };
      const code = error.body?.code;
      // refused or unanswered: the draft goes on being kept on the server (not after a 709: nothing more can be sent)
      if (code !== 709) server.resume();
      if (error.status === 422) {
        go('idle');
        const errors: Record<string, string> = { ...(error.body?.errors ?? {}) };
        // what the view cannot put on a question of the respondent's way is listed under it
        const onPath = new Set(sectionPath(q.definition, answers).flatMap((i) => q.definition.sections[i].questions.map((x) => x.id)));
        setStray(Object.entries(errors).filter(([id]) => !onPath.has(id)).map(([, m]) => m));
        setRefused(errors);
      } else if (code === 709) {
        go('idle');
        onRefused(error.message);
      } else if (error.status === 0 || error.status >= 500 || code === 400) {
        // no answer, or none that says what happened: the reply may or may not be stored — the
        // draft and its key stay, and Submit asks again with the same key
        go('busy');
      } else {
        go('idle');
        notify(error.message || 'qe.error.operationFailed', { type: 'error' });
      }
    } finally {
      clearTimeout(timer);
      setPending(false);
    }
  };

  const unsent = Object.keys(answers).length > 0;
  return (
    <>
      {shown.switcher}
      <QuestionnaireView
        definition={shown.definition}
        value={answers}
        onChange={change}
        onSubmit={submit}
        problems={refused}
        title={shown.title}
        startWay={carried?.way}
        onWay={(way) => {
          wayRef.current = way;
          updateCarried(userId, q.id, { way });
        }}
        header={
          <>
            <Facts q={q} />
            <Typography variant="caption" component="p" sx={{ color: kept ? 'text.secondary' : 'warning.main', mt: 1 }} data-testid="draft-note">
              {translate(kept ? 'qe.filling.draftKept' : 'qe.filling.draftNotKept')}
            </Typography>
            <ServerDraftNote anonymous={anonymous} status={server.status} />
          </>
        }
      />
      {stray.length > 0 && (
        <Alert severity="error" data-testid="reply-problems">
          {stray.join('; ')}
        </Alert>
      )}
      <Dialog open={phase !== 'idle'} aria-labelledby="filling-check-title" data-testid="submit-dialog" data-phase={phase}>
        <DialogContent sx={{ display: 'flex', gap: 2, alignItems: 'center', minWidth: { sm: 360 } }}>
          {said === 'checking' ? (
            <>
              <CircularProgress size={28} aria-labelledby="filling-check-title" />
              <Typography id="filling-check-title" data-testid="submit-checking">
                {translate('qe.filling.checking')}
              </Typography>
            </>
          ) : (
            <Box>
              <Typography id="filling-check-title" sx={{ fontWeight: 500 }} data-testid="submit-busy">
                {translate('qe.filling.busy')}
              </Typography>
              <Typography variant="body2" sx={{ color: 'text.secondary', mt: 1 }}>
                {translate(pending ? 'qe.filling.busyWaiting' : 'qe.filling.busyKept')}
              </Typography>
            </Box>
          )}
        </DialogContent>
        {said === 'busy' && (
          <DialogActions>
            <Button onClick={() => go('idle')} data-testid="submit-busy-close">
              {translate('qe.common.close')}
            </Button>
          </DialogActions>
        )}
      </Dialog>
      <DraftOfferDialog offer={server.offer} onContinue={continueDraft} onStartAgain={startAgain} />
      <LeaveGuard unsent={unsent || pending} passRef={passRef} />
    </>
  );
}

/** Submitted, not open, ended: the questionnaire as it stands, nothing to change. */
function ReadOnlyState({ q, notice, userId }: { q: MyQuestionnaireDetail; notice?: string; userId: unknown }) {
  const translate = useTranslate();
  const shown = useShownIn(q);
  const answerable = isAnswerable(q);
  useEffect(() => {
    // nothing more can be sent: a draft left in the browser is of no use
    if (!answerable) clearDraft(userId, q.id);
  }, [answerable, userId, q.id]);
  const submitted = q.feedbackStatus === 'SUBMITTED';
  const state = submitted ? null : q.status === 'FINISHED' ? 'ended' : q.status === 'PROCESSING' ? null : 'notOpen';
  return (
    <Stack spacing={2} sx={{ maxWidth: 760, mx: 'auto', width: '100%' }}>
      {shown.switcher}
      {notice && (
        <Alert severity="warning" data-testid="filling-notice">
          {notice}
        </Alert>
      )}
      {state && (
        <Alert severity="info" data-testid={`filling-state-${state}`}>
          {translate(`qe.filling.state.${state}`)}
        </Alert>
      )}
      {submitted && q.answers ? (
        <>
          <Alert severity="success" icon={<CheckCircleIcon />} data-testid="filling-submitted">
            {translate('qe.filling.submittedAt', { time: formatDateTime(q.submittedAt) })}
            <ClosingMessage text={shown.definition.closingMessage} />
          </Alert>
          <QuestionnaireView definition={shown.definition} value={q.answers} onChange={() => undefined} readOnly title={shown.title} header={<Facts q={q} />} />
        </>
      ) : (
        <Paper variant="outlined" sx={{ p: 2, borderTop: 8, borderTopColor: 'primary.main' }} data-testid={submitted ? 'filling-confirmation' : 'filling-closed'}>
          <Typography component="h2" variant="h5" sx={{ overflowWrap: 'anywhere' }}>
            {shown.title}
          </Typography>
          <Facts q={q} />
          {submitted && (
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mt: 2 }}>
              <CheckCircleIcon color="success" />
              <Box>
                <Typography>{translate(q.type === 'ANONYMOUS' ? 'qe.filling.anonymousReceived' : 'qe.filling.received')}</Typography>
                <ClosingMessage text={shown.definition.closingMessage} />
              </Box>
            </Box>
          )}
        </Paper>
      )}
    </Stack>
  );
}

/**
 * QuestionnaireFillingDetail and QuestionnaireFillingView (one screen for both: docs/product-rules.md#screens-and-routes): the
 * questionnaire of `?id=`, to answer while it is in progress and I have not submitted, read only
 * otherwise (my answers when not anonymous, a confirmation when anonymous, or why it cannot be
 * answered). Each route shows what it names: a questionnaire I may answer opens on detail, any
 * other on view.
 */
export function QuestionnaireFillingScreen({ type, waitMs = POST_SUBMIT_WAIT_MS }: { type: FillingScreenType; waitMs?: number }) {
  const translate = useTranslate();
  const [params] = useSearchParams();
  const location = useLocation();
  const queryClient = useQueryClient();
  const id = Number(params.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const { identity, isPending: identityPending } = useGetIdentity();
  const query = useQuery({
    queryKey: fillingQueryKey(id),
    queryFn: () => request<MyQuestionnaireDetail>(`/v1/my/questionnaires/${id}`, { ignoreErr: true }),
    enabled: valid,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const [notice, setNotice] = useState<string | undefined>((location.state as LocationState | null)?.notice);
  const title = <Title title={translate(`qe.menu.${type === 'detail' ? 'QuestionnaireFillingDetail' : 'QuestionnaireFillingView'}`)} />;

  const body = () => {
    if (!valid) return <Alert severity="error">{translate('qe.error.recordNotFound')}</Alert>;
    if (query.isError) {
      return (
        <Alert severity="error" data-testid="filling-error">
          {(query.error as Error)?.message || translate('qe.error.tryLater')}
        </Alert>
      );
    }
    if (query.isPending || identityPending) return <Loading />;
    const q = query.data;
    const wanted = screenFor(q);
    if (wanted !== type) return <Navigate to={fillingPath(wanted, q.id)} replace state={{ notice } satisfies LocationState} />;
    if (isAnswerable(q) && !notice) {
      return (
        <AnswerForm
          key={q.id}
          q={q}
          userId={identity?.id}
          waitMs={waitMs}
          onRefused={(message) => {
            setNotice(message);
            void queryClient.invalidateQueries({ queryKey: fillingQueryKey(q.id) });
            void queryClient.invalidateQueries({ queryKey: [MY_QUESTIONNAIRES] });
          }}
        />
      );
    }
    return <ReadOnlyState q={q} notice={notice} userId={identity?.id} />;
  };

  return (
    <Stack spacing={1} sx={{ py: 1, minWidth: 0 }} data-testid={`filling-${type}`}>
      {title}
      <BackToList />
      {body()}
    </Stack>
  );
}
