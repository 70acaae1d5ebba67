/** The fields of the menu and action dialogs: a code, the names in both languages, the sort and, for an action, its group. */
import type { Translate } from '../../i18n/messages';
import { ACTIONS } from '../../../shared/permissions';
import type { FieldDef } from '../FieldsDialog';

const CODE = /^[A-Za-z0-9_*.-]+$/;
const GROUPS = [201, 202, 203, 204, 205, 206];

/** The menu dialog's fields and the action dialog's, labelled in the current language (`en`: English). */
export function menuDialogFields(translate: Translate, en: boolean): { menuFields: FieldDef[]; actionFields: FieldDef[] } {
  const codeRule = { pattern: CODE, patternMessage: translate('qe.developer.form.codePattern'), maxLength: 50 };
  const commonFields: FieldDef[] = [
    { name: 'name', label: translate('qe.developer.form.nameHk'), required: true, maxLength: 100 },
    { name: 'nameEn', label: translate('qe.developer.form.nameEn'), required: true, maxLength: 100 },
    { name: 'sort', label: translate('qe.developer.form.sort'), kind: 'integer', min: 0, max: 100000 },
  ];
  const menuFields: FieldDef[] = [{ name: 'code', label: translate('qe.developer.form.menuCode'), required: true, ...codeRule }, ...commonFields];
  const groupLabel = (g: number) =>
    `${g} — ${ACTIONS.filter((a) => a.group === g)
      .map((a) => (en ? a.nameEn : a.nameHk))
      .join(en ? ', ' : '、')}`;
  const actionFields: FieldDef[] = [
    {
      name: 'code',
      label: translate('qe.developer.form.actionCode'),
      required: true,
      kind: 'suggest',
      suggestions: ACTIONS.map((a) => a.code),
      // a code of the catalogue brings its group and names
      onPick: (code, v) => {
        const def = ACTIONS.find((a) => a.code === code);
        return def ? { ...v, group: String(def.group), name: v.name || def.nameHk, nameEn: v.nameEn || def.nameEn } : v;
      },
      ...codeRule,
    },
    { name: 'group', label: translate('qe.developer.form.group'), kind: 'select', required: true, choices: GROUPS.map((g) => ({ value: g, label: groupLabel(g) })) },
    ...commonFields,
  ];
  return { menuFields, actionFields };
}
