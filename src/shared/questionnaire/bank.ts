/**
 * The question bank's questions as definitions (docs/product-rules.md#question-bank): a question
 * taken out of a questionnaire into a one-question definition with its texts in every language,
 * and put back into another questionnaire with a fresh id, its texts in that questionnaire's
 * languages and the bank question it came from (`bankId`). The server saves with the one, the
 * designer inserts with the other.
 */
import type { Lang } from '../i18n/text.js';
import type { Choice, Definition, Question, QuestionTexts } from './definition-types.js';
import { definitionIn, languagesOf, textsOf, translationAt, withLanguages, withoutOrphans } from './languages.js';

/** The one section of a bank question's definition. */
export const BANK_SECTION_ID = 'bank';

/** A question without the go-to targets of its options (sections of another questionnaire) or its own bank origin. */
function unbound(q: Question): { question: Question; dropped: boolean } {
  const { bankId: _bankId, ...rest } = q;
  const question: Question = structuredClone(rest);
  let dropped = false;
  if (question.options) {
    question.options = question.options.map((o): Choice => {
      if (o.goTo === undefined) return o;
      dropped = true;
      return { id: o.id, label: o.label };
    });
  }
  return { question, dropped };
}

/**
 * Question `questionId` of a definition as a bank question's definition: one section holding it,
 * the questionnaire's languages and the question's translations, its options without go-to
 * targets. Null when the definition has no such question.
 */
export function bankDefinitionOf(definition: Definition, questionId: string): Definition | null {
  const question = definition.sections.flatMap((s) => s.questions).find((q) => q.id === questionId);
  if (!question) return null;
  const langs = languagesOf(definition);
  const translations: Definition['translations'] = {};
  for (const lang of langs.slice(1)) {
    const texts = definition.translations?.[lang]?.questions?.[questionId];
    if (texts) translations[lang] = { questions: { [questionId]: structuredClone(texts) } };
  }
  const one: Definition = { version: 1, languages: [...langs], sections: [{ id: BANK_SECTION_ID, questions: [unbound(question).question] }], translations };
  return withoutOrphans(one);
}

/** The one question of a bank question's definition. */
export const bankQuestionIn = (d: Definition): Question => d.sections[0].questions[0];

/** The question's title in a language it has; null when it lacks that language. */
export function bankTitleIn(d: Definition, lang: Lang): string | null {
  if (!languagesOf(d).includes(lang)) return null;
  return bankQuestionIn(definitionIn(d, lang)).title;
}

/** Every text of a bank question in each of its languages, for the search. */
export function bankTexts(d: Definition): string[] {
  const texts = textsOf(d);
  const out = texts.map((t) => t.text);
  for (const lang of languagesOf(d).slice(1)) for (const t of texts) {
    const v = translationAt(d, lang, t.key);
    if (v) out.push(v);
  }
  return out;
}

/** What inserting a bank question gives: the question and its texts in the questionnaire's second language. */
export interface Insertion {
  question: Question;
  /** its texts in each language of the questionnaire but the main one */
  translations: Partial<Record<Lang, QuestionTexts>>;
  /** go-to targets the banked question still held, dropped (a bank question saved before they were) */
  droppedGoTo: boolean;
}

/**
 * A bank question as a new question of a questionnaire written in `languages` (main first): its
 * id `id` — its options, rows and columns keep theirs, so its answers line up with other years' —
 * its texts in those languages where the bank has them (the main language's text stands where it
 * has not), no go-to targets, and `bankId`, the bank question it came from.
 */
export function insertionOf(bank: Definition, bankId: number, languages: Lang[], id: string): Insertion {
  const fitted = withLanguages(structuredClone(bank), languages);
  const { question, dropped } = unbound(bankQuestionIn(fitted));
  const translations: Insertion['translations'] = {};
  for (const lang of languages.slice(1)) {
    const texts = fitted.translations?.[lang]?.questions?.[question.id];
    if (texts) translations[lang] = texts;
  }
  return { question: { ...question, id, bankId }, translations, droppedGoTo: dropped };
}
