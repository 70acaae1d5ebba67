/** LINEAR_SCALE on screen: its range and end labels; answered by a point of the scale. */
import LinearScaleIcon from '@mui/icons-material/LinearScale';
import { ScaleEditor } from '../designer/ScaleEditor';
import type { QuestionTypeView, SettingsEditorProps } from './view';

function ScaleSettings({ question, path, patch }: SettingsEditorProps) {
  return <ScaleEditor scale={question.scale} onChange={(scale) => patch({ scale })} path={`${path}.scale`} />;
}

export const LINEAR_SCALE: QuestionTypeView = { icon: LinearScaleIcon, settings: ScaleSettings };
