/**
 * The helpers a question type's `sampleAnswer` draws with (sample-answers.ts makes sample
 * replies from them): one `Sampler` per question, on one source of numbers.
 */
import type { Question } from '../definition-types.js';

/** The texts a sample reply writes. */
export interface SampleTexts {
  short: readonly string[];
  long: readonly string[];
  /** what a respondent types beside "other" */
  other: readonly string[];
}

export interface SampleOptions {
  /** the chance that an optional question is answered (default 0.6) */
  optional?: number;
  /** the chance that "other" is chosen where a question offers it (default 0.1) */
  other?: number;
  texts?: SampleTexts;
}

/** A number from 0 (included) to 1 (excluded): Math.random, or a seeded source for a repeatable run. */
export type Next = () => number;

export interface Sampler {
  texts: SampleTexts;
  pick: <T>(list: readonly T[]) => T;
  /** an index from 0 to n-1, leaning towards 0 */
  skewed: (n: number) => number;
  between: (min: number, max: number) => number;
  /** whether "other" is chosen, where the question offers it */
  otherChosen: () => boolean;
  /** how many of n choices to make, as the choice rule allows */
  howMany: (n: number) => number;
  /** `count` distinct indexes of n, the low ones more often */
  some: (n: number, count: number) => number[];
}

/** The sampler of one question; `texts` are the sample texts to write. */
export function sampler(question: Question, next: Next, options: SampleOptions, texts: SampleTexts): Sampler {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const skewed = (n: number) => Math.min(n - 1, Math.floor(n * next() ** 1.6));
  const between = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const otherChosen = () => !!question.other && next() < (options.other ?? 0.1);
  const howMany = (n: number) => {
    const rule = question.choiceRule;
    if (!rule) return between(1, Math.min(n, 3));
    if (rule.kind === 'exactly') return rule.count;
    if (rule.kind === 'atMost') return between(1, Math.min(n, rule.count));
    return between(rule.count, Math.max(rule.count, Math.min(n, rule.count + 2)));
  };
  const some = (n: number, count: number) => {
    const chosen = new Set<number>();
    const want = Math.min(count, n);
    for (let tries = 0; chosen.size < want && tries < 50; tries++) chosen.add(skewed(n));
    for (let i = 0; chosen.size < want; i++) chosen.add(i);
    return [...chosen].sort((a, b) => a - b);
  };
  return { texts, pick, skewed, between, otherChosen, howMany, some };
}
