import { useCanAccess } from 'react-admin';

export type TemplateAction = 'view' | 'add' | 'edit' | 'delete';

/** One action of the `form-template` page for the logged-in user; false while the answer is pending, so a button never flashes up. */
export function useMayTemplate(action: TemplateAction): boolean {
  const { canAccess, isPending } = useCanAccess({ resource: 'form-template', action });
  return !isPending && canAccess === true;
}
