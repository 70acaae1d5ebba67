/** GRID_RADIO on screen: rows and columns; answered with a radio button per row. */
import GridOnIcon from '@mui/icons-material/GridOn';
import { GridSettings } from './settings';
import type { QuestionTypeView } from './view';

export const GRID_RADIO: QuestionTypeView = { icon: GridOnIcon, settings: GridSettings };
