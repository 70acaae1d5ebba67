import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { ok } from '../plugins/envelope.js';
import { BusinessError } from '../plugins/errors.js';
import { createFirstSchool } from './init.js';
import { normaliseUsernameIn } from '../../shared/usernames.js';
import { initBody, SCHOOL_ANSWERS, type InitBody, type InitState, type SchoolInfo } from '../../shared/calls/school.js';
import { schoolInfo } from './info.js';
import { schoolSettingRoutes } from './settings.js';

const tags = ['school'];



export async function schoolRoutes(app: FastifyInstance, { db, config }: { db: DB; config: Config }) {
  app.get('/v1/school-info', {
    config: { permission: 'public' },
    schema: { tags, summary: 'The school: names, logo and languages (shown before login)', response: SCHOOL_ANSWERS.info },
  }, async () => {
    const school = await db.selectFrom('school').selectAll().orderBy('id').executeTakeFirst();
    if (!school) throw new BusinessError('NOT_INITIALISED');
    return ok<SchoolInfo>(schoolInfo(school, config));
  });

  await schoolSettingRoutes(app, { db, config });

  app.get('/v1/init', {
    config: { permission: 'public' },
    schema: { tags, summary: 'Whether the first-run set-up is still open', response: SCHOOL_ANSWERS.init },
  }, async () => {
    const school = await db.selectFrom('school').select('id').executeTakeFirst();
    return ok<InitState>({ initialised: Boolean(school) });
  });

  app.post<{ Body: InitBody }>('/v1/init', {
    config: { permission: 'public', addressLimit: { max: 20, windowMs: 60_000 } },
    // a full-width user name is read as the ordinary one before its pattern is checked
    preValidation: async (request) => normaliseUsernameIn(request.body),
    schema: {
      tags,
      summary: 'First run: create the school and the first super administrator; closed for good afterwards',
      body: initBody,
      response: SCHOOL_ANSWERS.initialised,
    },
  }, async (request) => {
    await createFirstSchool(db, request.body);
    return ok(null, 201);
  });
}
