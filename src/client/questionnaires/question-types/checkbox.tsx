/** CHECKBOX on screen: options with a checkbox mark, an "other", a choice count rule; answered with checkboxes. */
import CheckBoxIcon from '@mui/icons-material/CheckBox';
import CheckBoxOutlineBlankIcon from '@mui/icons-material/CheckBoxOutlineBlank';
import { ChoiceRuleSettings, optionSettings } from './settings';
import type { QuestionTypeView, SettingsEditorProps } from './view';

const Options = optionSettings({ marker: CheckBoxOutlineBlankIcon, other: true, branching: false });

function CheckboxSettings(props: SettingsEditorProps) {
  return (
    <>
      <Options {...props} />
      <ChoiceRuleSettings {...props} />
    </>
  );
}

export const CHECKBOX: QuestionTypeView = { icon: CheckBoxIcon, settings: CheckboxSettings };
