import type { Definition, Question } from './definition.js';
import { OTHER, type Answer, type Answers } from './answers.js';
import { assertNever } from '../exhaustive.js';

/** The texts a sample reply writes. */
export interface SampleTexts {
  short: readonly string[];
  long: readonly string[];
  /** what a respondent types beside "other" */
  other: readonly string[];
}

export const SAMPLE_TEXTS = {
  'zh-hk': {
    short: ['團結', '開心', '努力', '熱鬧', '友善', '有趣', '陳大文', '圖書館'],
    long: ['希望圖書館開放時間更長。', '小食部可以多些健康選擇。', '多些課外活動。', '希望有更多戶外學習。', '操場的設施需要維修。'],
    other: ['音樂', '電腦', '歷史', '戲劇'],
  },
  en: {
    short: ['Chan Tai Man', 'More sports', 'Library hours', 'Canteen food', 'Homework load', 'The new lab', 'Music room'],
    long: [
      'The library should open earlier in the morning, and the canteen could offer more vegetarian dishes on weekdays.',
      'I enjoyed the science week very much; more music lessons and fewer worksheets would help.',
      'Please keep the air-conditioning on during the summer exams.',
    ],
    other: ['Drama club', 'Rowing', 'Fencing', 'Dance'],
  },
} satisfies Record<string, SampleTexts>;

export interface SampleOptions {
  /** the chance that an optional question is answered (default 0.6) */
  optional?: number;
  /** the chance that "other" is chosen where a question offers it (default 0.1) */
  other?: number;
  texts?: SampleTexts;
}

/** A number from 0 (included) to 1 (excluded): Math.random, or a seeded source for a repeatable run. */
export type Next = () => number;

/**
 * A reply a respondent could send, for any definition: every required question answered, and
 * every rule kept — choice counts, text lengths and numbers, scales, one per column in grids.
 * Choices lean towards the first options, as real replies rarely spread evenly. The one source of
 * sample replies for the demo, the bench and the tests. A required question with a pattern rule
 * cannot be answered blindly: that throws, naming the question.
 */
export function sampleAnswers(definition: Definition, next: Next, options: SampleOptions = {}): Answers {
  const answers: Answers = {};
  for (const question of definition.sections.flatMap((s) => s.questions)) {
    if (!question.required && next() >= (options.optional ?? 0.6)) continue;
    const answer = sampleAnswer(question, next, options);
    if (answer !== undefined) answers[question.id] = answer;
  }
  return answers;
}

/** One question's sample answer; undefined when none can be made (an optional question with a pattern rule). */
export function sampleAnswer(question: Question, next: Next, options: SampleOptions = {}): Answer | undefined {
  const texts = options.texts ?? SAMPLE_TEXTS.en;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  /** an index from 0 to n-1, leaning towards 0 */
  const skewed = (n: number) => Math.min(n - 1, Math.floor(n * next() ** 1.6));
  const between = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const otherChosen = () => question.type === 'RADIO' || question.type === 'CHECKBOX' ? !!question.other && next() < (options.other ?? 0.1) : false;
  /** how many of n choices to make, as the choice rule allows */
  const howMany = (n: number) => {
    const rule = question.choiceRule;
    if (!rule) return between(1, Math.min(n, 3));
    if (rule.kind === 'exactly') return rule.count;
    if (rule.kind === 'atMost') return between(1, Math.min(n, rule.count));
    return between(rule.count, Math.max(rule.count, Math.min(n, rule.count + 2)));
  };
  /** `count` distinct indexes of n, the low ones more often */
  const some = (n: number, count: number) => {
    const chosen = new Set<number>();
    const want = Math.min(count, n);
    for (let tries = 0; chosen.size < want && tries < 50; tries++) chosen.add(skewed(n));
    for (let i = 0; chosen.size < want; i++) chosen.add(i);
    return [...chosen].sort((a, b) => a - b);
  };
  const choiceIds = (question.options ?? []).map((o) => o.id);
  const rows = (question.rows ?? []).map((r) => r.id);
  const columns = (question.columns ?? []).map((c) => c.id);
  switch (question.type) {
    case 'RADIO':
    case 'DROPDOWN':
      return otherChosen() ? { choice: OTHER, otherText: pick(texts.other) } : { choice: choiceIds[skewed(choiceIds.length)] };
    case 'CHECKBOX': {
      const total = choiceIds.length + (question.other ? 1 : 0);
      const count = howMany(total);
      const withOther = otherChosen() && count >= 1;
      const choices = some(choiceIds.length, withOther ? count - 1 : count).map((i) => choiceIds[i]);
      return withOther ? { choices: [...choices, OTHER], otherText: pick(texts.other) } : { choices };
    }
    case 'GRID_RADIO': {
      // one per column: each row its own column, in a shuffled order
      const free = [...columns];
      return Object.fromEntries(rows.map((row) => [row, question.onePerColumn && free.length ? free.splice(between(0, free.length - 1), 1)[0] : columns[skewed(columns.length)]]));
    }
    case 'GRID_CHECKBOX': {
      const free = [...columns];
      const answer: Record<string, string[]> = {};
      for (const [index, row] of rows.entries()) {
        const from = question.onePerColumn ? free : columns;
        // one per column: a column left for each row still to come
        const room = question.onePerColumn ? Math.max(1, from.length - (rows.length - index - 1)) : from.length;
        const chosen = some(from.length, Math.min(howMany(from.length), room)).map((i) => from[i]);
        if (question.onePerColumn) for (const c of chosen) free.splice(free.indexOf(c), 1);
        if (chosen.length) answer[row] = chosen;
      }
      return answer;
    }
    case 'LINEAR_SCALE': {
      const { min, max } = question.scale ?? { min: 1, max: 5 };
      return max - skewed(max - min + 1);
    }
    case 'SHORT_TEXT': {
      const rule = question.textRule;
      if (rule?.kind === 'pattern') {
        if (question.required) throw new Error(`no sample answer for question ${question.id}: its pattern rule needs a text of its own`);
        return undefined;
      }
      if (rule?.kind === 'number') return String(between(Math.ceil(rule.min ?? 0), Math.floor(rule.max ?? Math.max(100, rule.min ?? 0))));
      const text = pick(texts.short);
      if (rule?.kind !== 'length') return text;
      const min = rule.min ?? 0;
      const max = rule.max ?? Math.max(min, [...text].length);
      return [...text].slice(0, max).join('').trim().padEnd(Math.max(1, min), '.');
    }
    case 'PARAGRAPH':
      return pick(texts.long);
    case 'DATE':
      return `2025-${String(between(1, 12)).padStart(2, '0')}-${String(between(1, 28)).padStart(2, '0')}`;
    case 'TIME':
      return `${String(between(7, 18)).padStart(2, '0')}:${String(5 * between(0, 11)).padStart(2, '0')}`;
    default:
      return assertNever(question.type, 'question type');
  }
}
