import type { ComponentType } from 'react';
import RadioButtonCheckedIcon from '@mui/icons-material/RadioButtonChecked';
import CheckBoxIcon from '@mui/icons-material/CheckBox';
import ArrowDropDownCircleIcon from '@mui/icons-material/ArrowDropDownCircle';
import ShortTextIcon from '@mui/icons-material/ShortText';
import SubjectIcon from '@mui/icons-material/Subject';
import LinearScaleIcon from '@mui/icons-material/LinearScale';
import GridOnIcon from '@mui/icons-material/GridOn';
import AppsIcon from '@mui/icons-material/Apps';
import EventIcon from '@mui/icons-material/Event';
import ScheduleIcon from '@mui/icons-material/Schedule';
import type { QuestionType } from '../../../shared/questionnaire/definition';

/** The designer's order of the types (as Google Forms lists them) and their icons. */
export const TYPE_ORDER: QuestionType[] = ['SHORT_TEXT', 'PARAGRAPH', 'RADIO', 'CHECKBOX', 'DROPDOWN', 'LINEAR_SCALE', 'GRID_RADIO', 'GRID_CHECKBOX', 'DATE', 'TIME'];

export const TYPE_ICONS: Record<QuestionType, ComponentType<{ fontSize?: 'small' | 'inherit' | 'medium' }>> = {
  SHORT_TEXT: ShortTextIcon,
  PARAGRAPH: SubjectIcon,
  RADIO: RadioButtonCheckedIcon,
  CHECKBOX: CheckBoxIcon,
  DROPDOWN: ArrowDropDownCircleIcon,
  LINEAR_SCALE: LinearScaleIcon,
  GRID_RADIO: GridOnIcon,
  GRID_CHECKBOX: AppsIcon,
  DATE: EventIcon,
  TIME: ScheduleIcon,
};
