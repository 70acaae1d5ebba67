import type { ErrorKey } from '../../shared/errors.js';
import type { ServerMessages } from '../../shared/i18n/server-en.js';
import { serverText, type Lang } from '../../shared/i18n/text.js';
import type { TestStep } from '../../shared/calls/sign-in.js';
import { BusinessError } from '../plugins/errors.js';

/** A text of qe.signInChecks (src/shared/i18n/server-en.ts): a step's outcome, or a reason. */
export type CheckKey = keyof ServerMessages['qe']['signInChecks'];
export type StepName = TestStep['step'];
type Params = Record<string, string | number>;

/** A check's text in a language, its placeholders filled. */
export const checkText = (lang: Lang, key: CheckKey, params?: Params) => serverText(lang, `qe.signInChecks.${key}`, params);

/** A list as the language writes one (a, b, c / a、b、c), or "none". */
export const listText = (lang: Lang, items: readonly string[]) => (items.length ? items.join(lang === 'en' ? ', ' : '、') : checkText(lang, 'nothing'));

/**
 * What went wrong in a step: the business error a sign-in is refused with (docs/errors.md), the
 * reason in words an IT officer can act on (a qe.signInChecks text, given to the error as
 * `reason`), and any parameters of the error's own (`email` of SIGN_IN_NO_ACCOUNT).
 */
export class StepFailure extends Error {
  constructor(
    readonly error: ErrorKey,
    readonly reason: CheckKey,
    readonly params: Params = {},
    readonly errorParams: Params = {},
  ) {
    super(`${error}: ${reason}`);
  }
}

/** A step's outcome when it went well: its text and parameters. */
export interface Found<T> {
  value: T;
  detail: CheckKey;
  params?: Params;
}

/**
 * The checks of a completion, step by step (discovery, keys, token, idToken, email, domain,
 * account, role). A sign-in stops at the first that fails, refused with its business error whose
 * `reason` is the failure's words; a provider's test goes on recording: each step's outcome in
 * the caller's language, and the steps after a failure as not checked.
 */
export class Checks {
  readonly steps: TestStep[] = [];
  private failed = false;

  constructor(
    private readonly mode: 'sign-in' | 'test',
    private readonly lang: Lang,
    /** the provider's name in the caller's language: the errors name it */
    private readonly provider: string,
  ) {}

  get ok(): boolean {
    return !this.failed;
  }

  /** Runs one step; answers its value, or null when it (or an earlier one, in a test) failed. */
  async step<T>(step: StepName, run: () => Promise<Found<T>>): Promise<T | null> {
    if (this.failed) {
      this.steps.push({ step, ok: false, detail: checkText(this.lang, 'skipped') });
      return null;
    }
    try {
      const found = await run();
      this.steps.push({ step, ok: true, detail: checkText(this.lang, found.detail, found.params) });
      return found.value;
    } catch (error) {
      if (!(error instanceof StepFailure)) throw error;
      const reason = checkText(this.lang, error.reason, error.params);
      if (this.mode === 'sign-in') throw new BusinessError(error.error, { provider: this.provider, reason, ...error.errorParams });
      this.failed = true;
      this.steps.push({ step, ok: false, detail: reason });
      return null;
    }
  }
}
