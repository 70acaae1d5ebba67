import { useCanAccess, useGetIdentity } from 'react-admin';
import type { Questionnaire } from '../../../shared/questionnaire/types';

export type FormAction = 'view' | 'add' | 'edit' | 'delete' | 'management';

/** One action of the `form` page for the logged-in user; false while the answer is pending, so a button never flashes up. */
export function useMayForm(action: FormAction): boolean {
  const { canAccess, isPending } = useCanAccess({ resource: 'form', action });
  return !isPending && canAccess === true;
}

/** What the user may do with one questionnaire, from the permissions and the server's `mayEdit`. */
export interface QuestionnaireRights {
  /** form.edit and the server lets this user change it (in charge, assistant or admin) */
  edit: boolean;
  add: boolean;
  /** form.delete, and in charge of it or an admin (form.management) */
  delete: boolean;
}

export function useQuestionnaireRights(record: Pick<Questionnaire, 'mayEdit' | 'inChargeId'> | undefined): QuestionnaireRights {
  const mayEdit = useMayForm('edit');
  const mayAdd = useMayForm('add');
  const mayDelete = useMayForm('delete');
  const manages = useMayForm('management');
  const { identity } = useGetIdentity();
  const own = record !== undefined && identity !== undefined && String(identity.id) === String(record.inChargeId);
  return {
    edit: mayEdit && record?.mayEdit === true,
    add: mayAdd,
    delete: mayDelete && record?.mayEdit === true && (manages || own),
  };
}
