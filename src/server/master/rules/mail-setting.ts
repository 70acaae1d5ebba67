import type { FastifyInstance } from 'fastify';
import { ok } from '../../plugins/envelope.js';
import { BusinessError, requestLang } from '../../plugins/errors.js';
import { fillTemplate, sealPassword, sealReadablePassword, sendMail } from '../../mail/send.js';
import { reminderTemplate } from '../../questionnaires/notice.js';
import { readOutbox } from '../../mail/outbox.js';
import { EMAIL_PATTERN } from '../../../shared/validation.js';
import type { MasterDeps } from '../crud.js';
import type { EntityStore, FieldErrors, MasterRules } from '../store.js';

const SAMPLE = {
  'zh-hk': { name: '陳大文', title: '問卷示例', deadline: '2026-12-31' },
  en: { name: 'Chan Tai Man', title: 'Sample questionnaire', deadline: '2026-12-31' },
};

/**
 * The mail setting: an empty password field keeps the stored one (the form never receives it);
 * the password is stored sealed with the server secret (src/server/mail/secret.ts), and one left
 * readable from before is sealed when QE starts; the English reminder template is written whole
 * (subject and content) or not at all, as a reader in English gets either it or the Chinese one
 * (src/server/questionnaires/notice.ts); "send a test mail" sends the reminder template of the
 * caller's language, filled with sample values in it, to a given address. With the development
 * outbox on (QE_MAIL_OUTBOX, `npm run demo`) the mails sent are listed here too, the newest first.
 */
const mailSettingRules: MasterRules & { routes(app: FastifyInstance, deps: MasterDeps, store: EntityStore): Promise<void> } = {
  validate(values, existing): FieldErrors {
    const written = (name: string) => {
      const v = name in values ? values[name] : existing?.[name];
      return typeof v === 'string' && v.trim() !== '';
    };
    const subject = written('reminderSubjectEn');
    const content = written('reminderContentEn');
    if (subject && !content) return { reminderContentEn: { rule: 'required' } };
    if (content && !subject) return { reminderSubjectEn: { rule: 'required' } };
    return {};
  },
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
        summary: 'Sends the reminder template of the caller’s language (the Chinese one while the English one is empty), filled with sample values, to the given address',
        body: { type: 'object', required: ['to'], additionalProperties: false, properties: { to: { type: 'string', maxLength: 100, pattern: EMAIL_PATTERN.source, 'x-qe-rule': 'email' } } },
      },
    }, async (request) => {
      const setting = await deps.db.selectFrom('mail_settings').selectAll().orderBy('id').executeTakeFirst();
      if (!setting) throw new BusinessError('RECORD_NOT_FOUND');
      const lang = requestLang(request);
      const sample = SAMPLE[lang];
      const template = reminderTemplate(setting, lang);
      try {
        await sendMail(deps.db, deps.config, { to: request.body.to, subject: fillTemplate(template.subject, sample), text: fillTemplate(template.content, sample) });
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
      return ok({ enabled: true, ...(await readOutbox(deps.db, 50)) });
    });
  },
};
export default mailSettingRules;
