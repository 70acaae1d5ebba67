/**
 * What a question type is in the designer: one `QuestionTypeView` per type, in a module of its own
 * beside this file, registered in `index.ts` (docs/recipes/add-question-type.md). Its rules are
 * in src/shared/questionnaire/question-types/; the input a respondent answers it with is in
 * `ANSWER_INPUTS` (src/client/questionnaires/respondent/inputs.ts), apart, so that the answer
 * screen, which every pupil loads, does not carry the designer's editors.
 */
import type { ComponentType } from 'react';
import type { Question } from '../../../shared/questionnaire/definition';
import type { SectionRef } from '../designer/GoToSelect';

/** What a type's settings editor gets from the designer's question editor. */
export interface SettingsEditorProps {
  question: Question;
  /** the question's path among a definition's problems (sections.0.questions.2) */
  path: string;
  /** its section's index */
  si: number;
  /** the sections it may branch to (RADIO and DROPDOWN) */
  sections?: SectionRef[];
  /** changes some of its settings */
  patch: (p: Partial<Question>) => void;
  /** whether its options show where they lead (kept by the question editor across a change of type) */
  branching: boolean;
  setBranching: (on: boolean) => void;
}

export interface QuestionTypeView {
  /** its icon in the designer */
  icon: ComponentType<{ fontSize?: 'small' | 'inherit' | 'medium' }>;
  /** the designer's editor of its own settings (below title, description and image), or null for none */
  settings: ComponentType<SettingsEditorProps> | null;
}
