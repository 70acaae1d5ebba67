import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Alert, Box, Button, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import SendIcon from '@mui/icons-material/Send';
import { useTranslate } from '../../i18n/translate';
import { END, type Definition } from '../../../shared/questionnaire/definition';
import { answerProblem, answersOnPath, loadAnswerChecks, nextSection, sectionPath, sectionProblems, type Answer, type AnswerProblem, type Answers } from '../../../shared/questionnaire/answers';
import { QuestionCard } from './QuestionCard';

export interface QuestionnaireViewProps {
  /** in the one language shown: `definitionIn` of src/shared/questionnaire/languages.ts */
  definition: Definition;
  /** answers keyed by question id */
  value: Answers;
  onChange: (value: Answers) => void;
  /** called with the answers of the sections on the respondent's way (skipped sections dropped) once every rule holds */
  onSubmit?: (answers: Answers) => void | Promise<void>;
  /** a submitted reply: nothing can be changed and nothing checked; back and next only */
  readOnly?: boolean;
  /** the designer's preview: "submit" only says that nothing was sent */
  preview?: boolean;
  /** the questionnaire's title, above the first section */
  title?: string;
  /** more to show under the title (a deadline, a notice) */
  header?: ReactNode;
  /**
   * What the server refused (a 422's message per question id). Each new object is shown on its
   * questions — until the answer is changed — and the view opens the section of the first one on
   * the respondent's way and scrolls to it. Ids of no question on the way are left to the caller.
   */
  problems?: Record<string, string>;
  /** the sections gone through, the current one last, to open on (the answer screen coming back in another language) */
  startWay?: number[];
  /** told the sections gone through whenever they change */
  onWay?: (way: number[]) => void;
}

/** The server's messages as answer problems (the message is shown as it comes). */
const serverProblems = (problems: Record<string, string> | undefined): Record<string, AnswerProblem> =>
  Object.fromEntries(Object.entries(problems ?? {}).map(([id, message]) => [id, { problem: 'invalid', message: message || undefined } as AnswerProblem]));

/**
 * The questionnaire as a respondent sees it, phone first: one section at a time, "next" checks
 * the section's answers (required ones and the response rules) and follows the branching
 * (answers.ts), "back" returns the way it came; the last section of the way offers "submit".
 */
export function QuestionnaireView({ definition, value, onChange, onSubmit, readOnly, preview, title, header, problems: refused, startWay, onWay }: QuestionnaireViewProps) {
  const translate = useTranslate();
  const [history, setHistory] = useState<number[]>(() => (startWay?.length && startWay.every((i) => i >= 0 && i < definition.sections.length) ? startWay : [0]));
  const wayRef = useRef(onWay);
  useEffect(() => {
    wayRef.current = onWay;
  });
  useEffect(() => {
    wayRef.current?.(history);
  }, [history]);
  const [problems, setProblems] = useState<Record<string, AnswerProblem>>({});
  // the server's problems: kept apart from the section's own check, shown until the answer changes
  const [external, setExternal] = useState<Record<string, AnswerProblem>>(() => serverProblems(refused));
  const [seenRefused, setSeenRefused] = useState(refused);
  const [focus, setFocus] = useState<{ id: string } | null>(null);
  if (refused !== seenRefused) {
    // a new answer of the server: show it, and go to the section of its first problem on the way
    setSeenRefused(refused);
    const found = serverProblems(refused);
    setExternal(found);
    const path = sectionPath(definition, value);
    for (const [k, i] of path.entries()) {
      const first = definition.sections[i].questions.find((q) => found[q.id]);
      if (first) {
        setHistory(path.slice(0, k + 1));
        setProblems({});
        setFocus({ id: first.id });
        break;
      }
    }
  }
  useEffect(() => {
    if (focus) document.getElementById(`q-${focus.id}`)?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  }, [focus]);
  // the pattern engine is fetched on demand, as soon as a questionnaire that needs it is shown
  useEffect(() => {
    loadAnswerChecks(definition).catch(() => undefined);
  }, [definition]);
  const [finished, setFinished] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const top = useRef<HTMLDivElement>(null);
  const sections = definition.sections;
  const last = history[history.length - 1];
  const current = last < sections.length ? last : 0;
  const section = sections[current];

  // the answers and the problems shown, for the stable change handler of the question cards
  const latest = useRef({ value, onChange, definition });
  useEffect(() => {
    latest.current = { value, onChange, definition };
  });
  const changeAnswer = useCallback((id: string, answer: Answer | undefined) => {
    const { value: answers, onChange: change, definition: def } = latest.current;
    const next = { ...answers };
    if (answer === undefined) delete next[id];
    else next[id] = answer;
    change(next);
    // the server judged the former answer
    setExternal((shown) => {
      if (!shown[id]) return shown;
      const rest = { ...shown };
      delete rest[id];
      return rest;
    });
    // a problem on screen follows the answer as it is corrected
    setProblems((shown) => {
      if (!shown[id]) return shown;
      const question = def.sections.flatMap((s) => s.questions).find((q) => q.id === id);
      const problem = question ? answerProblem(question, answer) : null;
      const rest = { ...shown };
      if (problem) rest[id] = problem;
      else delete rest[id];
      return rest;
    });
  }, []);

  const toTop = () => top.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  const check = (): boolean => {
    if (readOnly || !section) return true;
    const found = sectionProblems(section, value);
    setProblems(found);
    const first = section.questions.find((q) => found[q.id]);
    if (!first) return true;
    document.getElementById(`q-${first.id}`)?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
    return false;
  };
  const following = section ? nextSection(definition, current, value) : END;

  const next = () => {
    if (!check()) return;
    if (following === END) return;
    setHistory((h) => [...h, following]);
    setProblems({});
    toTop();
  };
  const back = () => {
    setHistory((h) => (h.length > 1 ? h.slice(0, -1) : h));
    setProblems({});
    toTop();
  };
  const submit = async () => {
    if (!check()) return;
    if (preview) {
      setFinished(true);
      toTop();
      return;
    }
    if (!onSubmit) return;
    setSubmitting(true);
    try {
      await onSubmit(answersOnPath(definition, value));
    } finally {
      setSubmitting(false);
    }
  };
  const restart = () => {
    setHistory([0]);
    setProblems({});
    setFinished(false);
    onChange({});
  };

  const shown = { ...external, ...problems };
  const problemCount = section ? section.questions.filter((q) => shown[q.id]).length : 0;
  const atEnd = following === END;
  return (
    <Box ref={top} sx={{ maxWidth: 760, mx: 'auto', width: '100%', scrollMarginTop: 80 }} data-testid="questionnaire-view">
      <Stack spacing={2}>
        {(title || header) && current === 0 && (
          <Paper variant="outlined" sx={{ p: 2, borderTop: 8, borderTopColor: 'primary.main' }}>
            {title && (
              <Typography component="h2" variant="h5" sx={{ overflowWrap: 'anywhere' }}>
                {title}
              </Typography>
            )}
            {header}
            {!readOnly && definition.sections.some((s) => s.questions.some((q) => q.required)) && (
              <Typography variant="body2" sx={{ color: 'error.main', mt: 1 }}>
                {translate('qe.question.requiredNote')}
              </Typography>
            )}
          </Paper>
        )}
        {finished ? (
          <Paper variant="outlined" sx={{ p: 2 }} data-testid="preview-finished">
            {definition.closingMessage && (
              <Typography sx={{ mb: 2, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="closing-message">
                {definition.closingMessage}
              </Typography>
            )}
            <Typography sx={{ mb: 2 }}>{translate('qe.question.previewFinished')}</Typography>
            <Button variant="outlined" onClick={restart}>
              {translate('qe.question.restart')}
            </Button>
          </Paper>
        ) : !section ? (
          <Typography sx={{ color: 'text.secondary' }}>{translate('qe.question.noQuestions')}</Typography>
        ) : (
          <>
            {(sections.length > 1 || section.title || section.description) && (
              <Paper variant="outlined" sx={{ p: 2, bgcolor: 'action.hover' }} data-testid="section-header">
                {sections.length > 1 && (
                  <Typography variant="overline" sx={{ color: 'text.secondary' }} data-testid="section-counter">
                    {translate('qe.question.sectionOf', { n: current + 1, total: sections.length })}
                  </Typography>
                )}
                {section.title && (
                  <Typography component="h2" variant="h6" sx={{ overflowWrap: 'anywhere' }}>
                    {section.title}
                  </Typography>
                )}
                {section.description && (
                  <Typography variant="body2" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', mt: 0.5 }}>
                    {section.description}
                  </Typography>
                )}
              </Paper>
            )}
            {section.questions.map((q) => (
              <QuestionCard key={q.id} question={q} value={value[q.id]} onChange={changeAnswer} problem={shown[q.id]} readOnly={readOnly} />
            ))}
            {section.questions.length === 0 && <Typography sx={{ color: 'text.secondary', px: 1 }}>{translate('qe.question.emptySection')}</Typography>}
            {problemCount > 0 && (
              <Alert severity="error" data-testid="section-problems">
                {translate('qe.question.fixProblems', { smart_count: problemCount })}
              </Alert>
            )}
            <Box sx={{ display: 'flex', gap: 1, justifyContent: 'space-between', flexWrap: 'wrap', pb: 2 }}>
              <Box>
                {history.length > 1 && (
                  <Button variant="outlined" startIcon={<ArrowBackIcon />} onClick={back} data-testid="section-back">
                    {translate('qe.question.back')}
                  </Button>
                )}
              </Box>
              {!atEnd ? (
                <Button variant="contained" endIcon={<ArrowForwardIcon />} onClick={next} data-testid="section-next">
                  {translate('qe.question.next')}
                </Button>
              ) : (
                !readOnly &&
                (preview || onSubmit) && (
                  <Button variant="contained" endIcon={submitting ? <CircularProgress size={16} color="inherit" aria-hidden /> : <SendIcon />} onClick={submit} disabled={submitting} data-testid="section-submit">
                    {translate('qe.question.submit')}
                  </Button>
                )
              )}
            </Box>
          </>
        )}
      </Stack>
    </Box>
  );
}
