import { BusinessError } from '../../plugins/errors.js';
import type { MasterRules } from '../store.js';
import type { Row } from '../entity-shape.js';

/**
 * Exactly one school year is the current one (year_status '1'), the default everywhere:
 * marking a year current unmarks the others; the current year cannot be unmarked or deleted
 * (mark another one instead). Each term lies within its year, start not after end.
 */
const schoolYearRules: MasterRules = {
  validate(values, existing) {
    const errors: ReturnType<NonNullable<MasterRules['validate']>> = {};
    const terms = (values.terms as Row[] | undefined) ?? [];
    const begin = values.beginDate ?? existing?.beginDate;
    const end = values.endDate ?? existing?.endDate;
    terms.forEach((t, i) => {
      if (t.beginDate > t.endDate) errors[`terms.${i}.endDate`] = { rule: 'dateRange' };
      else if ((begin && t.beginDate < begin) || (end && t.endDate > end)) errors[`terms.${i}.beginDate`] = { rule: 'termInYear' };
    });
    if (existing?.yearStatus === '1' && values.yearStatus === '0') errors.yearStatus = { rule: 'currentYear' };
    return errors;
  },
  async beforeSave(trx, values, existing) {
    const others = await trx.selectFrom('school_years').select('id').where('year_status', '=', '1').execute();
    if (!existing && !others.length) values.yearStatus = '1'; // the first year is the current one
  },
  async afterSave(trx, id, values) {
    if (values.yearStatus === '1') await trx.updateTable('school_years').set({ year_status: '0' }).where('id', '!=', id).execute();
  },
  async beforeDelete(_trx, record) {
    if (record.yearStatus === '1') throw new BusinessError('IN_USE', {}, { cascade: false, dependents: [{ label: 'qe.master.dependents.currentYear', count: 1 }] });
  },
};
export default schoolYearRules;
