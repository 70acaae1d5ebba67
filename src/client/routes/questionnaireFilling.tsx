import EditNoteIcon from '@mui/icons-material/EditNote';
import { QuestionnaireFillingList } from '../filling/QuestionnaireFillingList';
import { QuestionnaireFillingScreen } from '../filling/QuestionnaireFillingScreen';
import { ResultSummaryScreen } from '../statistics/release/ResultSummaryScreen';
import type { QeRouteGroup } from './types';

/** Filling in questionnaires. detail (fill in) and view (read only) share one screen; results shows a summary released to me. */
export const questionnaireFillingRoutes: QeRouteGroup = {
  name: 'questionnaireFilling',
  path: '/questionnaire-filling',
  redirect: '/questionnaire-filling/list',
  icon: EditNoteIcon,
  children: [
    { path: '/questionnaire-filling/list', name: 'QuestionnaireFillingList', permission: 'form-input.view', cached: true, element: <QuestionnaireFillingList /> },
    {
      path: '/questionnaire-filling/detail',
      name: 'QuestionnaireFillingDetail',
      permission: 'form-input.view',
      hidden: true,
      activeMenu: '/questionnaire-filling/list',
      element: <QuestionnaireFillingScreen key="detail" type="detail" />,
    },
    {
      path: '/questionnaire-filling/view',
      name: 'QuestionnaireFillingView',
      permission: 'form-input.view',
      hidden: true,
      activeMenu: '/questionnaire-filling/list',
      element: <QuestionnaireFillingScreen key="view" type="view" />,
    },
    {
      // a summary released to me (docs/product-rules.md#results-released), opened from the list's "Results released to me"
      path: '/questionnaire-filling/results',
      name: 'QuestionnaireFillingResults',
      permission: 'form-input.view',
      hidden: true,
      activeMenu: '/questionnaire-filling/list',
      element: <ResultSummaryScreen />,
    },
  ],
};
