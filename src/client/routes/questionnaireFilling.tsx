import EditNoteIcon from '@mui/icons-material/EditNote';
import { PlaceholderPage } from '../common/PlaceholderPage';
import type { QeRouteGroup } from './types';

const area = 'qe.placeholder.areaFilling';
const page = (name: string) => <PlaceholderPage titleKey={`qe.menu.${name}`} area={area} />;

/** Filling in questionnaires. detail (fill in) and view (read only) share one screen. */
export const questionnaireFillingRoutes: QeRouteGroup = {
  name: 'questionnaireFilling',
  path: '/questionnaire-filling',
  redirect: '/questionnaire-filling/list',
  icon: EditNoteIcon,
  children: [
    { path: '/questionnaire-filling/list', name: 'QuestionnaireFillingList', permission: 'form-input.view', cached: true, element: page('QuestionnaireFillingList') },
    { path: '/questionnaire-filling/detail', name: 'QuestionnaireFillingDetail', permission: 'form-input.view', hidden: true, activeMenu: '/questionnaire-filling/list', element: page('QuestionnaireFillingDetail') },
    { path: '/questionnaire-filling/view', name: 'QuestionnaireFillingView', permission: 'form-input.view', hidden: true, activeMenu: '/questionnaire-filling/list', element: page('QuestionnaireFillingView') },
  ],
};
