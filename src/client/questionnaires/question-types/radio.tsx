/** RADIO on screen: options with a radio mark, an "other", branching; answered with radio buttons. */
import RadioButtonCheckedIcon from '@mui/icons-material/RadioButtonChecked';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import { optionSettings } from './settings';
import type { QuestionTypeView } from './view';

export const RADIO: QuestionTypeView = {
  icon: RadioButtonCheckedIcon,
  settings: optionSettings({ marker: RadioButtonUncheckedIcon, other: true, branching: true }),
};
