/** DROPDOWN on screen: numbered options, branching; answered from a list. */
import ArrowDropDownCircleIcon from '@mui/icons-material/ArrowDropDownCircle';
import { optionSettings } from './settings';
import type { QuestionTypeView } from './view';

export const DROPDOWN: QuestionTypeView = {
  icon: ArrowDropDownCircleIcon,
  settings: optionSettings({ other: false, branching: true }),
};
