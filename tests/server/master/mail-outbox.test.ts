import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOX_KEPT, outboxSender, readOutbox } from '../../../src/server/mail/outbox.js';
import { testApp, type TestApp } from '../harness.js';
import { instances, onPostgres } from '../instances.js';
import { as, classId, classStudents, data, processing, type Caller } from '../questionnaires/helpers.js';

interface Outbox {
  enabled: boolean;
  total: number;
  list: { id: string; from: string; to: string; subject: string; text: string; sentAt: string }[];
}

/**
 * The development outbox (QE_MAIL_OUTBOX, `npm run demo`): the test mail and reminders are kept
 * in the database (migration 0034; in one instance's data folder before, so each instance behind a
 * load balancer listed its own), and listed for whoever may see the mail setting — never for
 * others; with the outbox off nothing is kept and nothing listed.
 */
describe(`the development outbox (${onPostgres ? 'two instances on one PostgreSQL' : 'one SQLite app'})`, () => {
  let t: Awaited<ReturnType<typeof instances>>;
  let admin: Caller;
  /** the outbox as the second instance lists it (on SQLite, the one app) */
  let other: Caller;
  const outbox = async (call: Caller) => data<Outbox>(await call('GET', '/v1/mail-settings/outbox'));

  beforeAll(async () => {
    t = await instances(2, { demo: true, config: { schedulerSeconds: 0, mailOutbox: true, publicUrl: 'https://qe.school.example' } });
    admin = await as(t, 'admin');
    other = await as({ ...t, app: t.apps[1] }, 'admin');
    data(await admin('PUT', '/v1/mail-settings', {
      host: 'smtp.invalid',
      port: 25,
      secure: false,
      fromAddress: 'qe@school.example',
      fromName: 'QE',
      reminderSubject: 'Reminder: {title}',
      reminderContent: 'Dear {name}, please answer {title} by {deadline}. {link}',
    }));
  });
  afterAll(async () => t?.close());

  it('keeps the test mail instead of sending it (the host does not exist), in the database: every instance lists it', async () => {
    data(await admin('POST', '/v1/mail-settings/test', { to: 'someone@school.example' }));
    const box = await outbox(other);
    expect(await outbox(admin)).toEqual(box);
    expect(box.enabled).toBe(true);
    expect(box.total).toBe(1);
    expect(box.list[0]).toMatchObject({ from: 'QE <qe@school.example>', to: 'someone@school.example', subject: 'Reminder: Sample questionnaire' });
    expect(box.list[0].text).toContain('Chan Tai Man');
    // nothing of it on the instance's disk
    expect(existsSync(join(t.config.dataDir, 'outbox'))).toBe(false);
  });

  it("keeps a reminder to every respondent who has not submitted, each with their own link, newest first", async () => {
    const teacher = await as(t, 'teacher01');
    const q = await processing(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '1A')] }], { title: 'Outbox reminder' });
    const students = await classStudents(t.db, '1A');
    const result = data<{ sent: number; failed: number; noAddress: number }>(await teacher('POST', `/v1/questionnaires/${q.id}/notice`));
    expect(result).toEqual({ sent: students.length, failed: 0, noAddress: 0 });
    const box = await outbox(other);
    expect(box.total).toBe(1 + students.length);
    const reminders = box.list.filter((m) => m.subject === 'Reminder: Outbox reminder');
    expect(reminders).toHaveLength(students.length);
    const links = reminders.map((m) => /https:\/\/qe\.school\.example\/qe\/app\/quick\?token=\S+/.exec(m.text)?.[0]);
    expect(new Set(links).size).toBe(students.length);
    // newest first: the test mail, sent before, comes last
    expect(box.list.at(-1)!.to).toBe('someone@school.example');
    expect([...box.list].sort((a, b) => (a.id < b.id ? 1 : -1)).map((m) => m.id)).toEqual(box.list.map((m) => m.id));
  });

  it('is read only by whoever may see the mail setting', async () => {
    const teacher = await as(t, 'teacher01');
    const res = await teacher('GET', '/v1/mail-settings/outbox');
    expect(res.json().code).toBe(405);
  });

  it(`keeps the newest ${OUTBOX_KEPT} mails and drops the oldest`, async () => {
    const sender = outboxSender(t.db, 'qe@school.example');
    for (let i = 0; i < OUTBOX_KEPT + 3; i++) await sender.send({ to: `p${i}@school.example`, subject: `#${i}`, text: '' });
    const { total, list } = await readOutbox(t.db, OUTBOX_KEPT + 10);
    expect(total).toBe(OUTBOX_KEPT);
    const subjects = new Set(list.map((m) => m.subject));
    expect(subjects.has(`#${OUTBOX_KEPT + 2}`) && !subjects.has('#0')).toBe(true);
  }, 60_000);
});

describe('without the outbox', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
  });
  afterAll(async () => t?.close());

  it('lists nothing and says it is off', async () => {
    expect(await data<Outbox>(await (await as(t, 'admin'))('GET', '/v1/mail-settings/outbox'))).toEqual({ enabled: false, total: 0, list: [] });
  });
});
