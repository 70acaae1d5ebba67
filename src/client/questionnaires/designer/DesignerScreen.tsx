import { useCallback, useEffect, useMemo, useReducer, useRef, useState, type Dispatch } from 'react';
import { Alert, Box, Button, Card, CardContent, Paper, Typography } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import { useQuery } from '@tanstack/react-query';
import { HttpError, Title, useLocale, useNotify } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { definitionErrors, emptyDefinition, type Definition, type DefinitionProblem } from '../../../shared/questionnaire/definition';
import { definitionIn, languagesOf, titleIn } from '../../../shared/questionnaire/languages';
import type { Lang } from '../../../shared/i18n/text';
import type { Questionnaire } from '../../../shared/questionnaire/types';
import { request } from '../../providers/http';
import type { Answers } from '../../../shared/questionnaire/answers';
import { QuestionnaireView } from '../respondent/QuestionnaireView';
import { DefinitionEditor } from './DefinitionEditor';
import { DesignerToolbar } from './DesignerToolbar';
import { designerReducer, type DesignerAction } from './model';
import { PreviewDialog } from './PreviewDialog';
import { LanguagesEditor } from './LanguagesEditor';
import { MissingTranslationsDialog, type MissingTranslation } from './MissingTranslationsDialog';
import { describePath, problemLookup, problemText, ProblemsContext } from './problems';
import { ProblemSummary, type Listed } from './ProblemSummary';
import { titlesWithLanguages, translationGaps, TITLE_PATH, type Titles } from './translations';
import { TranslationsPanel } from './TranslationsPanel';
import { UnsavedGuard } from './UnsavedGuard';
import { ViewTabs, viewPanelProps, type DesignerView } from './ViewTabs';
import { questionnaireApi } from '../form/api';
import { formsPath } from '../form/paths';
import { Loading } from '../../common/Loading';

/** The query key of the questionnaire the designer edits. */
export const designerQueryKey = (id: number) => ['questionnaires', id, 'designer'];

const NONE: DefinitionProblem[] = [];

/** The words of a missing translation, as the server words its 422 too (qe.designer.problems.*). */
const MISSING_PROBLEMS = ['missingEnglish', 'missingChinese'] as const;

/** A questionnaire the user may not change: as a respondent in the user's language sees it. */
function ReadOnlyView({ definition, titles, lang, answers, onAnswers }: { definition: Definition; titles: Titles; lang: Lang; answers: Answers; onAnswers: (a: Answers) => void }) {
  const seen = useMemo(() => definitionIn(definition, lang), [definition, lang]);
  return <QuestionnaireView definition={seen} value={answers} onChange={onAnswers} preview title={titleIn({ ...titles, languages: languagesOf(definition) }, lang)} />;
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
 * server's 422 field errors (definition.<path>) on their inputs. In two languages
 * (docs/questionnaire-languages.md) it has a translations view too; `&view=translations` opens it.
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
  return <Designer key={data.id} record={data} initialView={params.get('view') === 'translations' ? 'translations' : 'questions'} />;
}

const titlesOf = (record: Pick<Questionnaire, 'title' | 'titleTranslation'>): Titles => ({ title: record.title, titleTranslation: record.titleTranslation ?? '' });
const sameTitles = (a: Titles, b: Titles) => a.title === b.title && a.titleTranslation === b.titleTranslation;

function Designer({ record, initialView }: { record: Questionnaire; initialView: DesignerView }) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const locale: Lang = useLocale() === 'en' ? 'en' : 'zh-hk';
  const editable = record.status === 'PREPARING' && record.mayEdit;
  const [definition, dispatch] = useReducer(designerReducer, record.definition ?? emptyDefinition());
  const [savedJson, setSavedJson] = useState(() => JSON.stringify(record.definition ?? emptyDefinition()));
  const [checked, setChecked] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const [answers, setAnswers] = useState<Answers>({});
  // the title lives in the record, beside the definition: its translation is edited with the others, and a new main language swaps it
  const [titles, setTitles] = useState<Titles>(() => titlesOf(record));
  const [savedTitles, setSavedTitles] = useState<Titles>(() => titlesOf(record));
  const [view, setView] = useState<DesignerView>(initialView);
  const [missing, setMissing] = useState<MissingTranslation[]>([]);
  const [missingOpen, setMissingOpen] = useState(false);
  const summary = useRef<HTMLDivElement>(null);
  const latest = useRef(definition);
  const latestTitles = useRef(titles);
  useEffect(() => {
    latest.current = definition;
    latestTitles.current = titles;
  });
  const titlesChanged = !sameTitles(titles, savedTitles);
  const dirty = editable && (JSON.stringify(definition) !== savedJson || titlesChanged);
  const languages = languagesOf(definition);
  const twoLanguages = languages.length > 1;
  const shownView: DesignerView = twoLanguages ? view : 'questions';
  const gaps = useMemo(() => (twoLanguages ? translationGaps(definition, titles.titleTranslation) : []), [twoLanguages, definition, titles.titleTranslation]);

  // an edit makes the server's last word stale
  const edit: Dispatch<DesignerAction> = useCallback((action) => {
    setServerErrors((errors) => (Object.keys(errors).length ? {} : errors));
    dispatch(action);
  }, []);
  const onTitleTranslation = useCallback((titleTranslation: string) => {
    setServerErrors((errors) => (Object.keys(errors).length ? {} : errors));
    setTitles((t) => ({ ...t, titleTranslation }));
  }, []);
  const setLanguages = (next: Lang[]) => {
    setTitles((t) => titlesWithLanguages(t, languages, next));
    edit({ type: 'setLanguages', languages: next });
  };

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
      // the title's own faults (the designer sends it after a change of main language)
      if (key === TITLE_PATH || key === 'title') put(key, String(text));
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
  /** The texts still without their translation, by place, in the dialog that leads to them. */
  const showMissing = (items: { path: string; text: string }[]) => {
    const sizes = latest.current.sections.map((s) => s.questions.length);
    setMissing(items.map((m) => ({ ...m, place: describePath(translate, m.path, sizes) })));
    setMissingOpen(true);
  };
  /** The translations view, with the caret in the translation at `path` (the first missing one by default). */
  const openTranslations = (path = missing[0]?.path) => {
    setMissingOpen(false);
    setView('translations');
    setTimeout(() => {
      const row = path ? document.getElementById(`tr-${path}`) : null;
      row?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
      row?.querySelector<HTMLElement>('[data-testid="translation-input"]')?.focus({ preventScroll: true });
    });
  };
  /** The questions view, scrolled to a question (from the problem list). */
  const goToQuestion = (questionId: string) => {
    setView('questions');
    setTimeout(() => document.getElementById(`dq-${questionId}`)?.scrollIntoView?.({ block: 'center', behavior: 'smooth' }));
  };
  /**
   * The server's 422: a missing translation (the title's, or a definition text worded as a
   * missing one) in the missing translations dialog, as found here; the rest beside the
   * questions they are about.
   */
  const showRefusal = (e: unknown) => {
    if (!(e instanceof HttpError && e.status === 422)) return; // other failures were shown by the HTTP client
    const errors = (e.body as { errors?: Record<string, string> } | undefined)?.errors;
    if (!errors || typeof errors !== 'object' || !Object.keys(errors).length) {
      notify(e.message || 'qe.error.operationFailed', { type: 'error' });
      return;
    }
    const missingWords = new Set(MISSING_PROBLEMS.map((p) => problemText(translate, p)));
    const untranslated = Object.entries(errors).filter(([key, text]) => (key === TITLE_PATH || key.startsWith('definition.')) && missingWords.has(String(text)));
    const rest = Object.fromEntries(Object.entries(errors).filter(([key]) => !untranslated.some(([k]) => k === key)));
    if (untranslated.length) showMissing(untranslated.map(([key, text]) => ({ path: key === TITLE_PATH ? key : key.slice('definition.'.length), text: String(text) })));
    if (Object.keys(rest).length) {
      setServerErrors(rest);
      toSummary();
    }
  };

  /** Saves the questions: true once stored. */
  const save = async (): Promise<boolean> => {
    if (saving) return false;
    if (!checkedHere()) return false;
    const sent = definition;
    const sentTitles = titles;
    // the title only when it changed (a new main language, its translation): the rest of the record is the form's
    const body = titlesChanged ? { definition: sent, title: sentTitles.title, titleTranslation: sentTitles.titleTranslation.trim() ? sentTitles.titleTranslation : null } : { definition: sent };
    setSaving(true);
    try {
      const saved = await request<Questionnaire | null>(`/v1/questionnaires/${record.id}`, { method: 'PUT', body });
      // the server's copy (strings trimmed) is what is saved; it replaces the screen's unless an edit came meanwhile
      const stored = saved?.definition ?? sent;
      setSavedJson(JSON.stringify(stored));
      if (latest.current === sent && stored !== sent) dispatch({ type: 'replace', definition: stored });
      const storedTitles = saved && titlesChanged ? titlesOf(saved) : sentTitles;
      setSavedTitles(storedTitles);
      if (latestTitles.current === sentTitles) setTitles(storedTitles);
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
   * questions pass the checks here, every text has its translation (a dialog names each one
   * missing, and nothing is sent), unsaved changes are saved first; then the server's own
   * checks decide, and the questionnaire's screen shows what it has become.
   */
  const complete = async () => {
    if (saving) return;
    if (!record.targets?.length) {
      notify('qe.questionnaire.message.targetsRequired', { type: 'warning' });
      return;
    }
    if (!checkedHere()) return;
    if (gaps.length) {
      showMissing(gaps.map((p) => ({ path: p.path, text: problemText(translate, p.problem) })));
      return;
    }
    if (dirty && !(await save())) return;
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
        title={titles.title}
        status={status}
        preparing={record.status === 'PREPARING'}
        dirty={dirty}
        editable={editable}
        saving={saving}
        definition={definition}
        onBack={() => navigate('/forms/list')}
        onDetails={() => navigate(`/forms/${record.mayEdit ? 'edit' : 'view'}?id=${record.id}`)}
        onPreview={() => setPreviewing(true)}
        onImport={(d) => {
          // the title follows the file's languages as the texts do (a new main language takes its translation)
          setTitles((t) => titlesWithLanguages(t, languages, languagesOf(d)));
          edit({ type: 'replace', definition: d });
        }}
        onSave={() => void save()}
        onComplete={() => void complete()}
      />

      {readOnlyReason && (
        <Alert severity="info" sx={{ mb: 2 }} data-testid="designer-read-only">
          {translate(readOnlyReason, { status })}
        </Alert>
      )}
      {listed.length > 0 && <ProblemSummary ref={summary} listed={listed} checked={checked} sizes={sizes} onGo={goToQuestion} />}

      {editable ? (
        <ProblemsContext.Provider value={problems}>
          <Box sx={{ maxWidth: 860, mx: 'auto' }}>
            <Paper variant="outlined" sx={{ p: 2, mb: 2 }} data-testid="designer-languages">
              <LanguagesEditor definition={definition} titles={titles} onChange={setLanguages} />
            </Paper>
            {twoLanguages && <ViewTabs view={shownView} onChange={setView} missing={gaps.length} />}
            <Box {...(twoLanguages ? viewPanelProps(shownView) : {})}>
              {shownView === 'translations' ? (
                <TranslationsPanel definition={definition} dispatch={edit} titles={titles} onTitleTranslation={onTitleTranslation} />
              ) : (
                <DefinitionEditor definition={definition} dispatch={edit} bank={{ questionnaireId: record.id, dirty, save }} />
              )}
            </Box>
          </Box>
        </ProblemsContext.Provider>
      ) : (
        <ReadOnlyView definition={definition} titles={titles} lang={locale} answers={answers} onAnswers={setAnswers} />
      )}
      {previewing && <PreviewDialog definition={definition} titles={titles} onClose={() => setPreviewing(false)} />}
      <MissingTranslationsDialog items={missing} open={missingOpen} onClose={() => setMissingOpen(false)} onOpen={() => openTranslations()} onPick={openTranslations} />
      <UnsavedGuard dirty={dirty} />
    </Box>
  );
}
