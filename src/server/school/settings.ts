import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { ok } from '../plugins/envelope.js';
import { BusinessError, FieldError } from '../plugins/errors.js';
import { storeUploadedImage } from '../storage/images.js';
import { uploads, type FileStore } from '../storage/file-store.js';
import { schoolInfo } from './info.js';
import { canonicalTimeZone, isTimeZone } from '../../shared/school-clock.js';
import { SCHOOL_ANSWERS, schoolSettingsBody, type SchoolSettings, type SchoolSettingsBody } from '../../shared/calls/school.js';

export type { SchoolSettingsBody };

const tags = ['school'];

/** '' from a cleared field is "not given". */
const blank = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v.trim() === '' ? null : v.trim());

/**
 * The school settings: read and change the school's names, addresses, contacts,
 * graduating grade, language list, the Google rule and the time zone, and its logo. Every read
 * goes to the database, so a change holds for every user at once (clients read
 * /v1/school-info again; the server's own clock keeps the zone under a cache counter, ./clock.ts).
 */
export async function schoolSettingRoutes(app: FastifyInstance, { db, config }: { db: DB; config: Config }) {
  const school = async () => {
    const s = await db.selectFrom('school').selectAll().orderBy('id').executeTakeFirst();
    if (!s) throw new BusinessError('NOT_INITIALISED');
    return s;
  };
  const settings = async (): Promise<SchoolSettings> => {
    const grades = await db.selectFrom('grades').select(['code', 'name_hk', 'name_en']).orderBy('seq').orderBy('id').execute();
    return { ...schoolInfo(await school(), config), grades: grades.map((g) => ({ code: g.code, nameHk: g.name_hk, nameEn: g.name_en })) };
  };

  app.get('/v1/school', {
    config: { permission: 'school.view' },
    schema: { tags, summary: 'The school settings, with the grades the graduating grade is chosen from', response: SCHOOL_ANSWERS.settings },
  }, async () => ok(await settings()));

  app.put<{ Body: SchoolSettingsBody }>('/v1/school', {
    config: { permission: 'school.edit' },
    schema: {
      tags,
      summary: 'Saves the school settings: 720 when no language is required, 721 when Google is required but not configured, 722 for an unknown grade, 422 for a time zone Intl does not know',
      body: schoolSettingsBody,
      response: SCHOOL_ANSWERS.settings,
    },
  }, async (request) => {
    const body = request.body;
    const current = await school();
    const codes = body.languageList.map((l) => l.code);
    const twice = codes.find((c, i) => codes.indexOf(c) !== i);
    if (twice) throw new FieldError({ languageList: { rule: 'duplicate', params: { value: twice } } });
    if (!body.languageList.some((l) => l.required === '1')) throw new BusinessError('LANGUAGE_REQUIRED');
    if (body.googleRequired && !config.google.clientId) throw new BusinessError('GOOGLE_NOT_CONFIGURED');
    const graduateGrade = blank(body.graduateGrade);
    if (graduateGrade && !(await db.selectFrom('grades').select('id').where('code', '=', graduateGrade).executeTakeFirst())) throw new BusinessError('GRADUATE_GRADE_UNKNOWN');
    const nameHk = body.nameHk.trim();
    const nameEn = body.nameEn.trim();
    if (!nameHk || !nameEn) throw new FieldError({ [nameHk ? 'nameEn' : 'nameHk']: { rule: 'required' } });
    if (body.timeZone !== undefined && !isTimeZone(body.timeZone)) throw new FieldError({ timeZone: { rule: 'timeZone' } });
    await db.updateTable('school').set({
      name_hk: nameHk,
      name_en: nameEn,
      ...(body.addressHk !== undefined ? { address_hk: blank(body.addressHk) } : {}),
      ...(body.addressEn !== undefined ? { address_en: blank(body.addressEn) } : {}),
      ...(body.tel !== undefined ? { tel: blank(body.tel) } : {}),
      ...(body.fax !== undefined ? { fax: blank(body.fax) } : {}),
      ...(body.email !== undefined ? { email: blank(body.email) } : {}),
      ...(graduateGrade !== undefined ? { graduate_grade: graduateGrade } : {}),
      ...(body.googleRequired !== undefined ? { google_required: body.googleRequired ? 1 : 0 } : {}),
      ...(body.timeZone !== undefined ? { time_zone: canonicalTimeZone(body.timeZone) } : {}),
      languages: JSON.stringify(body.languageList.map((l) => ({ code: l.code, required: l.required }))),
    }).where('id', '=', current.id).execute();
    return ok(await settings());
  });

  app.post('/v1/school/logo', {
    config: { permission: 'school.edit' },
    schema: { tags, summary: 'Stores the school logo (png, jpeg, gif, webp; at most 2 MB, checked by content) and answers the settings', response: SCHOOL_ANSWERS.settings },
  }, async (request) => {
    const current = await school();
    // a new name each time: browsers and proxies that kept the old logo show the new one at once
    const path = await storeUploadedImage(request, uploads(db, config), 'school', 'logo-');
    await db.updateTable('school').set({ school_logo: path }).where('id', '=', current.id).execute();
    await removeOldLogo(uploads(db, config), current.school_logo);
    return ok(await settings());
  });

  app.delete('/v1/school/logo', {
    config: { permission: 'school.edit' },
    schema: { tags, summary: 'Removes the school logo (the top bar shows the generic icon again)', response: SCHOOL_ANSWERS.settings },
  }, async () => {
    const current = await school();
    await db.updateTable('school').set({ school_logo: null }).where('id', '=', current.id).execute();
    await removeOldLogo(uploads(db, config), current.school_logo);
    return ok(await settings());
  });
}

/** Only logos this screen stored (school/…) are removed; a path set otherwise is left alone. */
async function removeOldLogo(store: FileStore, path: string | null) {
  if (!path || !/^school\/logo-[0-9a-f]+\.\w+$/.test(path)) return;
  // already gone: nothing to remove
  await store.delete(path);
}
