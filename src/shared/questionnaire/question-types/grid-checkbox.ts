/** GRID_CHECKBOX: several columns per row of the grid, as many as its choice rule allows. */
import { grid } from './grid.js';
import type { QuestionTypeRules } from './rules.js';

export const GRID_CHECKBOX: QuestionTypeRules<'GRID_CHECKBOX'> = { type: 'GRID_CHECKBOX', ...grid('several') };
