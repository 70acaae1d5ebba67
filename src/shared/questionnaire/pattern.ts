/**
 * Answer patterns (a SHORT_TEXT rule of kind `pattern`) on RE2 (re2js, a pure-JavaScript port),
 * never on JavaScript's backtracking RegExp: a designer's pattern such as `(a+)+b` took 24.5 s
 * per 32-character answer there, and the server checks every answer on its event loop. RE2 reads
 * the answer once, in time proportional to its length times the pattern's program size, and
 * refuses what cannot run that way (back-references, look-ahead and look-behind).
 *
 * The patterns are written as JavaScript's (`\u4e00`, `(?<name>…)` keep working: re2js's
 * translateRegExp turns them into RE2's syntax), and the whole answer must match, as before
 * (`^(?:…)$`). Differences remain, in RE2's favour or harmless for short answers: `.` and
 * classes take a whole character (an emoji is one, as `textLength` counts); `\s` is ASCII white
 * space only (JavaScript's also takes the ideographic space U+3000); RE2's own escapes (`\pL`,
 * `\A`, `\z`, `\Q…\E`) and flags (`(?i)`) mean what they mean in RE2, not a plain letter.
 */
import type { RE2JS } from 're2js';

/**
 * The engine, once loaded. Module state on purpose: it is one library per process or page, set
 * once and never changed. Node (the server, scripts, tests) loads it at once and synchronously
 * (re2js ships CommonJS too), so the server never checks a pattern without it, and a missing
 * package stops the server at start. A browser loads it on demand (`loadPatternEngine`): it is
 * ~46 kB gzipped, kept out of the first bundle for the screens that never need it.
 */
let engine: typeof RE2JS | undefined = (() => {
  const nodeModule = globalThis.process?.getBuiltinModule?.('node:module') as typeof import('node:module') | undefined;
  return nodeModule ? (nodeModule.createRequire(import.meta.url)('re2js') as typeof import('re2js')).RE2JS : undefined;
})();
let loading: Promise<void> | undefined;

/** Loads the engine (at once on Node; in a browser the first call fetches it, a failed fetch may be tried again). */
export function loadPatternEngine(): Promise<void> {
  if (engine) return Promise.resolve();
  loading ??= import('re2js').then(
    (m) => {
      engine = m.RE2JS;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The longest pattern a designer may write (characters). */
export const PATTERN_MAX_LENGTH = 200;
/**
 * The largest RE2 program one pattern may compile to, and all the patterns of one questionnaire
 * together. Linear is not cheap enough by itself: where RE2's DFA gives up, matching costs about
 * the program size for every character of the answer (`(?:.{0,480}a.{0,480})+b`, 1,925
 * instructions, took 145 ms for a 1,000-character answer on this project's 2-core test machine),
 * and 200 characters compile to as much as 22,000 (`\pL{1000}` 22 times). With these caps one
 * submission's pattern checks stay within a fraction of a second even when a designer means
 * harm. Patterns people write are far below (`[0-9]{8}` is 10, `[A-Za-z ]{1,100}` 201, an e-mail
 * address 13; a length belongs in a length rule). Compiling costs about the program size too,
 * so `definitionErrors` counts what it compiled, refused patterns included, and stops at the cap.
 */
export const PATTERN_MAX_PROGRAM = 1000;
export const DEFINITION_MAX_PROGRAM = 3000;

/** Why a pattern cannot be used: RE2 refuses it (syntax, back-references, lookaround, too long), or it is too costly. */
export type PatternFault = 'badPattern' | 'complexPattern';

/** A compiled pattern and its program size, or why it cannot be used (with the size it compiled to, when it did). */
export type CompiledPattern = { ok: true; pattern: RE2JS; size: number } | { ok: false; fault: PatternFault; size: number };

/** JavaScript's named back-reference `\k<name>`, which translateRegExp would turn into a plain "k" (escaped backslashes dropped first). */
const hasNamedBackReference = (source: string) => source.replace(/\\\\/g, '').includes('\\k');

/**
 * A designer's pattern compiled for whole-answer matching, or why it cannot be; null while a
 * browser has not loaded the engine yet (this call starts loading it): the pattern is not judged
 * there and then — the server, which always has it, judges it.
 */
export function compilePattern(source: string): CompiledPattern | null {
  if (!engine) {
    loadPatternEngine().catch(() => undefined);
    return null;
  }
  if (source.length > PATTERN_MAX_LENGTH || hasNamedBackReference(source)) return { ok: false, fault: 'badPattern', size: 0 };
  let pattern: RE2JS;
  try {
    pattern = engine.compile(engine.translateRegExp(source));
  } catch {
    return { ok: false, fault: 'badPattern', size: 0 };
  }
  const size = pattern.programSize();
  return size > PATTERN_MAX_PROGRAM ? { ok: false, fault: 'complexPattern', size } : { ok: true, pattern, size };
}
