import { createContext, useContext } from 'react';
import type { Translate } from '../../i18n/messages';
import { composedKey, type MessageKey } from '../../../shared/i18n/keys';

/** Every problem name `definitionErrors` gives (qe.designer.problems.{name}: a test checks both files have each). */
export const DEFINITION_PROBLEMS = [
  'notADefinition',
  'noSection',
  'tooMany',
  'notASection',
  'duplicateId',
  'tooLong',
  'unknownSection',
  'backwardJump',
  'tooFewChoices',
  'notAChoice',
  'required',
  'notAQuestion',
  'unknownType',
  'badImage',
  'badBankId',
  'badScale',
  'badRule',
  'badPattern',
  'complexPattern',
  'badLanguages',
  'badTranslation',
  'missingEnglish',
  'missingChinese',
] as const;


/** The text of a definition problem (an unknown name — a newer server — reads as "invalid"). */
export function problemText(translate: Translate, problem: string): string {
  const known = (p: string): p is (typeof DEFINITION_PROBLEMS)[number] => (DEFINITION_PROBLEMS as readonly string[]).includes(p);
  return known(problem) ? translate(`qe.designer.problems.${problem}`) : translate('qe.designer.problems.invalid');
}

const PART_KEYS: Record<string, MessageKey> = {
  sections: 'qe.designer.where.section',
  questions: 'qe.designer.where.question',
  options: 'qe.designer.where.option',
  rows: 'qe.designer.where.row',
  columns: 'qe.designer.where.column',
};
const FIELD_KEYS: Record<string, MessageKey> = {
  title: 'qe.designer.where.title',
  description: 'qe.designer.where.description',
  next: 'qe.designer.where.next',
  goTo: 'qe.designer.where.goTo',
  label: 'qe.designer.where.label',
  image: 'qe.designer.where.image',
  scale: 'qe.designer.where.scale',
  choiceRule: 'qe.designer.where.rule',
  textRule: 'qe.designer.where.rule',
  id: 'qe.designer.where.id',
  type: 'qe.designer.where.type',
  required: 'qe.designer.where.required',
  otherLabel: 'qe.designer.where.otherLabel',
  minLabel: 'qe.designer.where.minLabel',
  maxLabel: 'qe.designer.where.maxLabel',
  message: 'qe.designer.where.message',
  closingMessage: 'qe.designer.where.closingMessage',
  // the record's title in the second language (translationGaps, and the server's 422 for ready)
  titleTranslation: 'qe.designer.where.questionnaireTitle',
  languages: 'qe.designer.where.languages',
  translations: 'qe.designer.where.translations',
};

/**
 * Where a problem is, for people: `sections.1.questions.2.options.0.label` reads "Section 2 ›
 * Question 3 › Option 1 › Text". Question numbers count through the whole questionnaire when the
 * definition is given (as the designer numbers them).
 */
export function describePath(translate: Translate, path: string, sectionSizes?: number[]): string {
  if (!path) return translate('qe.designer.where.file');
  const parts = path.split('.');
  const out: string[] = [];
  let section = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const next = parts[i + 1];
    if (PART_KEYS[part] && next !== undefined && /^\d+$/.test(next)) {
      let n = Number(next) + 1;
      if (part === 'sections') section = Number(next);
      if (part === 'questions' && sectionSizes) n += sectionSizes.slice(0, section).reduce((a, b) => a + b, 0);
      out.push(translate(PART_KEYS[part], { n }));
      i++;
    } else if (PART_KEYS[part]) out.push(translate(composedKey(`${PART_KEYS[part]}s`)));
    else if (FIELD_KEYS[part]) out.push(translate(FIELD_KEYS[part]));
  }
  return out.join(' › ');
}

/**
 * The problem messages by path that the designer's inputs show: `at(path)` for one input,
 * `near(prefix)` for what no input of a question or section claims (ids, types…).
 */
export interface ProblemLookup {
  at: (path: string) => string | undefined;
  rest: (prefix: string, claimed: string[]) => string[];
}
export const noProblems: ProblemLookup = { at: () => undefined, rest: () => [] };

export function problemLookup(messages: Record<string, string>): ProblemLookup {
  return {
    at: (path) => messages[path],
    rest: (prefix, claimed) =>
      Object.entries(messages)
        .filter(([path]) => {
          if (path !== prefix && !path.startsWith(`${prefix}.`)) return false;
          const own = path.slice(prefix.length + 1);
          return !claimed.some((c) => own === c || (c.endsWith('*') && own.startsWith(c.slice(0, -1))));
        })
        .map(([, text]) => text),
  };
}

export const ProblemsContext = createContext<ProblemLookup>(noProblems);
export const useProblems = () => useContext(ProblemsContext);
