/** GRID_CHECKBOX on screen: rows and columns, a choice count rule per row; answered with checkboxes per row. */
import AppsIcon from '@mui/icons-material/Apps';
import { ChoiceRuleSettings, GridSettings } from './settings';
import type { QuestionTypeView, SettingsEditorProps } from './view';

function GridCheckboxSettings(props: SettingsEditorProps) {
  return (
    <>
      <GridSettings {...props} />
      <ChoiceRuleSettings {...props} />
    </>
  );
}

export const GRID_CHECKBOX: QuestionTypeView = { icon: AppsIcon, settings: GridCheckboxSettings };
