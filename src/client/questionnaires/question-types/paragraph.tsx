/** PARAGRAPH on screen: a hint, no settings; answered with a longer text. */
import SubjectIcon from '@mui/icons-material/Subject';
import { typeHint } from './settings';
import type { QuestionTypeView } from './view';

export const PARAGRAPH: QuestionTypeView = { icon: SubjectIcon, settings: typeHint('PARAGRAPH') };
