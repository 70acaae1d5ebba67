import { describe, expect, it } from 'vitest';
import { answerProblem, loadAnswerChecks, matchesPattern, replyProblems } from '../../src/shared/questionnaire/answers.js';
import { definitionErrors, type Definition, type Question } from '../../src/shared/questionnaire/definition.js';
import { compilePattern, DEFINITION_MAX_PROGRAM, PATTERN_MAX_LENGTH, PATTERN_MAX_PROGRAM } from '../../src/shared/questionnaire/pattern.js';
import { everyType, goodAnswers } from '../server/filling/helpers.js';

const shortText = (pattern: string, message?: string): Question => ({ id: 'q', type: 'SHORT_TEXT', title: 'Code', required: false, textRule: { kind: 'pattern', pattern, ...(message ? { message } : {}) } });
const withPatterns = (...patterns: string[]): Definition => ({
  version: 1,
  sections: [{ id: 's1', questions: patterns.map((pattern, i) => ({ ...shortText(pattern), id: `q${i}` })) }],
});

// Answer patterns run on RE2 (src/shared/questionnaire/pattern.ts), on both halves.
describe('answer patterns', () => {
  it('answer (a+)+b at once: 32 characters, the longest short answer and beyond (a backtracking engine never finishes these)', () => {
    // JavaScript's RegExp took 24.5 s for 32 characters, ×2.3 for each one more: these would run past the test's timeout
    expect(matchesPattern('(a+)+b', 'a'.repeat(32))).toBe(false);
    expect(matchesPattern('(a+)+b', 'a'.repeat(5000))).toBe(false);
    expect(matchesPattern('(a+)+b', `${'a'.repeat(5000)}b`)).toBe(true);
    expect(matchesPattern('(.*a){20}', `${'a'.repeat(1000)}!`)).toBe(false);
    expect(matchesPattern('(\\w+\\s?)*', `${'word '.repeat(200)}!`)).toBe(false);
    expect(matchesPattern('(x+x+)+y', 'x'.repeat(5000))).toBe(false);
    // through the answer check: the longest answer a short text takes, and what is longer is refused before any pattern runs
    const q = shortText('(a+)+b', 'Not like that');
    expect(answerProblem(q, 'a'.repeat(32))).toEqual({ problem: 'pattern', message: 'Not like that' });
    expect(answerProblem(q, 'a'.repeat(1000))).toEqual({ problem: 'pattern', message: 'Not like that' });
    expect(answerProblem(q, `${'a'.repeat(999)}b`)).toBeNull();
    expect(answerProblem(q, 'a'.repeat(1001))).toEqual({ problem: 'tooLong', max: 1000 });
  });

  it('judges the patterns people write as the former engine did (the whole answer must match)', () => {
    const cases: [string, string[]][] = [
      ['[1-6][AB]', ['3A', '6B', '3a', '7A', '3AB', ' 3A', '']],
      ['[0-9]{8}', ['12345678', '1234567', '123456789', '1234567a']],
      ['\\d{8}', ['23456789', '2345678９', '２３４５６７８９']],
      ['[2-9]\\d{7}', ['91234567', '01234567']],
      ['[A-Z]{1,2}[0-9]{6}\\([0-9A]\\)', ['A123456(7)', 'AB987654(A)', 'A123456(B)', 'a123456(7)']],
      ['[\\w.+-]+@[\\w-]+(\\.[\\w-]+)+', ['kit.chan@school.edu.hk', 'kit@school', '@school.hk']],
      ['S\\d+', ['S1234', 's1234', 'S']],
      ['yes|no|maybe', ['yes', 'no', 'maybe', 'yesno', 'Yes']],
      ['(red|blue) house', ['red house', 'blue house', 'green house']],
      ['[^0-9]+', ['abc', 'ab1']],
      ['[\\u4e00-\\u9fff]{2,4}', ['陳大文', '陳', '陳大文小明', 'Chan']],
      ['[一-龥]+', ['陳大文', '陳大文1']],
      ['陳.+', ['陳大文', '陳', '李大文']],
      ['(?<year>\\d{4})-(?<month>\\d{2})', ['2025-02', '25-02']],
      ['\\d+(\\.\\d{1,2})?', ['12', '12.5', '12.345', '.5']],
      ['^\\d+$', ['42', '4 2']],
      ['\\/\\-\\.', ['/-.', 'a-.']],
      ['a{2,}', ['aa', 'aaaa', 'a']],
      ['\\bcat\\b', ['cat', 'cats']],
      ['', ['', 'x']],
      ['a\\\\k', ['a\\k', 'ak']],
    ];
    for (const [pattern, answers] of cases) {
      const former = new RegExp(`^(?:${pattern})$`);
      for (const answer of answers) expect([pattern, answer, matchesPattern(pattern, answer)]).toEqual([pattern, answer, former.test(answer)]);
    }
  });

  it('takes a character as a person counts it (an emoji is one), where the former engine took UTF-16 halves', () => {
    expect(matchesPattern('.', '😀')).toBe(true);
    expect(matchesPattern('.{3}', '陳😀文')).toBe(true);
    expect(matchesPattern('[😀😃]+', '😀😃')).toBe(true);
  });

  it('refuses on save, naming the rule, what RE2 cannot run: lookaround, back-references, bad syntax; and what costs too much', () => {
    const path = 'sections.0.questions.0.textRule';
    for (const pattern of ['(?=x)x', '(?!x).', 'x(?<=x)', '(?<!a)b', '(a)\\1', '(?<n>a)\\k<n>', '(', '[a-', 'a**', 'a{1001}', '\\']) {
      expect([pattern, definitionErrors(withPatterns(pattern))]).toEqual([pattern, [{ path, problem: 'badPattern' }]]);
    }
    // linear, but 8,000 instructions for every character of the answer: refused as too complex
    expect(definitionErrors(withPatterns('(?:(?:a|aa|aaa){1,1000})+b'))).toEqual([{ path, problem: 'complexPattern' }]);
    expect(definitionErrors(withPatterns('\\pL{1000}'.repeat(22)))).toEqual([{ path, problem: 'complexPattern' }]);
    expect(definitionErrors(withPatterns('x'.repeat(PATTERN_MAX_LENGTH + 1)))).toEqual([{ path, problem: 'tooLong' }]);
    expect(definitionErrors(withPatterns('x'.repeat(PATTERN_MAX_LENGTH)))).toEqual([]);
    // a rule of kind pattern without one
    expect(definitionErrors({ version: 1, sections: [{ id: 's1', questions: [{ ...shortText('x'), textRule: { kind: 'pattern' } }] }] })).toEqual([{ path, problem: 'badRule' }]);
    // patterns people write pass; so does every pattern of the test questionnaire
    expect(definitionErrors(withPatterns('[1-6][AB]', '[\\u4e00-\\u9fff]{2,4}', '(?<y>\\d{4})', '(?i)s\\d+', '[A-Za-z ]{1,100}'))).toEqual([]);
    expect(definitionErrors(everyType())).toEqual([]);
  });

  it('bounds what one pattern and all the patterns of a questionnaire may cost', () => {
    const near = '.{0,480}'; // a little under PATTERN_MAX_PROGRAM
    const one = compilePattern(near);
    expect(one).toMatchObject({ ok: true });
    const size = one?.ok ? one.size : 0;
    expect(size).toBeGreaterThan(PATTERN_MAX_PROGRAM * 0.9);
    expect(size).toBeLessThanOrEqual(PATTERN_MAX_PROGRAM);
    const fit = Math.floor(DEFINITION_MAX_PROGRAM / size);
    expect(definitionErrors(withPatterns(...Array(fit).fill(near)))).toEqual([]);
    // one more, and every one after it, is refused where it stands
    expect(definitionErrors(withPatterns(...Array(fit + 2).fill(near)))).toEqual([
      { path: `sections.0.questions.${fit}.textRule`, problem: 'complexPattern' },
      { path: `sections.0.questions.${fit + 1}.textRule`, problem: 'complexPattern' },
    ]);
    // simple patterns cost little: three hundred of them fit
    expect(definitionErrors(withPatterns(...Array(300).fill('[0-9]{8}')))).toEqual([]);
  });

  it('does not apply a stored pattern RE2 refuses: never on the backtracking engine, and nobody is locked out of the question', () => {
    // stored before patterns ran on RE2 (definitionErrors refuses these now)
    for (const pattern of ['(a)\\1', '(?<n>a)\\k<n>', '(?=x)x', '(?:(?:a|aa|aaa){1,1000})+b']) {
      expect(matchesPattern(pattern, 'anything')).toBeUndefined();
      expect(answerProblem(shortText(pattern), 'a'.repeat(1000))).toBeNull();
    }
    expect(matchesPattern('x'.repeat(PATTERN_MAX_LENGTH + 1), 'x'.repeat(PATTERN_MAX_LENGTH + 1))).toBeUndefined();
    // the other rules of the question still hold
    expect(answerProblem({ ...shortText('(a)\\1'), required: true }, '  ')).toEqual({ problem: 'required' });
    expect(answerProblem(shortText('(a)\\1'), 'a'.repeat(1001))).toEqual({ problem: 'tooLong', max: 1000 });
  });

  it('checks a whole reply with the designer pattern of the test questionnaire, and has its engine at once on Node', async () => {
    await expect(loadAnswerChecks(everyType())).resolves.toBeUndefined();
    expect(replyProblems(everyType(), goodAnswers())).toEqual({});
    expect(replyProblems(everyType(), { ...goodAnswers(), code: '3C' })).toEqual({ code: { problem: 'pattern', message: 'Like 3A' } });
  });
});
