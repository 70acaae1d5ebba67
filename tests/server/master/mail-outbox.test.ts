import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTBOX_KEPT, outboxSender } from '../../../src/server/mail/outbox.js';
import { testApp, type TestApp } from '../harness.js';
import { as, classId, classStudents, data, processing, type Caller } from '../questionnaires/helpers.js';

interface Outbox {
  enabled: boolean;
  total: number;
  list: { id: string; from: string; to: string; subject: string; text: string; sentAt: string }[];
}

/**
 * The development outbox (QE_MAIL_OUTBOX, `npm run demo`): the test mail and reminders are kept
 * as files in DATA_DIR/outbox, readable by QE's user only, and listed for whoever may see the
 * mail setting — never for others; with the outbox off nothing is kept and nothing listed.
 */
describe('the development outbox', () => {
  let t: TestApp;
  let admin: Caller;
  const outbox = async (call: Caller) => data<Outbox>(await call('GET', '/v1/mail-settings/outbox'));

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0, mailOutbox: true, publicUrl: 'https://qe.school.example' } });
    admin = await as(t, 'admin');
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

  it('keeps the test mail instead of sending it (the host does not exist), readable by QE alone', async () => {
    data(await admin('POST', '/v1/mail-settings/test', { to: 'someone@school.example' }));
    const box = await outbox(admin);
    expect(box.enabled).toBe(true);
    expect(box.total).toBe(1);
    expect(box.list[0]).toMatchObject({ from: 'QE <qe@school.example>', to: 'someone@school.example', subject: 'Reminder: Sample questionnaire' });
    expect(box.list[0].text).toContain('Chan Tai Man');
    const folder = join(t.config.dataDir, 'outbox');
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    for (const f of readdirSync(folder)) expect(statSync(join(folder, f)).mode & 0o777).toBe(0o600);
  });

  it("keeps a reminder to every respondent who has not submitted, each with their own link, newest first", async () => {
    const teacher = await as(t, 'teacher01');
    const q = await processing(teacher, [{ kind: 'CLASS', ids: [await classId(t.db, '1A')] }], { title: 'Outbox reminder' });
    const students = await classStudents(t.db, '1A');
    const result = data<{ sent: number; failed: number; noAddress: number }>(await teacher('POST', `/v1/questionnaires/${q.id}/notice`));
    expect(result).toEqual({ sent: students.length, failed: 0, noAddress: 0 });
    const box = await outbox(admin);
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
    const dataDir = join(t.config.dataDir, 'outbox-prune');
    const sender = outboxSender({ dataDir }, 'qe@school.example');
    for (let i = 0; i < OUTBOX_KEPT + 3; i++) await sender.send({ to: `p${i}@school.example`, subject: `#${i}`, text: '' });
    const kept = readdirSync(join(dataDir, 'outbox'));
    expect(kept).toHaveLength(OUTBOX_KEPT);
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
