import { useEffect, useRef, useState } from 'react';
import { draftAnswers, type Answers } from '../../shared/questionnaire/answers';
import type { Definition } from '../../shared/questionnaire/definition';
import { draftBody, type DraftStored, type ReplyDraft } from '../../shared/calls/filling';
import { trimBody } from '../../shared/validation';
import { buildUrl, request, requestHeaders } from '../providers/http';
import { markSynced, type Draft } from './draft';

/** How long after the last change the answers go to the server (docs/product-rules.md#states). */
export const SERVER_SAVE_DELAY_MS = 1500;
export const serverDraftPath = (questionnaireId: number) => `/v1/my/questionnaires/${questionnaireId}/draft`;

/** Why the server refused a save (docs/security.md#drafts-are-bounded): too large (413), a key the questionnaire lacks (422), too often (429). */
export type DraftRefusal = 'tooLarge' | 'notFitting' | 'tooOften';

/** What the screen says of the server's copy: being read, nothing yet, being written, written at, not written, refused. */
export type ServerDraftState = { state: 'checking' } | { state: 'idle' } | { state: 'saving' } | { state: 'saved'; at: string } | { state: 'failed' } | { state: 'refused'; why: DraftRefusal };

/** How long to hold back after a 429 that names no wait. */
const RETRY_AFTER_DEFAULT_MS = 10_000;

/** A refused save's reason and, for a 429, how long to wait (ms); null for any other failure (no connection, a closed questionnaire). */
function refusalOf(error: unknown): { why: DraftRefusal; waitMs: number } | null {
  const status = (error as { status?: unknown } | null)?.status;
  if (status === 413) return { why: 'tooLarge', waitMs: 0 };
  if (status === 422) return { why: 'notFitting', waitMs: 0 };
  if (status !== 429) return null;
  const seconds = Number((error as { body?: { data?: { retryAfter?: unknown } } }).body?.data?.retryAfter);
  return { why: 'tooOften', waitMs: Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 60) * 1000 : RETRY_AFTER_DEFAULT_MS };
}

/** A draft on the server that this device has not seen, newer than its own: offered to go on with. */
export type DraftOffer = ReplyDraft;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The same JSON whatever the order of keys. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** Whether two drafts hold the same answers as the server keeps them (trimmed, what it drops dropped). */
const sameAnswers = (definition: Definition, a: Answers, b: Answers) => canonical(draftAnswers(definition, trimBody({ answers: a }, draftBody).answers)) === canonical(draftAnswers(definition, b));

interface Options {
  questionnaireId: number;
  definition: Definition;
  userId: unknown;
  /** false for an anonymous questionnaire: no call is ever made (docs/security.md#anonymous-means-unlinkable) */
  enabled: boolean;
  /** the local draft the screen began with */
  initial: Draft | null;
}

/**
 * A named questionnaire's draft on the server (src/server/filling/drafts.ts), beside the one in the
 * browser (draft.ts): read once on opening — a newer one from another device is offered (`offer`)
 * — then written ~1.5 s after the last change, when the page is hidden or left, and when the
 * connection comes back after a failure. One write at a time; the latest answers win. A write the
 * server refuses (docs/security.md#drafts-are-bounded: too large, a key the questionnaire lacks,
 * too often) is said (`refused`) and sent again with the next change; after "too often" nothing is
 * sent until the server's wait is over, and then the answers go by themselves.
 */
export function useServerDraft({ questionnaireId, definition, userId, enabled, initial }: Options) {
  const [status, setStatus] = useState<ServerDraftState>(enabled ? { state: 'checking' } : { state: 'idle' });
  const [offer, setOffer] = useState<DraftOffer | null>(null);
  const path = serverDraftPath(questionnaireId);
  // what the writes work from, outside React's renders (a timer and the page's events read them)
  const s = useRef({
    latest: initial?.answers ?? {},
    localSavedAt: initial?.savedAt ?? '',
    seen: initial?.serverSavedAt,
    checked: false,
    checking: false,
    dirty: false,
    inFlight: false,
    again: false,
    paused: false,
    offered: false,
    /** no write before this time (ms): the server said to wait (429) */
    holdUntil: 0,
    timer: undefined as ReturnType<typeof setTimeout> | undefined,
  }).current;

  const clearTimer = () => {
    if (s.timer !== undefined) clearTimeout(s.timer);
    s.timer = undefined;
  };

  const flushRef = useRef<() => Promise<void>>(async () => undefined);
  const schedule = (delay = SERVER_SAVE_DELAY_MS) => {
    clearTimer();
    s.timer = setTimeout(() => void flushRef.current(), Math.max(delay, s.holdUntil - Date.now()));
  };

  /** What the server holds decides: offer it, take it as matching, or send ours over it. */
  const decide = (server: ReplyDraft | null) => {
    const valid = server && isObject(server.answers) && typeof server.savedAt === 'string' ? server : null;
    const mine = Object.keys(draftAnswers(definition, s.latest)).length > 0;
    if (valid && Object.keys(valid.answers).length && !sameAnswers(definition, s.latest, valid.answers)) {
      // another device's version this one has not seen, and ours is older (or there is none): offered
      const unseen = s.seen !== valid.savedAt;
      if (unseen && (!mine || !s.localSavedAt || s.localSavedAt <= valid.savedAt)) {
        s.offered = true;
        setOffer(valid);
        setStatus({ state: 'idle' });
        return;
      }
    } else if (valid && sameAnswers(definition, s.latest, valid.answers)) {
      s.seen = valid.savedAt;
      markSynced(userId, questionnaireId, valid.savedAt);
      s.dirty = false;
      setStatus({ state: 'saved', at: valid.savedAt });
      return;
    }
    // ours is newer, or the server has none: ours goes over
    s.dirty = mine || !!valid;
    setStatus({ state: 'idle' });
    if (s.dirty) schedule(0);
  };

  const check = async () => {
    if (s.checking) return;
    s.checking = true;
    try {
      const server = await request<ReplyDraft | null>(path, { ignoreErr: true });
      s.checked = true;
      decide(server);
    } catch {
      setStatus({ state: 'failed' });
    } finally {
      s.checking = false;
    }
  };

  flushRef.current = async () => {
    clearTimer();
    if (!enabled || s.paused || s.offered || !s.dirty) return;
    if (!s.checked) return check();
    // told to wait: the write goes once the wait is over (the page's events come here too)
    if (Date.now() < s.holdUntil) return schedule(0);
    if (s.inFlight) {
      s.again = true;
      return;
    }
    s.inFlight = true;
    s.dirty = false;
    setStatus({ state: 'saving' });
    try {
      const { savedAt } = await request<DraftStored>(path, { method: 'PUT', body: { answers: s.latest }, bodySchema: draftBody, ignoreErr: true });
      s.seen = savedAt;
      markSynced(userId, questionnaireId, savedAt);
      if (!s.paused) setStatus({ state: 'saved', at: savedAt });
    } catch (error) {
      // kept in the browser all the same: sent again with the next change, or when the connection returns
      s.dirty = true;
      const refusal = refusalOf(error);
      if (refusal?.why === 'tooOften') {
        // and, saved too often, by itself once the server's wait is over
        s.holdUntil = Date.now() + refusal.waitMs;
        schedule(0);
      }
      if (!s.paused) setStatus(refusal ? { state: 'refused', why: refusal.why } : { state: 'failed' });
    } finally {
      s.inFlight = false;
      if (s.again) {
        s.again = false;
        schedule();
      }
    }
  };

  useEffect(() => {
    if (!enabled) return;
    void check();
    const retry = () => void flushRef.current();
    const hidden = () => document.visibilityState === 'hidden' && void flushRef.current();
    // the page goes away: one last write that outlives it (keepalive), if anything is unsent
    const leaving = () => {
      if (!s.dirty || s.paused || s.offered || !s.checked || Date.now() < s.holdUntil) return;
      const body = JSON.stringify(trimBody({ answers: s.latest }, draftBody));
      // a keepalive request may carry 64 kB; more waits for the local draft to be sent next time
      if (body.length > 60_000) return;
      try {
        void fetch(buildUrl(path), { method: 'PUT', keepalive: true, headers: { ...requestHeaders(), 'Content-Type': 'application/json' }, body }).catch(() => undefined);
      } catch {
        // not sent: the local draft stays
      }
    };
    window.addEventListener('online', retry);
    document.addEventListener('visibilitychange', hidden);
    window.addEventListener('pagehide', leaving);
    return () => {
      window.removeEventListener('online', retry);
      document.removeEventListener('visibilitychange', hidden);
      window.removeEventListener('pagehide', leaving);
      // leaving the screen inside the app: what is pending goes now
      clearTimer();
      if (s.dirty && !s.paused && !s.offered && s.checked && !s.inFlight) void flushRef.current();
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per questionnaire: the rest is read from `s` and flushRef
  }, [enabled, path]);

  return {
    status,
    offer,
    /** The answers changed: written after the pause. Until then the screen no longer says they are saved. */
    save(answers: Answers) {
      s.latest = answers;
      s.localSavedAt = new Date().toISOString();
      if (!enabled) return;
      s.dirty = true;
      setStatus((shown) => (shown.state === 'saved' ? { state: 'idle' } : shown));
      schedule();
    },
    /** A submission is under way: nothing more is written (a stored reply takes the draft with it). */
    pause() {
      s.paused = true;
      clearTimer();
    },
    /** The submission was refused or unanswered: writes go on. */
    resume() {
      s.paused = false;
      if (s.dirty) schedule();
    },
    /** Continue them: the offered answers are the screen's now. */
    accept(): DraftOffer {
      const taken = offer ?? { answers: s.latest, savedAt: '' };
      s.offered = false;
      s.latest = taken.answers;
      s.seen = taken.savedAt;
      s.dirty = false;
      setOffer(null);
      setStatus(taken.savedAt ? { state: 'saved', at: taken.savedAt } : { state: 'idle' });
      return taken;
    },
    /** Start again: the server's draft deleted, the screen empty. */
    async startAgain(): Promise<void> {
      s.offered = false;
      s.latest = {};
      s.seen = undefined;
      s.dirty = false;
      setOffer(null);
      setStatus({ state: 'idle' });
      try {
        await request(path, { method: 'DELETE', ignoreErr: true });
      } catch {
        // still there: the next change writes over it
        setStatus({ state: 'failed' });
        s.dirty = true;
      }
    },
  };
}
