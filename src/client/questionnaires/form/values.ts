import type { Lang } from '../../../shared/errors';
import { fieldMessage } from '../../../shared/field-messages';
import { TARGET_KINDS, type Questionnaire, type QuestionnaireType, type Target, type TargetKind } from '../../../shared/questionnaire/types';
import { emptyDefinition } from '../../../shared/questionnaire/definition';
import { toIso } from '../../common/schoolClock';

/** What the form screen edits. Dates are ISO from the server, or datetime-local texts once changed. */
export interface FormValues {
  id?: number;
  title: string;
  /** the title in the second language ('' when none: docs/questionnaire-languages.md) */
  titleTranslation: string;
  /** the languages it is written in, the main one first: chosen when it is created, the designer's afterwards */
  languages: Lang[];
  type: QuestionnaireType;
  openDate: string | null;
  endDate: string | null;
  assistantIds: number[];
  targets: Target[];
}

export const FORM_FIELDS = ['title', 'titleTranslation', 'type', 'openDate', 'endDate', 'assistantIds', 'targets'] as const;
export type FormField = (typeof FORM_FIELDS)[number];

export const NEW_VALUES: FormValues = { title: '', titleTranslation: '', languages: ['zh-hk'], type: 'NAMED', openDate: null, endDate: null, assistantIds: [], targets: [] };

/** The longest title, in either language (src/shared/calls/questionnaires.ts). */
export const TITLE_MAX = 200;

/** Kinds that cover everyone of a role: no ids. */
export const WHOLE_KINDS: TargetKind[] = ['ALL_TEACHERS', 'ALL_STUDENTS'];

/** One target per kind, in TARGET_KINDS order, ids distinct and sorted; a kind with no ids left is dropped. */
export function normaliseTargets(targets: Target[]): Target[] {
  const byKind = new Map<TargetKind, Set<number>>();
  for (const t of targets ?? []) {
    const ids = byKind.get(t.kind) ?? new Set<number>();
    for (const id of t.ids ?? []) ids.add(Number(id));
    byKind.set(t.kind, ids);
  }
  return TARGET_KINDS.filter((k) => byKind.has(k))
    .map((kind) => (WHOLE_KINDS.includes(kind) ? { kind } : { kind, ids: [...byKind.get(kind)!].sort((a, b) => a - b) }))
    .filter((t) => WHOLE_KINDS.includes(t.kind) || (t.ids?.length ?? 0) > 0);
}

export function toFormValues(record: Questionnaire): FormValues {
  return {
    id: record.id,
    title: record.title ?? '',
    titleTranslation: record.titleTranslation ?? '',
    languages: record.languages?.length ? record.languages : ['zh-hk'],
    type: record.type,
    openDate: record.openDate,
    endDate: record.endDate,
    assistantIds: record.assistantIds ?? [],
    targets: normaliseTargets(record.targets ?? []),
  };
}

/** The body of POST (every field) or PUT (only `fields`, those the user changed: the server refuses some changes by status). */
export function toPayload(values: FormValues, fields: readonly FormField[] = FORM_FIELDS): Partial<Record<FormField, unknown>> {
  const out: Partial<Record<FormField, unknown>> = {};
  for (const name of fields) {
    if (name === 'openDate' || name === 'endDate') out[name] = toIso(values[name]);
    else if (name === 'targets') out.targets = normaliseTargets(values.targets ?? []);
    else if (name === 'assistantIds') out.assistantIds = (values.assistantIds ?? []).map(Number);
    else if (name === 'titleTranslation') out.titleTranslation = (values.languages?.length ?? 0) > 1 && values.titleTranslation?.trim() ? values.titleTranslation : null;
    else out[name] = values[name];
  }
  return out;
}

/**
 * The body of POST: every field, and the languages as those of an empty definition. A
 * questionnaire in Chinese only (a definition without languages) and without a title translation
 * sends neither.
 */
export function toCreatePayload(values: FormValues): Record<string, unknown> {
  const out: Record<string, unknown> = toPayload(values);
  if (out.titleTranslation === null) delete out.titleTranslation;
  const languages = values.languages?.length ? values.languages : ['zh-hk'];
  if (languages.length > 1 || languages[0] !== 'zh-hk') out.definition = { ...emptyDefinition(), languages };
  return out;
}

/** The form's own rules: a title; the end not before the open date (the dateRange text of field-messages). */
export function validateValues(values: Partial<FormValues>, lang: Lang): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!values.title || !String(values.title).trim()) errors.title = fieldMessage('required', lang);
  else if (String(values.title).trim().length > TITLE_MAX) errors.title = fieldMessage('maxLength', lang, { limit: TITLE_MAX });
  if (values.titleTranslation && String(values.titleTranslation).trim().length > TITLE_MAX) errors.titleTranslation = fieldMessage('maxLength', lang, { limit: TITLE_MAX });
  if (!values.type) errors.type = fieldMessage('required', lang);
  const open = toIso(values.openDate);
  const end = toIso(values.endDate);
  if (open && end && end < open) errors.endDate = fieldMessage('dateRange', lang);
  return errors;
}
