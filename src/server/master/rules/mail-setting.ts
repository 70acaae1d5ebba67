import type { FastifyInstance } from 'fastify';
import { ok } from '../../plugins/envelope.js';
import { BusinessError, requestLang } from '../../plugins/errors.js';
import { fillTemplate, sendMail } from '../../mail/send.js';
import { EMAIL_PATTERN } from '../../../shared/validation.js';
import type { MasterDeps } from '../crud.js';
import type { EntityStore, MasterRules } from '../store.js';

const SAMPLE = {
  'zh-hk': { name: '陳大文', title: '問卷示例', deadline: '2026-12-31' },
  en: { name: 'Chan Tai Man', title: 'Sample questionnaire', deadline: '2026-12-31' },
};

/**
 * The mail setting: an empty password field keeps the stored one (the form never receives it),
 * and "send a test mail" sends the reminder template, filled with sample values, to a given address.
 */
const mailSettingRules: MasterRules & { routes(app: FastifyInstance, deps: MasterDeps, store: EntityStore): Promise<void> } = {
  async beforeSave(_trx, values, existing) {
    if (existing && (values.password === null || values.password === undefined || values.password === '')) delete values.password;
  },
  async routes(app, deps) {
    app.post<{ Body: { to: string } }>('/v1/mail-settings/test', {
      config: { permission: 'mail.edit' },
      schema: {
        tags: ['mail-settings'],
        summary: 'Sends the reminder template, filled with sample values, to the given address',
        body: { type: 'object', required: ['to'], additionalProperties: false, properties: { to: { type: 'string', maxLength: 100, pattern: EMAIL_PATTERN.source, 'x-qe-rule': 'email' } } },
      },
    }, async (request) => {
      const setting = await deps.db.selectFrom('mail_settings').selectAll().orderBy('id').executeTakeFirst();
      if (!setting) throw new BusinessError('RECORD_NOT_FOUND');
      const sample = SAMPLE[requestLang(request)];
      try {
        await sendMail(deps.db, { to: request.body.to, subject: fillTemplate(setting.reminder_subject, sample), text: fillTemplate(setting.reminder_content, sample) });
      } catch (error) {
        request.log.warn({ err: error }, 'test mail failed');
        throw new BusinessError('MAIL_FAILED', { reason: (error as Error).message });
      }
      return ok(null);
    });
  },
};
export default mailSettingRules;
