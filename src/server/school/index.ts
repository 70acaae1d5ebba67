import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { PASSWORD_MAX, PASSWORD_MIN } from '../../shared/validation.js';
import { envelopeSchema, ok } from '../plugins/envelope.js';
import { BusinessError } from '../plugins/errors.js';
import { createFirstSchool, type InitBody } from './init.js';
import { schoolInfo } from './info.js';
import { schoolSettingRoutes } from './settings.js';

const tags = ['school'];



export async function schoolRoutes(app: FastifyInstance, { db, config }: { db: DB; config: Config }) {
  app.get('/v1/school-info', {
    config: { permission: 'public' },
    schema: { tags, summary: 'The school: names, logo and languages (shown before login)' },
  }, async () => {
    const school = await db.selectFrom('school').selectAll().orderBy('id').executeTakeFirst();
    if (!school) throw new BusinessError('NOT_INITIALISED');
    return ok(schoolInfo(school, config));
  });

  await schoolSettingRoutes(app, { db, config });

  app.get('/v1/init', {
    config: { permission: 'public' },
    schema: { tags, summary: 'Whether the first-run set-up is still open', response: { 200: envelopeSchema({ type: 'object', properties: { initialised: { type: 'boolean' } } }) } },
  }, async () => {
    const school = await db.selectFrom('school').select('id').executeTakeFirst();
    return ok({ initialised: Boolean(school) });
  });

  app.post<{ Body: InitBody }>('/v1/init', {
    config: { permission: 'public', rateLimit: { max: 20, timeWindow: '1 minute' } },
    schema: {
      tags,
      summary: 'First run: create the school and the first super administrator; closed for good afterwards',
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['schoolNameHk', 'schoolNameEn', 'username', 'password', 'nameHk', 'nameEn'],
        properties: {
          schoolNameHk: { type: 'string', minLength: 1, maxLength: 200 },
          schoolNameEn: { type: 'string', minLength: 1, maxLength: 200 },
          username: { type: 'string', minLength: 1, maxLength: 50, pattern: '^[A-Za-z0-9_.-]+$' },
          password: { type: 'string', minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX },
          nameHk: { type: 'string', minLength: 1, maxLength: 100 },
          nameEn: { type: 'string', minLength: 1, maxLength: 100 },
          email: { type: 'string', maxLength: 200 },
        },
      },
    },
  }, async (request) => {
    await createFirstSchool(db, request.body);
    return ok(null, 201);
  });
}
