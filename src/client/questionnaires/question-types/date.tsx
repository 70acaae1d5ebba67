/** DATE on screen: a hint, no settings; answered with a date picker. */
import EventIcon from '@mui/icons-material/Event';
import { typeHint } from './settings';
import type { QuestionTypeView } from './view';

export const DATE: QuestionTypeView = { icon: EventIcon, settings: typeHint('DATE') };
