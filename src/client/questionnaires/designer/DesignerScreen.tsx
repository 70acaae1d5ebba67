import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type Dispatch } from 'react';
import { Alert, AlertTitle, Box, Button, Card, CardContent, Link, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { useQuery } from '@tanstack/react-query';
import { HttpError, Loading, Title, useNotify } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { definitionErrors, emptyDefinition, type Definition, type DefinitionProblem } from '../../../shared/questionnaire/definition';
import type { Questionnaire } from '../../../shared/questionnaire/types';
import { request } from '../../providers/http';
import type { Answers } from '../../../shared/questionnaire/answers';
import { QuestionnaireView } from '../respondent/QuestionnaireView';
import { DefinitionEditor } from './DefinitionEditor';
import { DesignerToolbar } from './DesignerToolbar';
import { designerReducer, type DesignerAction } from './model';
import { PreviewDialog } from './PreviewDialog';
import { describePath, problemLookup, problemText, ProblemsContext } from './problems';
import { UnsavedGuard } from './UnsavedGuard';
import { questionnaireApi } from '../form/api';
import { formsPath } from '../form/paths';

/** The query key of the questionnaire the designer edits. */
export const designerQueryKey = (id: number) => ['questionnaires', id, 'designer'];

const NONE: DefinitionProblem[] = [];

/** A problem to list: where, what, and the question it is in (to scroll to). */
interface Listed {
  path: string;
  text: string;
  questionId?: string;
}

function NotFound() {
  const translate = useTranslate();
  const navigate = useNavigate();
  return (
    <Card sx={{ mt: 2 }}>
      <Title title={translate('qe.menu.formsDoc')} />
      <CardContent>
        <Typography data-testid="record-not-found" sx={{ mb: 2 }}>
          {translate('qe.error.recordNotFound')}
        </Typography>
        <Button startIcon={<ArrowBackIcon />} onClick={() => navigate('/forms/list')}>
          {translate('qe.designer.backToList')}
        </Button>
      </CardContent>
    </Card>
  );
}

/** The question a problem's path points into, if any. */
function questionAt(definition: Definition, path: string): string | undefined {
  const m = /^sections\.(\d+)\.questions\.(\d+)/.exec(path);
  return m ? definition.sections[Number(m[1])]?.questions[Number(m[2])]?.id : undefined;
}

/**
 * The designer of one questionnaire's questions (formsDoc, /forms/doc?id=N): loads the
 * questionnaire, edits its definition while it is PREPARING and the user may edit it (read-only
 * with the preview otherwise), checks it with `definitionErrors` before saving, and puts the
 * server's 422 field errors (definition.<path>) on their inputs.
 */
export default function DesignerScreen() {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const { data, isPending, isError } = useQuery({
    queryKey: designerQueryKey(id),
    queryFn: () => request<Questionnaire>(`/v1/questionnaires/${id}`),
    enabled: valid,
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    retry: false,
  });
  if (!valid || isError) return <NotFound />;
  if (isPending || !data) return <Loading />;
  return <Designer key={data.id} record={data} />;
}

function Designer({ record }: { record: Questionnaire }) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const editable = record.status === 'PREPARING' && record.mayEdit;
  const [definition, dispatch] = useReducer(designerReducer, record.definition ?? emptyDefinition());
  const [savedJson, setSavedJson] = useState(() => JSON.stringify(record.definition ?? emptyDefinition()));
  const [checked, setChecked] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const [answers, setAnswers] = useState<Answers>({});
  const summary = useRef<HTMLDivElement>(null);
  const latest = useRef(definition);
  useEffect(() => {
    latest.current = definition;
  });
  const dirty = editable && JSON.stringify(definition) !== savedJson;

  // an edit makes the server's last word stale
  const edit: Dispatch<DesignerAction> = useCallback((action) => {
    setServerErrors((errors) => (Object.keys(errors).length ? {} : errors));
    dispatch(action);
  }, []);

  const clientProblems = useMemo(() => (checked ? definitionErrors(definition) : NONE), [checked, definition]);
  const { messages, listed } = useMemo(() => {
    const messages: Record<string, string> = {};
    const listed: Listed[] = [];
    const put = (path: string, text: string) => {
      messages[path] = messages[path] ? `${messages[path]}; ${text}` : text;
      listed.push({ path, text, questionId: questionAt(definition, path) });
    };
    for (const p of clientProblems) put(p.path, problemText(translate, p.problem));
    for (const [key, text] of Object.entries(serverErrors)) {
      if (key !== 'definition' && !key.startsWith('definition.')) continue;
      const path = key === 'definition' ? '' : key.slice('definition.'.length);
      if (!messages[path]) put(path, String(text));
    }
    return { messages, listed };
  }, [clientProblems, serverErrors, definition, translate]);
  // the same messages keep the same lookup: an edit re-renders only the question it changed
  const messagesKey = JSON.stringify(messages);
  const problems = useMemo(() => problemLookup(JSON.parse(messagesKey) as Record<string, string>), [messagesKey]);
  const sizes = definition.sections.map((s) => s.questions.length);

  /** Checks the questions here first; a problem found is listed above them, and nothing is sent. */
  const checkedHere = () => {
    setChecked(true);
    const found = definitionErrors(definition);
    if (found.length) toSummary();
    return found.length === 0;
  };
  /**
   * The list of problems brought into sight and focused (read out again by a screen reader): it says
   * what to correct where, so no message on top of the screen repeats it — one would cover it on a phone.
   */
  const toSummary = () =>
    setTimeout(() => {
      summary.current?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
      summary.current?.focus({ preventScroll: true });
    });
  /** The server's 422: its messages beside the questions they are about. */
  const showRefusal = (e: unknown) => {
    if (!(e instanceof HttpError && e.status === 422)) return; // other failures were shown by the HTTP client
    const errors = (e.body as { errors?: Record<string, string> } | undefined)?.errors;
    if (errors && typeof errors === 'object' && Object.keys(errors).length) {
      setServerErrors(errors);
      toSummary();
    } else notify(e.message || 'qe.error.operationFailed', { type: 'error' });
  };

  /** Saves the questions: true once stored. */
  const save = async (): Promise<boolean> => {
    if (saving) return false;
    if (!checkedHere()) return false;
    const sent = definition;
    setSaving(true);
    try {
      const saved = await request<Questionnaire | null>(`/v1/questionnaires/${record.id}`, { method: 'PUT', body: { definition: sent } });
      // the server's copy (strings trimmed) is what is saved; it replaces the screen's unless an edit came meanwhile
      const stored = saved?.definition ?? sent;
      setSavedJson(JSON.stringify(stored));
      if (latest.current === sent && stored !== sent) dispatch({ type: 'replace', definition: stored });
      setServerErrors({});
      notify('qe.designer.saved', { type: 'success' });
      return true;
    } catch (e) {
      showRefusal(e);
      return false;
    } finally {
      setSaving(false);
    }
  };

  /**
   * Design complete from the designer itself: the audience must be chosen, the
   * questions pass the checks here, unsaved changes are saved first; then the server's own
   * checks decide, and the questionnaire's screen shows what it has become.
   */
  const complete = async () => {
    if (saving) return;
    if (!record.targets?.length) {
      notify('qe.questionnaire.message.targetsRequired', { type: 'warning' });
      return;
    }
    if (dirty ? !(await save()) : !checkedHere()) return;
    setSaving(true);
    try {
      await questionnaireApi.ready(record.id);
      notify('qe.questionnaire.message.readyDone', { type: 'success' });
      navigate(formsPath('view', record.id));
    } catch (e) {
      showRefusal(e);
    } finally {
      setSaving(false);
    }
  };
  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  });
  // Ctrl+S / ⌘S saves
  useEffect(() => {
    if (!editable) return;
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault();
        void saveRef.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [editable]);

  const status = translate(`qe.questionnaire.status.${record.status}`, { _: record.status });
  const readOnlyReason = editable ? null : record.status !== 'PREPARING' ? 'qe.designer.readOnly.status' : 'qe.designer.readOnly.permission';

  return (
    <Box sx={{ mt: 1, pb: 4 }} data-testid="designer">
      <Title title={translate('qe.menu.formsDoc')} />
      <DesignerToolbar
        id={record.id}
        title={record.title}
        status={status}
        preparing={record.status === 'PREPARING'}
        dirty={dirty}
        editable={editable}
        saving={saving}
        definition={definition}
        onBack={() => navigate('/forms/list')}
        onDetails={() => navigate(`/forms/${record.mayEdit ? 'edit' : 'view'}?id=${record.id}`)}
        onPreview={() => setPreviewing(true)}
        onImport={(d) => edit({ type: 'replace', definition: d })}
        onSave={() => void save()}
        onComplete={() => void complete()}
      />

      {readOnlyReason && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="designer-read-only">
          {translate(readOnlyReason, { status })}
        </Alert>
      )}
      {listed.length > 0 && (
        <Alert severity="error" ref={summary} tabIndex={-1} sx={{ mb: 2, scrollMarginTop: 72 }} data-testid="designer-problems">
          <AlertTitle>{translate('qe.designer.problemSummary', { smart_count: listed.length })}</AlertTitle>
          {checked && <Box sx={{ mb: 0.5 }}>{translate('qe.designer.fixFirst', { smart_count: listed.length })}</Box>}
          <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
            {listed.slice(0, 10).map((p, i) => (
              <li key={i}>
                {p.questionId ? (
                  <Link
                    component="button"
                    type="button"
                    onClick={() => document.getElementById(`dq-${p.questionId}`)?.scrollIntoView?.({ block: 'center', behavior: 'smooth' })}
                    sx={{ textAlign: 'left', verticalAlign: 'baseline' }}
                  >
                    {describePath(translate, p.path, sizes)}
                  </Link>
                ) : (
                  describePath(translate, p.path, sizes)
                )}
                {': '}
                {p.text}
              </li>
            ))}
          </Box>
          {listed.length > 10 && translate('qe.designer.moreProblems', { smart_count: listed.length - 10 })}
        </Alert>
      )}

      {editable ? (
        <ProblemsContext.Provider value={problems}>
          <Box sx={{ maxWidth: 860, mx: 'auto' }}>
            <DefinitionEditor definition={definition} dispatch={edit} />
          </Box>
        </ProblemsContext.Provider>
      ) : (
        <QuestionnaireView definition={definition} value={answers} onChange={setAnswers} preview title={record.title} />
      )}
      {previewing && <PreviewDialog definition={definition} title={record.title} onClose={() => setPreviewing(false)} />}
      <UnsavedGuard dirty={dirty} />
    </Box>
  );
}
