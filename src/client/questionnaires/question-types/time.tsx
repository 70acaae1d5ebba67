/** TIME on screen: a hint, no settings; answered with a time picker. */
import ScheduleIcon from '@mui/icons-material/Schedule';
import { typeHint } from './settings';
import type { QuestionTypeView } from './view';

export const TIME: QuestionTypeView = { icon: ScheduleIcon, settings: typeHint('TIME') };
