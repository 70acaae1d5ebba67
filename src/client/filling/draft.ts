import type { Answers } from '../../shared/questionnaire/answers';

/**
 * The answers being typed, kept in the browser (local storage) so that a reload, a closed tab
 * or a dropped connection loses nothing: one draft per user and questionnaire, written on every
 * change and removed once the server has stored the reply. The submission key of the attempt
 * under way is kept with it, so that a retry after a lost answer sends the same key and the
 * server answers the first result instead of storing a second reply. A named questionnaire's
 * draft is kept on the server too (serverDraft.ts, docs/product-rules.md#states); the local one
 * remembers which server version it last matched, so another device's later one can be offered.
 */
export interface Draft {
  answers: Answers;
  /** set by the first submit of these answers and kept until the reply is stored */
  submissionKey?: string;
  /** when the draft was last written (ISO) */
  savedAt: string;
  /** the server's savedAt of its draft when it last held these answers (named questionnaires: serverDraft.ts) */
  serverSavedAt?: string;
}

const PREFIX = 'qe-filling-draft';
export const draftKey = (userId: unknown, questionnaireId: unknown) => `${PREFIX}:${String(userId)}:${String(questionnaireId)}`;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function loadDraft(userId: unknown, questionnaireId: unknown): Draft | null {
  try {
    const text = localStorage.getItem(draftKey(userId, questionnaireId));
    if (!text) return null;
    const draft = JSON.parse(text) as unknown;
    if (!isObject(draft) || !isObject(draft.answers)) return null;
    return {
      answers: draft.answers as Answers,
      submissionKey: typeof draft.submissionKey === 'string' ? draft.submissionKey : undefined,
      savedAt: typeof draft.savedAt === 'string' ? draft.savedAt : '',
      serverSavedAt: typeof draft.serverSavedAt === 'string' ? draft.serverSavedAt : undefined,
    };
  } catch {
    return null;
  }
}

/** Writes the draft (keeping the server version it matched unless told); false when the browser refuses (private mode, storage full). */
export function saveDraft(userId: unknown, questionnaireId: unknown, draft: Omit<Draft, 'savedAt'>): boolean {
  try {
    const serverSavedAt = 'serverSavedAt' in draft ? draft.serverSavedAt : loadDraft(userId, questionnaireId)?.serverSavedAt;
    const value: Draft = { ...draft, serverSavedAt, savedAt: new Date().toISOString() };
    localStorage.setItem(draftKey(userId, questionnaireId), JSON.stringify(value));
    return true;
  } catch {
    return false;
  }
}

/** Notes that the server's draft of `savedAt` holds the answers kept here (its time of writing unchanged). */
export function markSynced(userId: unknown, questionnaireId: unknown, serverSavedAt: string): void {
  const draft = loadDraft(userId, questionnaireId);
  if (!draft) return;
  try {
    localStorage.setItem(draftKey(userId, questionnaireId), JSON.stringify({ ...draft, serverSavedAt } satisfies Draft));
  } catch {
    // not kept: the next load compares the answers themselves
  }
}

export function clearDraft(userId: unknown, questionnaireId: unknown): void {
  try {
    localStorage.removeItem(draftKey(userId, questionnaireId));
  } catch {
    // nothing kept, nothing to remove
  }
}

/**
 * A fresh submission key: crypto.randomUUID where the browser offers it (secure contexts only),
 * else 128 random bits from crypto.getRandomValues (available on plain http too), else Math.random.
 * Letters, digits and hyphens, as the server accepts.
 */
export function newSubmissionKey(): string {
  const c = (globalThis as { crypto?: Crypto }).crypto;
  if (c && typeof c.randomUUID === 'function') {
    try {
      return c.randomUUID();
    } catch {
      // not a secure context after all: fall through
    }
  }
  const bytes = new Uint8Array(16);
  if (c && typeof c.getRandomValues === 'function') c.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
