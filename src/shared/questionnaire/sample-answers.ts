import type { Definition, Question } from './definition.js';
import type { Answer, Answers } from './answers.js';
import { rulesOf } from './question-types/index.js';
import { sampler, type Next, type SampleOptions, type SampleTexts } from './question-types/sampling.js';

export type { Next, SampleOptions, SampleTexts } from './question-types/sampling.js';

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

/** One question's sample answer (its type's `sampleAnswer`); undefined when none can be made (an optional question with a pattern rule). */
export function sampleAnswer(question: Question, next: Next, options: SampleOptions = {}): Answer | undefined {
  return rulesOf(question.type).sampleAnswer(question, sampler(question, next, options, options.texts ?? SAMPLE_TEXTS.en));
}
