import { describe, expect, it } from 'vitest';
import { definitionErrors, QUESTION_TYPES, type Definition, type Question, type QuestionType } from '../../src/shared/questionnaire/definition.js';
import { OTHER, replyProblems } from '../../src/shared/questionnaire/answers.js';
import { sampleAnswers, SAMPLE_TEXTS } from '../../src/shared/questionnaire/sample-answers.js';
import { seededRandom } from '../support/random.js';

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i + 1}`, label: `${prefix} ${i + 1}` }));

/** A random question of a type, with the rules that type allows, drawn from `r`. */
function randomQuestion(type: QuestionType, id: string, r: ReturnType<typeof seededRandom>): Question {
  const q: Question = { id, type, title: id, required: r.chance(0.7) };
  if (type === 'RADIO' || type === 'DROPDOWN' || type === 'CHECKBOX') q.options = ids('o', r.int(2, 8));
  if (type === 'RADIO' || type === 'CHECKBOX') q.other = r.chance(0.5);
  if (type === 'GRID_RADIO' || type === 'GRID_CHECKBOX') {
    q.rows = ids('r', r.int(1, 4));
    q.columns = ids('c', r.int(Math.max(2, q.rows.length), 6));
    q.onePerColumn = r.chance(0.3);
  }
  const choices = type === 'CHECKBOX' ? q.options!.length : type === 'GRID_CHECKBOX' ? q.columns!.length : 0;
  if (choices && r.chance(0.6)) q.choiceRule = { kind: r.pick(['atLeast', 'atMost', 'exactly'] as const), count: r.int(1, choices) };
  if (type === 'GRID_CHECKBOX' && q.onePerColumn) delete q.choiceRule;
  if (type === 'LINEAR_SCALE') q.scale = { min: r.int(0, 1), max: r.int(2, 10) };
  if (type === 'SHORT_TEXT' && r.chance(0.6)) {
    q.textRule = r.chance(0.5) ? { kind: 'length', min: r.int(1, 5), max: r.int(5, 40) } : { kind: 'number', min: r.int(0, 10), max: r.int(10, 500) };
  }
  return q;
}

describe('sample replies (demo, bench and tests)', () => {
  it('keep every rule of 300 random definitions of every type', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const r = seededRandom(seed);
      const questions = Array.from({ length: r.int(3, 15) }, (_, i) => randomQuestion(r.pick(QUESTION_TYPES), `q${i + 1}`, r));
      const definition: Definition = { version: 1, sections: [{ id: 's1', title: 'Part 1', questions }] };
      expect(definitionErrors(definition), `definition of seed ${seed}: ${JSON.stringify(definitionErrors(definition))}`).toEqual([]);
      for (const texts of [SAMPLE_TEXTS.en, SAMPLE_TEXTS['zh-hk']]) {
        const answers = sampleAnswers(definition, r.next, { texts, other: 0.5 });
        expect(replyProblems(definition, answers), `seed ${seed}: ${JSON.stringify(answers)} ${JSON.stringify(questions)} ${JSON.stringify(replyProblems(definition, answers))}`).toEqual({});
        for (const q of questions) if (q.required) expect(answers[q.id], `required ${q.id} of seed ${seed}`).toBeDefined();
      }
    }
  });

  it('vary: choices lean to the first options, yet every option and "other" are chosen', () => {
    const question: Question = { id: 'q1', type: 'RADIO', title: 'q1', required: true, options: ids('o', 4), other: true };
    const definition: Definition = { version: 1, sections: [{ id: 's1', questions: [question] }] };
    const r = seededRandom(7);
    const seen = new Map<string, number>();
    for (let i = 0; i < 2000; i++) {
      const { choice } = sampleAnswers(definition, r.next).q1 as { choice: string };
      seen.set(choice, (seen.get(choice) ?? 0) + 1);
    }
    expect([...seen.keys()].sort()).toEqual([OTHER, 'o1', 'o2', 'o3', 'o4'].sort());
    expect(seen.get('o1')!).toBeGreaterThan(seen.get('o4')!);
  });

  it('repeat from the same seed', () => {
    const definition: Definition = { version: 1, sections: [{ id: 's1', questions: QUESTION_TYPES.map((type, i) => randomQuestion(type, `q${i}`, seededRandom(i))) }] };
    expect(sampleAnswers(definition, seededRandom(3).next)).toEqual(sampleAnswers(definition, seededRandom(3).next));
  });

  it('refuse a required pattern rule they cannot know, and leave an optional one unanswered', () => {
    const pattern = (required: boolean): Definition => ({ version: 1, sections: [{ id: 's1', questions: [{ id: 'code', type: 'SHORT_TEXT', title: 'code', required, textRule: { kind: 'pattern', pattern: '[A-Z]\\d{3}' } }] }] });
    expect(() => sampleAnswers(pattern(true), Math.random)).toThrow('no sample answer for question code');
    expect(sampleAnswers(pattern(false), () => 0)).toEqual({});
  });
});
