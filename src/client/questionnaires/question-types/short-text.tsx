/** SHORT_TEXT on screen: its text rule; answered with a line of text. */
import ShortTextIcon from '@mui/icons-material/ShortText';
import { TextRuleEditor } from '../designer/RuleEditor';
import type { QuestionTypeView, SettingsEditorProps } from './view';

function ShortTextSettings({ question, path, patch }: SettingsEditorProps) {
  return <TextRuleEditor question={question} onChange={(textRule) => patch({ textRule })} path={`${path}.textRule`} />;
}

export const SHORT_TEXT: QuestionTypeView = { icon: ShortTextIcon, settings: ShortTextSettings };
