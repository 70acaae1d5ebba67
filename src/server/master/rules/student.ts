import type { FieldErrors, MasterRules } from '../store.js';

/** A student who has left (status 2) or graduated (3) has a leave date; one in school has none. */
const studentRules: MasterRules = {
  validate(values, existing): FieldErrors {
    const status = values.status ?? existing?.status ?? '1';
    const leaveDate = 'leaveDate' in values ? values.leaveDate : existing?.leaveDate;
    if (status !== '1' && !leaveDate) return { leaveDate: { rule: 'leaveDate' } };
    return {};
  },
  // a leave date on a row of a student still in school contradicts the status: refused, not dropped
  importErrors(values): FieldErrors {
    if (values.status === '1' && values.leaveDate) return { leaveDate: { rule: 'leaveDateInSchool' } };
    return {};
  },
  async beforeSave(_trx, values) {
    if (values.status === '1') values.leaveDate = null;
  },
};
export default studentRules;
