import { FieldError } from '../../plugins/errors.js';
import type { MasterRules } from '../store.js';
import type { Row } from '../entity-shape.js';

/** Class codes are unique across the school, not only within their grade. */
const gradeClassRules: MasterRules = {
  validate(values) {
    const errors: ReturnType<NonNullable<MasterRules['validate']>> = {};
    const seen = new Set<string>();
    ((values.classes as Row[] | undefined) ?? []).forEach((c, i) => {
      const code = String(c.code).toLowerCase();
      if (seen.has(code)) errors[`classes.${i}.code`] = { rule: 'duplicate', params: { value: c.code } };
      seen.add(code);
    });
    return errors;
  },
  async beforeSave(trx, values, existing) {
    const classes = (values.classes as Row[] | undefined) ?? [];
    if (!classes.length) return;
    let q = trx.selectFrom('classes').select(['id', 'code']).where('code', 'in', classes.map((c) => c.code));
    if (existing) q = q.where('grade_id', '!=', existing.id);
    const taken = await q.execute();
    const errors: Record<string, { rule: string; params: Record<string, string> }> = {};
    classes.forEach((c, i) => {
      if (taken.some((t: Row) => t.code === c.code)) errors[`classes.${i}.code`] = { rule: 'duplicate', params: { value: c.code } };
    });
    if (Object.keys(errors).length) throw new FieldError(errors);
  },
};
export default gradeClassRules;
