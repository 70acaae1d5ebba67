import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DB } from '../db/connect.js';
import { normaliseUsernameIn } from '../../shared/usernames.js';
import { hashPassword } from '../auth/passwords.js';
import { passwordChanged } from '../auth/sessions.js';
import { envelopeSchema, ok } from '../plugins/envelope.js';
import { BusinessError } from '../plugins/errors.js';
import { currentUser } from '../plugins/guard.js';
import { lowerCaseIn, missingNames, propertyMeta, type EntitySchema, type MasterEntity } from '../../shared/master/entity.js';
import type { Permission } from '../plugins/guard.js';
import { idParams, idSchema } from '../../shared/calls/parts.js';
import { EntityStore, type MasterRules } from './store.js';
import type { Row } from './entity-shape.js';
import type { ListQuery } from './list-query.js';
import { missingNamesOf, requiredLanguages } from '../school/languages.js';
import { sheetRoutes } from './sheets.js';
import { listQuerySchema } from './list-query.js';
import type { MasterDeps } from './deps.js';

export type { MasterDeps } from './deps.js';


/** Notes the names a body leaves empty although the school requires their language (an edit: only those it gives). */
async function noteMissingNames(request: FastifyRequest, db: DB, schema: EntitySchema, partial: boolean): Promise<void> {
  const body = request.body;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return;
  const missing = missingNames(schema, body as Row, await requiredLanguages(db)).filter((name) => !partial || name in (body as Row));
  if (missing.length) missingNamesOf.set(request, missing);
}

/** A body's empty strings in optional fields become null ("not given"), as forms send them. */
function emptyToNull(body: Row, schema: EntitySchema): Row {
  const required = new Set(schema.required ?? []);
  for (const [k, v] of Object.entries(body)) if (v === '' && !required.has(k) && k in schema.properties) body[k] = null;
  return body;
}

/**
 * The routes of one master-data entity (docs/conventions.md#calls): list, one, add, edit, delete, password
 * reset for accounts, one record for single entities, and the Excel import and export.
 */
export async function crudRoutes(app: FastifyInstance, deps: MasterDeps, entity: MasterEntity, rules: MasterRules & { routes?: (app: FastifyInstance, deps: MasterDeps, store: EntityStore) => Promise<void> } = {}): Promise<void> {
  const { meta } = entity;
  const store = new EntityStore(deps.db, entity, rules.forApp?.(deps.config) ?? rules, deps.versions);
  const base = `/v1/${meta.resource}`;
  const tags = [meta.resource];
  const may = (action: string): Permission => `${meta.permission}.${action}`;
  const offers = (action: string) => meta.page.actions.includes(action);
  // a form's body as the schema reads it: empty optional fields as null, and an account's user name
  // read as the import reads it (src/shared/usernames.ts), before its pattern is checked; a value
  // kept in lower case (a school account) lowered before it is checked and compared
  const tidy = (body: Row, schema: EntitySchema) => {
    emptyToNull(body, schema);
    if (meta.account) normaliseUsernameIn(body);
    lowerCaseIn(body, schema);
  };
  // a record of another type listed here (a super administrator among the administrators) is
  // changed only by a user of that type: an administrator who could set a super administrator's
  // password or username would hold every permission the next minute
  const refuseOtherType = async (request: FastifyRequest, id: number) => {
    const type = await store.otherTypeOf(id);
    if (type !== null && currentUser(request).userType !== type) throw new BusinessError('PERMISSION_DENIED');
  };
  const yearQuery = Object.values(entity.schema.properties).some((p) => propertyMeta(p).yearly)
    ? { type: 'object', additionalProperties: false, properties: { schoolYearId: idSchema } }
    : { type: 'object', additionalProperties: false, properties: {} };

  if (meta.single) {
    app.get(base, { config: { permission: may('view') }, schema: { tags, summary: `The ${meta.resource} record (null before it is first saved)`, response: { 200: envelopeSchema() } } }, async () => {
      const first = await store.list({ size: 1 });
      return ok(first.list[0] ?? null);
    });
    app.put<{ Body: Row }>(base, {
      config: { permission: may('edit') },
      preValidation: async (request) => {
        tidy(request.body ?? {}, entity.create);
        await noteMissingNames(request, deps.db, entity.schema, false);
      },
      schema: { tags, summary: `Saves the ${meta.resource} record`, body: entity.create },
    }, async (request) => {
      const first = await store.list({ size: 1 });
      const current = first.list[0];
      if (current) await store.update(current.id, request.body);
      const id = current?.id ?? (await store.create(request.body));
      return ok(await store.get(id));
    });
    await rules.routes?.(app, deps, store);
    return;
  }

  app.get<{ Querystring: ListQuery }>(base, {
    config: { permission: may('view') },
    schema: { tags, summary: `A page of ${meta.resource}: {list, total}`, querystring: listQuerySchema(entity), response: { 200: envelopeSchema() } },
  }, async (request) => ok(await store.list(request.query)));

  app.get<{ Params: { id: number }; Querystring: { schoolYearId?: number } }>(`${base}/:id`, {
    config: { permission: may('view') },
    schema: { tags, summary: `One of ${meta.resource}`, params: idParams, querystring: yearQuery, response: { 200: envelopeSchema() } },
  }, async (request) => {
    const record = await store.get(request.params.id, request.query.schoolYearId);
    if (!record) throw new BusinessError('RECORD_NOT_FOUND');
    return ok(record);
  });

  app.post<{ Body: Row; Querystring: { schoolYearId?: number } }>(base, {
    config: { permission: may('add') },
    preValidation: async (request) => {
      tidy(request.body ?? {}, entity.create);
      await noteMissingNames(request, deps.db, entity.schema, false);
    },
    schema: { tags, summary: `Adds one of ${meta.resource}`, body: entity.create, querystring: yearQuery, response: { 200: envelopeSchema() } },
  }, async (request) => {
    const id = await store.create(request.body, { schoolYearId: request.query.schoolYearId });
    return ok(await store.get(id, request.query.schoolYearId), 201);
  });

  app.put<{ Params: { id: number }; Body: Row; Querystring: { schoolYearId?: number } }>(`${base}/:id`, {
    config: { permission: may('edit') },
    preValidation: async (request) => {
      tidy(request.body ?? {}, entity.update);
      await noteMissingNames(request, deps.db, entity.schema, true);
    },
    schema: { tags, summary: `Edits one of ${meta.resource}`, params: idParams, body: entity.update, querystring: yearQuery, response: { 200: envelopeSchema() } },
  }, async (request) => {
    await refuseOtherType(request, request.params.id);
    await store.update(request.params.id, request.body, request.query.schoolYearId);
    return ok(await store.get(request.params.id, request.query.schoolYearId));
  });

  if (offers('delete')) {
    app.delete<{ Params: { id: number }; Querystring: { cascade?: string } }>(`${base}/:id`, {
      config: { permission: may('delete') },
      schema: {
        tags,
        summary: `Deletes one of ${meta.resource}; refused with 708 while other records use it (cascade=1 deletes those the schema allows to go with it)`,
        params: idParams,
        // the client sends cascade=1; a boolean schema would refuse that (ajv coerces only "true"/"false")
        querystring: { type: 'object', additionalProperties: false, properties: { cascade: { type: 'string', enum: ['0', '1', 'false', 'true'] } } },
      },
    }, async (request) => {
      // nobody deletes the account they are logged in with
      if (meta.account && request.params.id === currentUser(request).id) throw new BusinessError('PERMISSION_DENIED');
      // with the rule above, the last super administrator is never deleted: whoever may delete one is another
      await refuseOtherType(request, request.params.id);
      await store.remove(request.params.id, request.query.cascade === '1' || request.query.cascade === 'true');
      return ok(null);
    });
  }

  if (meta.account) {
    app.put<{ Params: { id: number }; Body: { password: string } }>(`${base}/:id/password`, {
      config: { permission: may('edit') },
      schema: {
        tags,
        summary: 'Sets a new password for the account; its sessions end',
        params: idParams,
        body: { type: 'object', required: ['password'], additionalProperties: false, properties: { password: entity.schema.properties.password } },
      },
    }, async (request) => {
      if (!(await store.get(request.params.id))) throw new BusinessError('RECORD_NOT_FOUND');
      await refuseOtherType(request, request.params.id);
      await deps.db.updateTable('users').set({ password_hash: await hashPassword(request.body.password), updated_at: new Date().toISOString() }).where('id', '=', request.params.id).execute();
      await passwordChanged(deps.db, request.params.id);
      return ok(null);
    });
  }

  await sheetRoutes(app, deps, store);
  await rules.routes?.(app, deps, store);
}
