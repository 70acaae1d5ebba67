import type { ComponentType } from 'react';
import { QUESTION_TYPES, type QuestionType } from '../../../shared/questionnaire/definition';
import { QUESTION_TYPE_VIEWS } from '../question-types';

/** The designer's order of the types (as Google Forms lists them). */
export const TYPE_ORDER: QuestionType[] = ['SHORT_TEXT', 'PARAGRAPH', 'RADIO', 'CHECKBOX', 'DROPDOWN', 'LINEAR_SCALE', 'GRID_RADIO', 'GRID_CHECKBOX', 'DATE', 'TIME'];

/** Each type's icon (its view's, src/client/questionnaires/question-types/). */
export const TYPE_ICONS = Object.fromEntries(QUESTION_TYPES.map((t) => [t, QUESTION_TYPE_VIEWS[t].icon])) as Record<QuestionType, ComponentType<{ fontSize?: 'small' | 'inherit' | 'medium' }>>;
