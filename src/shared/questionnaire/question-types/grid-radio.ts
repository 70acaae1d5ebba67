/** GRID_RADIO: one column per row of the grid. */
import { grid } from './grid.js';
import type { QuestionTypeRules } from './rules.js';

export const GRID_RADIO: QuestionTypeRules<'GRID_RADIO'> = { type: 'GRID_RADIO', ...grid('one') };
