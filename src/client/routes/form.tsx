import AssignmentIcon from '@mui/icons-material/Assignment';
import { LazyDesignerScreen } from '../questionnaires/designer/lazy';
import { QuestionnaireScreen } from '../questionnaires/form/QuestionnaireScreen';
import { QuestionnaireList } from '../questionnaires/list/QuestionnaireList';
import { TemplateIcon, TemplateList } from '../templates';
import type { QeRouteGroup } from './types';

/** Questionnaire design. view, add and edit share one screen; the templates are a list of their own (form-template.view). */
export const formRoutes: QeRouteGroup = {
  name: 'form',
  path: '/forms',
  redirect: '/forms/list',
  icon: AssignmentIcon,
  children: [
    { path: '/forms/list', name: 'formsList', permission: 'form.view', element: <QuestionnaireList /> },
    { path: '/forms/view', name: 'formsView', permission: 'form.view', hidden: true, activeMenu: '/forms/list', screen: 'view', element: <QuestionnaireScreen key="view" type="view" /> },
    { path: '/forms/add', name: 'formsAdd', permission: 'form.add', hidden: true, activeMenu: '/forms/list', screen: 'add', element: <QuestionnaireScreen key="add" type="add" /> },
    { path: '/forms/edit', name: 'formsEdit', permission: 'form.edit', hidden: true, activeMenu: '/forms/list', screen: 'edit', element: <QuestionnaireScreen key="edit" type="edit" /> },
    { path: '/forms/templates', name: 'formsTemplates', permission: 'form-template.view', icon: TemplateIcon, element: <TemplateList /> },
    { path: '/forms/doc', name: 'formsDoc', permission: 'form.edit', hidden: true, activeMenu: '/forms/list', ownHeading: true, element: <LazyDesignerScreen /> },
  ],
};
