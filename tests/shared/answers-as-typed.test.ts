import { describe, expect, it } from 'vitest';
import { answersOnPath, draftAnswers, keptAnswer } from '../../src/shared/questionnaire/answers.js';
import type { Definition, Question } from '../../src/shared/questionnaire/definition.js';
import { trimBody } from '../../src/shared/validation.js';
import { draftBody, replyBody } from '../../src/shared/calls/filling.js';

const q = (over: Partial<Question> & Pick<Question, 'id' | 'type'>): Question => ({ title: over.id, required: false, ...over }) as Question;

describe('answers as typed (docs/product-rules.md#answers-as-typed)', () => {
  it('a free text and an other text keep their leading spaces and line breaks; any other value is trimmed', () => {
    expect(keptAnswer(q({ id: 'p', type: 'PARAGRAPH' }), '  one\n\n    two \t\n ')).toBe('  one\n\n    two');
    expect(keptAnswer(q({ id: 's', type: 'SHORT_TEXT' }), '   x  ')).toBe('   x');
    expect(keptAnswer(q({ id: 'd', type: 'DATE' }), ' 2026-01-05 ')).toBe('2026-01-05');
    expect(keptAnswer(q({ id: 't', type: 'TIME' }), ' 07:30\n')).toBe('07:30');
    expect(keptAnswer(q({ id: 'r', type: 'RADIO' }), { choice: ' __other__ ', otherText: '  my\n  own  ' })).toEqual({ choice: '__other__', otherText: '  my\n  own' });
    expect(keptAnswer(q({ id: 'c', type: 'CHECKBOX' }), { choices: [' a', 'b '], otherText: ' x ' })).toEqual({ choices: ['a', 'b'], otherText: ' x' });
    expect(keptAnswer(q({ id: 'g', type: 'GRID_CHECKBOX' }), { ' r1 ': [' c1 '] })).toEqual({ ' r1 ': ['c1'] });
    expect(keptAnswer(q({ id: 'l', type: 'LINEAR_SCALE' }), 3)).toBe(3);
  });

  it('a reply and a draft are kept so', () => {
    const definition: Definition = { version: 1, sections: [{ id: 's1', questions: [q({ id: 'p', type: 'PARAGRAPH' }), q({ id: 'd', type: 'DATE' })] }] };
    const answers = { p: '  a\n  b  ', d: ' 2026-01-05' };
    expect(answersOnPath(definition, answers)).toEqual({ p: '  a\n  b', d: '2026-01-05' });
    expect(draftAnswers(definition, { ...answers, p: ' \n ' })).toEqual({ d: '2026-01-05' });
  });

  it('a body is trimmed whole but for the answers its schema marks, trimmed at their end only', () => {
    const body = { submissionKey: ' k1234567 ', answers: { p: '  a\n  b \n', c: { choices: [' a '] } } };
    expect(trimBody(body, replyBody)).toEqual({ submissionKey: 'k1234567', answers: { p: '  a\n  b', c: { choices: [' a'] } } });
    expect(trimBody({ answers: { p: '  a ' } }, draftBody)).toEqual({ answers: { p: '  a' } });
    // without a schema, or for any other call, every string is trimmed
    expect(trimBody(body)).toEqual({ submissionKey: 'k1234567', answers: { p: 'a\n  b', c: { choices: ['a'] } } });
    expect(body.answers.p).toBe('  a\n  b \n');
  });
});
