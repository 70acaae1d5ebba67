import { FieldError } from '../../plugins/errors.js';
import { sealCard } from '../../personal/identity-card.js';
import type { MasterRules } from '../store.js';
import type { Row } from '../entity-shape.js';
import { normaliseDocumentNumber, validDocumentNumber } from '../../../shared/personal.js';

/**
 * Administrators and teachers: an administrator with the Edit action sets a staff member's personal
 * data directly (no approval, unlike the staff member's own request: src/server/personal/). The
 * identity card number is write-only: sealed on its way to the column, answered and exported only
 * as `identityCardMasked`; an empty number keeps the stored one.
 */
function staffRules(secret: string): MasterRules {
  const given = (values: Row) => values.identityCardNo !== null && values.identityCardNo !== undefined && values.identityCardNo !== '';
  const prepare = (values: Row, existing: Row | null) => {
    if (!given(values)) {
      delete values.identityCardNo;
      return;
    }
    const card = sealCard({ secret }, values.identityCardType ?? existing?.identityCardType, String(values.identityCardNo));
    if (!card) throw new FieldError({ identityCardNo: { rule: 'identityCard' } });
    values.identityCardNo = card.sealed;
    values.identityCardMasked = card.masked;
  };
  return {
    // no database reads here: an import names the row of each problem from these
    validate(values, _existing, today) {
      const errors: Record<string, { rule: string }> = {};
      if (values.birthday && String(values.birthday) > today) errors.birthday = { rule: 'birthdayFuture' };
      if (given(values)) {
        if (!values.identityCardType) errors.identityCardType = { rule: 'required' };
        else if (!validDocumentNumber(values.identityCardType, normaliseDocumentNumber(String(values.identityCardNo)))) errors.identityCardNo = { rule: 'identityCard' };
      }
      return errors;
    },
    async beforeSave(_trx, values, existing) {
      // no document type and no number: the document is removed altogether
      if ('identityCardType' in values && !values.identityCardType && !given(values)) {
        Object.assign(values, { identityCardType: null, identityCardNo: null, identityCardMasked: null });
        return;
      }
      prepare(values, existing);
      // a new type without a new number would leave the mask describing another document
      if (existing && 'identityCardType' in values && !('identityCardNo' in values) && values.identityCardType !== existing.identityCardType && existing.identityCardMasked) {
        throw new FieldError({ identityCardNo: { rule: 'required' } });
      }
    },
  };
}

const rules: MasterRules = {
  forApp: (config) => staffRules(config.secret),
};
export default rules;
