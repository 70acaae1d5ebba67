import { createWriteStream, rmSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { DB } from '../db/connect.js';
import { ok } from '../plugins/envelope.js';
import { BusinessError } from '../plugins/errors.js';
import { currentUser } from '../plugins/guard.js';
import type { BackupService } from './service.js';
import {
  BACKUP_ANSWERS,
  nameParams,
  restoreBody,
  schedule,
  startBody,
  type BackupList,
  type NameParams,
  type RestoreBody,
  type Schedule,
  type StartBody,
} from '../../shared/calls/backup.js';

const tags = ['backups'];
/** An uploaded archive may be this large (QE_BACKUP_UPLOAD_MB, 4 GiB by default). */

async function who(db: DB, request: FastifyRequest): Promise<{ id: number; name: string; nameEn: string }> {
  const me = currentUser(request);
  const row = await db.selectFrom('users').select(['name_hk', 'name_en', 'username']).where('id', '=', me.id).executeTakeFirst();
  return { id: me.id, name: row?.name_hk || row?.username || String(me.id), nameEn: row?.name_en || row?.username || String(me.id) };
}

/**
 * Backup and restore (the page `backup`): the list, a backup now (its progress by
 * polling), download, delete, upload of an archive, restore with a strong confirmation, and
 * the schedule. An archive holds every password hash and the mail settings: downloading one
 * needs the Backup action itself.
 */
export async function backupRoutes(app: FastifyInstance, { db, config, service }: { db: DB; config: Config; service: BackupService }) {
  app.get('/v1/backups', {
    config: { permission: 'backup.view' },
    schema: { tags, summary: 'The backups (newest first), the schedule and the running job', response: BACKUP_ANSWERS.list },
  }, async () => ok<BackupList>({ list: await service.list(), schedule: await service.schedule(), job: await service.currentJob() }));

  app.post<{ Body: StartBody }>('/v1/backups', {
    config: { permission: 'backup.backup' },
    schema: { tags, summary: 'Starts a backup; answers its job (GET /v1/backups/job for its progress)', body: startBody, response: BACKUP_ANSWERS.started },
  }, async (request, reply) => {
    const { job } = await service.start({ passphrase: request.body?.passphrase, createdBy: await who(db, request) });
    // accepted: the archive is written in the background
    reply.code(202);
    return ok(job);
  });

  app.get('/v1/backups/job', {
    config: { permission: 'backup.view' },
    schema: { tags, summary: 'The latest backup or restore job (whichever instance runs it), or null', response: BACKUP_ANSWERS.job },
  }, async () => ok(await service.currentJob()));

  app.get<{ Params: NameParams }>('/v1/backups/:name/download', {
    config: { permission: 'backup.backup' },
    schema: { tags, summary: 'The archive itself', params: nameParams, response: BACKUP_ANSWERS.download },
  }, async (request, reply) => {
    const { size, stream } = await service.open(request.params.name);
    reply.header('content-disposition', `attachment; filename="${request.params.name}"`);
    reply.header('cache-control', 'no-store');
    reply.header('content-length', size);
    return reply.type('application/zip').send(stream);
  });

  app.delete<{ Params: NameParams }>('/v1/backups/:name', {
    config: { permission: 'backup.delete' },
    schema: { tags, summary: 'Deletes an archive', params: nameParams, response: BACKUP_ANSWERS.deleted },
  }, async (request) => {
    await service.delete(request.params.name);
    return ok(null);
  });

  app.post('/v1/backups/upload', {
    config: { permission: 'backup.restore' },
    schema: { tags, summary: 'Uploads an archive (multipart "file", .zip) to restore from; checked as far as it can be without its passphrase', response: BACKUP_ANSWERS.uploaded },
  }, async (request, reply) => {
    if (!request.isMultipart()) throw new BusinessError('FILE_TYPE_REFUSED');
    const file = await request.file({ limits: { fileSize: config.backupUploadMb * 2 ** 20, files: 1 } });
    if (!file || !/\.zip$/i.test(file.filename)) {
      file?.file.resume();
      throw new BusinessError('FILE_TYPE_REFUSED');
    }
    const tmp = join(config.dataDir, `upload-${randomBytes(8).toString('hex')}.part`);
    try {
      await pipeline(file.file, createWriteStream(tmp, { mode: 0o600 }));
    } catch (error) {
      // a full disk or a cut connection: nothing half-written stays
      rmSync(tmp, { force: true });
      throw error;
    }
    if (file.file.truncated) {
      rmSync(tmp, { force: true });
      throw new BusinessError('BACKUP_CORRUPT', { detail: `larger than ${config.backupUploadMb} MB` });
    }
    const entry = await service.adopt(tmp, await who(db, request));
    reply.code(201);
    return ok(entry, 201);
  });

  app.post<{ Params: NameParams; Body: RestoreBody }>('/v1/backups/:name/restore', {
    config: { permission: 'backup.restore', duringRestore: true },
    schema: {
      tags,
      summary: 'Restores an archive over the current data (confirm: the archive\'s name); every session ends, the caller\'s too',
      params: nameParams,
      body: restoreBody,
      response: BACKUP_ANSWERS.restored,
    },
  }, async (request) => {
    if (request.body.confirm !== request.params.name) throw new BusinessError('BACKUP_CONFIRM');
    const result = await service.restore(request.params.name, request.body.passphrase, { school: request.body.school, by: currentUser(request).id });
    request.log.warn({ archive: request.params.name, by: currentUser(request).id }, 'restored from a backup: every session ended');
    return ok(result);
  });

  app.get('/v1/backups/schedule', {
    config: { permission: 'backup.view' },
    schema: { tags, summary: 'How often a backup is made (hours; 0: off) and how many scheduled ones are kept', response: BACKUP_ANSWERS.schedule },
  }, async () => ok(await service.schedule()));

  app.put<{ Body: Schedule }>('/v1/backups/schedule', {
    config: { permission: 'backup.backup' },
    schema: {
      tags,
      summary: 'Sets the schedule',
      body: schedule,
      response: BACKUP_ANSWERS.schedule,
    },
  }, async (request) => ok(await service.setSchedule(request.body)));
}
