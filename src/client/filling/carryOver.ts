import type { Answers } from '../../shared/questionnaire/answers';

/**
 * What the answer screen hands over to itself across a change of language. react-admin mounts
 * the whole app afresh once the new language's messages are loaded (its I18nContextProvider
 * changes a key), so the screen would start over on its first section, and with the answers of
 * the local draft only — none when the browser refuses to keep one. The switch leaves here the
 * answers, the way through the sections and the submission key; the screen mounted in the new
 * language takes them (and drops them once mounted). Kept for one user, questionnaire and
 * language, so that nothing reaches another user's screen.
 */
export interface CarriedOver {
  userId: string;
  questionnaireId: number;
  locale: string;
  answers: Answers;
  /** the sections gone through, the current one last (QuestionnaireView's way) */
  way: number[];
  /** whether the browser keeps the local draft (what the screen says of it) */
  kept: boolean;
  /** the key of a submission whose answer never came (draft.ts), for a browser that keeps no draft */
  submissionKey?: string;
}

let carried: CarriedOver | null = null;

export function carryOver(state: CarriedOver): void {
  carried = state;
}

/** The state left for this screen by a switch to `locale`, if any. */
export function carriedOver(userId: unknown, questionnaireId: number, locale: string): CarriedOver | null {
  return carried && carried.userId === String(userId) && carried.questionnaireId === questionnaireId && carried.locale === locale ? carried : null;
}

/** While the new language loads the old screen still answers: what changes meanwhile goes along. */
export function updateCarried(userId: unknown, questionnaireId: number, change: Partial<Pick<CarriedOver, 'answers' | 'way' | 'kept'>>): void {
  if (carried && carried.userId === String(userId) && carried.questionnaireId === questionnaireId) carried = { ...carried, ...change };
}

export function dropCarried(): void {
  carried = null;
}
