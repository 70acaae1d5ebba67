import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Alert, AlertTitle, Box, Button, Card, CardContent, CircularProgress, Typography } from '@mui/material';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import EditNoteIcon from '@mui/icons-material/EditNote';
import ListIcon from '@mui/icons-material/List';
import SaveIcon from '@mui/icons-material/Save';
import UndoIcon from '@mui/icons-material/Undo';
import { Button as RaButton, Form, RadioButtonGroupInput, ResourceContextProvider, Title, TopToolbar, useDataProvider, useGetIdentity, useGetOne, useLocale, useNotify, useRefresh, type HttpError } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import { useFormContext } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { QUESTIONNAIRE_TYPES, type Questionnaire } from '../../../shared/questionnaire/types';
import { emptyDefinition } from '../../../shared/questionnaire/definition';
import type { Lang } from '../../../shared/i18n/text';
import { MissingTranslationsDialog, type MissingTranslation } from '../designer/MissingTranslationsDialog';
import { describePath, problemText } from '../designer/problems';
import { TITLE_PATH, translationGaps } from '../designer/translations';
import { recordName } from '../../master/labels';
import { useMayForm, useQuestionnaireRights } from './access';
import { questionnaireApi } from './api';
import { AssistantsInput } from './AssistantsInput';
import { dayTimeFormat, DayTimeInput } from './DayTimeInput';
import { fieldKey, typeKey } from './labels';
import { formatDateTime, formatDay } from '../../common/schoolClock';
import { LanguagesInput } from './LanguagesInput';
import { LifecycleActions } from './LifecycleActions';
import { formsPath, QUESTIONNAIRES } from './paths';
import { StatusChip } from './StatusChip';
import { TargetsInput } from './TargetsInput';
import { TitleInputs } from './TitleInputs';
import { useDefaultLanguages } from './useDefaultLanguages';
import { FORM_FIELDS, NEW_VALUES, toCreatePayload, toFormValues, toPayload, validateValues, type FormField, type FormValues } from './values';
import type { MessageKey } from '../../../shared/i18n/keys';
import { Loading } from '../../common/Loading';

export type ScreenType = 'view' | 'add' | 'edit';

const TITLES: Record<ScreenType, MessageKey> = { view: 'qe.menu.formsView', add: 'qe.menu.formsAdd', edit: 'qe.menu.formsEdit' };

/** A read-only value of the screen (person in charge, creation date…) with its label. */
function Info({ name, children }: { name: string; children: ReactNode }) {
  const translate = useTranslate();
  return (
    <Box data-testid={`info-${name}`}>
      <Typography variant="caption" component="div" sx={{ color: 'text.secondary' }}>
        {translate(fieldKey(name))}
      </Typography>
      <Typography variant="body1" component="div" sx={{ minHeight: 24 }}>
        {children}
      </Typography>
    </Box>
  );
}

type Step = 'saveAndEdit' | 'save' | 'ready' | 'cancelReady';

/** The fields that differ from the saved questionnaire (compared as they would be sent). */
function changedFields(values: FormValues, saved: FormValues): FormField[] {
  return FORM_FIELDS.filter((f) => JSON.stringify(toPayload(values, [f])) !== JSON.stringify(toPayload(saved, [f])));
}

/** The form: the read-only facts, the inputs, and the buttons as status and rights allow. */
function QuestionnaireForm({ type, record, readOnly }: { type: ScreenType; record?: Questionnaire; readOnly: boolean }) {
  const translate = useTranslate();
  const locale = useLocale();
  const notify = useNotify();
  const navigate = useNavigate();
  const refresh = useRefresh();
  const dataProvider = useDataProvider();
  const form = useFormContext<FormValues>();
  const { identity } = useGetIdentity();
  const rights = useQuestionnaireRights(record);
  const mayDesign = useMayForm('edit');
  const [busy, setBusy] = useState<Step | null>(null);
  const [google, setGoogle] = useState<string | null>(null);
  const [missing, setMissing] = useState<MissingTranslation[]>([]);
  const [missingOpen, setMissingOpen] = useState(false);
  const status = record?.status ?? 'PREPARING';
  const saved = useMemo(() => (record ? toFormValues(record) : NEW_VALUES), [record]);

  const save = async (values: FormValues): Promise<Questionnaire> => {
    if (!record) return (await dataProvider.create<Questionnaire>(QUESTIONNAIRES, { data: toCreatePayload(values) })).data;
    const changed = changedFields(values, saved);
    if (changed.length === 0) return record;
    return (await dataProvider.update<Questionnaire>(QUESTIONNAIRES, { id: record.id, data: toPayload(values, changed), previousData: record })).data;
  };

  /** A refused save: field errors on their fields (422), the Google account hint (710), else the server's message. */
  const refused = (e: unknown) => {
    const error = e as HttpError;
    const body = error?.body as { code?: number; errors?: unknown } | undefined;
    if (body?.code === 710) {
      setGoogle(error.message);
      return;
    }
    if (error?.status === 422 && body?.errors && typeof body.errors === 'object') {
      let placed = false;
      for (const [path, message] of Object.entries(body.errors as Record<string, unknown>)) {
        const field = FORM_FIELDS.find((f) => path === f || path.startsWith(`${f}.`));
        if (!field) continue;
        form.setError(field, { type: 'server', message: String(message) });
        placed = true;
      }
      if (placed) return;
    }
    notify(error?.message || 'qe.error.operationFailed', { type: 'error' });
  };

  const run = async (step: Step) => {
    let next: string | null = null;
    await form.handleSubmit(async (values) => {
      if (step === 'ready' && normalisedCount(values) === 0) {
        // said beside the field, which is brought into sight: a message on top of the screen would cover it on a phone
        form.setError('targets', { type: 'manual', message: translate('qe.questionnaire.message.targetsRequired') });
        const field = document.querySelector<HTMLElement>('[data-testid="input-targets"]');
        field?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
        field?.querySelector<HTMLElement>('select, input')?.focus({ preventScroll: true });
        return;
      }
      if (step === 'ready' && record && untranslated(record, values)) return;
      setBusy(step);
      setGoogle(null);
      try {
        let current: Questionnaire;
        try {
          current = await save(values);
        } catch (e) {
          refused(e);
          return;
        }
        form.reset(toFormValues(current));
        if (step === 'saveAndEdit') next = formsPath('doc', current.id);
        else if (step === 'save') {
          notify('qe.questionnaire.message.saved', { type: 'success' });
          next = formsPath('list');
        } else {
          // request() shows a refusal (709: no question yet…) itself
          const call = step === 'ready' ? questionnaireApi.ready : questionnaireApi.cancelReady;
          const done = await call(current.id).then(
            () => true,
            () => false,
          );
          if (done) notify(step === 'ready' ? 'qe.questionnaire.message.readyDone' : 'qe.questionnaire.message.cancelReadyDone', { type: 'success' });
          refresh();
        }
      } finally {
        setBusy(null);
      }
    })();
    if (next) navigate(next);
  };

  /**
   * Design complete asks nothing of the server while a text lacks its translation: the dialog
   * names each one (the title's is here, the rest in the designer's translations view).
   */
  const untranslated = (current: Questionnaire, values: FormValues): boolean => {
    const definition = current.definition ?? { ...emptyDefinition(), languages: values.languages };
    const gaps = translationGaps(definition, values.titleTranslation);
    if (!gaps.length) return false;
    const sizes = definition.sections.map((s) => s.questions.length);
    setMissing(gaps.map((p) => ({ path: p.path, place: describePath(translate, p.path, sizes), text: problemText(translate, p.problem) })));
    setMissingOpen(true);
    return true;
  };
  const toTranslation = (path: string) => {
    setMissingOpen(false);
    if (path === TITLE_PATH) setTimeout(() => form.setFocus('titleTranslation'));
    else if (record) navigate(`${formsPath('doc', record.id)}&view=translations`);
  };

  const inCharge = record ? recordName(record.inCharge as never, locale) : (identity?.fullName ?? '');
  const designable = status === 'PREPARING' && (record ? rights.edit : mayDesign);
  // named or anonymous is fixed once it opens (the server refuses the change too)
  const typeFrozen = status === 'PROCESSING' || status === 'FINISHED';
  const step = (name: Step, label: MessageKey, icon: ReactNode, variant: 'contained' | 'outlined' = 'outlined') => (
    <Button variant={variant} startIcon={busy === name ? <CircularProgress size={16} color="inherit" aria-hidden /> : icon} disabled={busy !== null} onClick={() => run(name)} data-testid={`q-${name}`}>
      {translate(label)}
    </Button>
  );

  return (
    <>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr)' }, gap: 2, mb: 2 }}>
        <Info name="inCharge">{inCharge}</Info>
        <Info name="createDate">{record ? formatDay(record.createDate) : '—'}</Info>
        <Info name="lastNoticeTime">{record?.lastNoticeTime ? formatDateTime(record.lastNoticeTime) : '—'}</Info>
        <Info name="status">
          <StatusChip status={status} />
        </Info>
      </Box>
      {type === 'add' && <LanguagesInput disabled={readOnly} />}
      <TitleInputs readOnly={readOnly} />
      <RadioButtonGroupInput
        source="type"
        label={translate(fieldKey('type'))}
        choices={QUESTIONNAIRE_TYPES.map((t) => ({ id: t, name: translate(typeKey(t)) }))}
        translateChoice={false}
        disabled={readOnly || typeFrozen}
        helperText={typeFrozen ? translate('qe.questionnaire.message.typeFrozen') : false}
      />
      <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
        <DayTimeInput source="openDate" label={translate(fieldKey('openDate'))} disabled={readOnly || status === 'PROCESSING'} fullWidth={false} sx={{ width: 260 }} />
        <DayTimeInput source="endDate" label={translate(fieldKey('endDate'))} disabled={readOnly} fullWidth={false} sx={{ width: 260 }} />
      </Box>
      <Box sx={{ my: 1 }}>
        <AssistantsInput disabled={readOnly} />
      </Box>
      <TargetsInput disabled={readOnly || status !== 'PREPARING'} schoolYearId={record?.schoolYearId} />
      {google && (
        <Alert severity="warning" sx={{ mt: 2 }} data-testid="google-required">
          <AlertTitle>{google}</AlertTitle>
          {translate('qe.questionnaire.message.googleHint')}
        </Alert>
      )}
      {!readOnly && (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap', mt: 2 }} data-testid="form-buttons">
          {designable && step('saveAndEdit', 'qe.questionnaire.action.saveAndEdit', <EditNoteIcon />, 'contained')}
          {step('save', 'qe.questionnaire.action.save', <SaveIcon />, designable ? 'outlined' : 'contained')}
          {type === 'edit' && rights.edit && status === 'PREPARING' && step('ready', 'qe.questionnaire.action.ready', <DoneAllIcon />)}
          {type === 'edit' && rights.edit && status === 'NOT_OPEN' && step('cancelReady', 'qe.questionnaire.action.cancelReady', <UndoIcon />)}
          {type === 'edit' && record && rights.edit && status === 'PREPARING' && (
            <Button startIcon={<EditNoteIcon />} disabled={busy !== null} onClick={() => navigate(formsPath('doc', record.id))} data-testid="q-editForm">
              {translate('qe.questionnaire.action.editForm')}
            </Button>
          )}
        </Box>
      )}
      <MissingTranslationsDialog
        items={missing}
        open={missingOpen}
        onClose={() => setMissingOpen(false)}
        onPick={toTranslation}
        onOpen={missing.some((m) => m.path !== TITLE_PATH) ? () => toTranslation(missing.find((m) => m.path !== TITLE_PATH)!.path) : undefined}
      />
    </>
  );
}

const normalisedCount = (values: FormValues) => (values.targets ?? []).filter((t) => t.kind === 'ALL_TEACHERS' || t.kind === 'ALL_STUDENTS' || (t.ids?.length ?? 0) > 0).length;

function BackToList() {
  const navigate = useNavigate();
  return (
    <RaButton label="qe.master.backToList" onClick={() => navigate(formsPath('list'))}>
      <ListIcon />
    </RaButton>
  );
}

/** The screen around the form: title, top actions (view: what the status offers), and the form read-only or not. */
function ScreenBody({ type, record, languages }: { type: ScreenType; record?: Questionnaire; languages?: Lang[] }) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const lang = useLocale() === 'en' ? 'en' : 'zh-hk';
  const readOnly = type === 'view' || (record !== undefined && (!record.mayEdit || record.status === 'FINISHED'));
  const values = useMemo(() => (record ? toFormValues(record) : { ...NEW_VALUES, languages: languages ?? NEW_VALUES.languages }), [record, languages]);
  const validate = useCallback((v: Record<string, unknown>) => {
    const errors = validateValues(v as Partial<FormValues>, lang);
    // a form's validate replaces its inputs' own rules: the date-times' format is checked here
    for (const name of ['openDate', 'endDate']) {
      const problem = dayTimeFormat(v[name]);
      if (problem) errors[name] = problem;
    }
    return errors;
  }, [lang]);
  return (
    <ResourceContextProvider value={QUESTIONNAIRES}>
      <Title title={translate(TITLES[type])} />
      <TopToolbar sx={{ flexWrap: 'wrap' }}>
        <BackToList />
        {type === 'view' && record && <LifecycleActions record={record} variant="button" onDeleted={() => navigate(formsPath('list'))} />}
      </TopToolbar>
      <Card data-testid={`questionnaire-${type}`}>
        <CardContent sx={{ maxWidth: 960 }}>
          <Form record={values} validate={validate} mode="onBlur" warnWhenUnsavedChanges={!readOnly} noValidate>
            <QuestionnaireForm type={type} record={record} readOnly={readOnly} />
          </Form>
        </CardContent>
      </Card>
    </ResourceContextProvider>
  );
}

/** A new questionnaire, in the languages the school settings require. */
function AddScreen() {
  const { languages, pending } = useDefaultLanguages();
  if (pending) return <Loading />;
  return <ScreenBody type="add" languages={languages} />;
}

function RecordNotFound({ type }: { type: ScreenType }) {
  const translate = useTranslate();
  return (
    <Card sx={{ mt: 2 }}>
      <Title title={translate(TITLES[type])} />
      <CardContent>
        <Typography data-testid="record-not-found">{translate('qe.error.recordNotFound')}</Typography>
      </CardContent>
    </Card>
  );
}

function LoadedScreen({ type, id }: { type: ScreenType; id: string }) {
  const notify = useNotify();
  const navigate = useNavigate();
  const { data: record, isPending, error } = useGetOne<Questionnaire>(QUESTIONNAIRES, { id: Number(id) });
  useEffect(() => {
    if (!error) return;
    notify((error as HttpError).message || 'qe.error.recordNotFound', { type: 'error' });
    navigate(formsPath('list'));
  }, [error, notify, navigate]);
  if (isPending) return <Loading />;
  if (!record) return <RecordNotFound type={type} />;
  return <ScreenBody type={type} record={record} />;
}

/**
 * formsView, formsAdd and formsEdit: one screen told apart by `type` (docs/product-rules.md#screens-and-routes), the record's
 * id in `?id=`. The labels of the questionnaire form; the buttons save and
 * edit form, only save, design complete, cancel ready and edit questionnaire as status and
 * rights allow; read-only in view, with the status's actions on top.
 */
export function QuestionnaireScreen({ type }: { type: ScreenType }) {
  const [params] = useSearchParams();
  const id = params.get('id');
  if (type === 'add') return <AddScreen />;
  if (!id) return <RecordNotFound type={type} />;
  return <LoadedScreen key={`${type}-${id}`} type={type} id={id} />;
}
