import type { FastifyInstance } from 'fastify';
import { ok } from '../../plugins/envelope.js';
import { BusinessError, requestLang } from '../../plugins/errors.js';
import { fillTemplate, sealPassword, sealReadablePassword, sendMail } from '../../mail/send.js';
import { readOutbox } from '../../mail/outbox.js';
import { EMAIL_PATTERN } from '../../../shared/validation.js';
import type { MasterDeps } from '../crud.js';
import type { EntityStore, MasterRules } from '../store.js';

const SAMPLE = {
  'zh-hk': { name: '陳大文', title: '問卷示例', deadline: '2026-12-31' },
  en: { name: 'Chan Tai Man', title: 'Sample questionnaire', deadline: '2026-12-31' },
};

/**
 * The mail setting: an empty password field keeps the stored one (the form never receives it);
 * the password is stored sealed with the server secret (src/server/mail/secret.ts), and one left
 * readable from before is sealed when QE starts; "send a test mail" sends the reminder template,
 * filled with sample values, to a given address. With the development outbox on (QE_MAIL_OUTBOX,
 * `npm run demo`) the mails sent are listed here too, the newest first.
 */
const mailSettingRules: MasterRules & { routes(app: FastifyInstance, deps: MasterDeps, store: EntityStore): Promise<void> } = {
  async beforeSave(_trx, values, existing) {
    if (existing && (values.password === null || values.password === undefined || values.password === '')) delete values.password;
  },
  forApp(config) {
    return { ...mailSettingRules, toColumn: (property, value) => (property === 'password' ? sealPassword(config, value) : value) };
  },
  async routes(app, deps) {
    // registered once per start, after the migrations: the moment to seal what earlier versions left readable
    await sealReadablePassword(deps.db, deps.config);

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
        await sendMail(deps.db, deps.config, { to: request.body.to, subject: fillTemplate(setting.reminder_subject, sample), text: fillTemplate(setting.reminder_content, sample) });
      } catch (error) {
        request.log.warn({ err: error }, 'test mail failed');
        throw error;
      }
      return ok(null);
    });

    app.get('/v1/mail-settings/outbox', {
      config: { permission: 'mail.view' },
      schema: {
        tags: ['mail-settings'],
        summary: 'The development outbox (QE_MAIL_OUTBOX): {enabled, total, list of the newest 50 mails {id, from, to, subject, text, sentAt}}; enabled false and nothing listed when mail goes to the SMTP server',
      },
    }, async () => {
      if (!deps.config.mailOutbox) return ok({ enabled: false, total: 0, list: [] });
      return ok({ enabled: true, ...(await readOutbox(deps.config, 50)) });
    });
  },
};
export default mailSettingRules;
