import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldMessage } from '../../../src/shared/field-messages.js';
import { login, testApp, type TestApp } from '../harness.js';
import { caller } from './helpers.js';

// A known defect, since fixed: swapping two class codes in one save of a grade (1A ↔ 1B) answered
// 500 (the unique class code met its old holder half way). It saves; the classes keep their
// ids, so their pupils, and the codes are simply exchanged.

interface Grade { id: number; code: string; classes: { id: number; code: string; nameHk: string; nameEn: string }[] }

describe('swapping class codes in one save', () => {
  let t: TestApp;
  let call: ReturnType<typeof caller>;
  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    call = caller(t.app, (await login(t.app, 'admin')).tk);
  });
  afterAll(async () => t?.close());

  const grade = async (code: string): Promise<Grade> => {
    const list = (await call('GET', '/v1/grade-classes?size=100')).json().data.list as { id: number; code: string }[];
    return (await call('GET', `/v1/grade-classes/${list.find((g) => g.code === code)!.id}`)).json().data;
  };
  const pupilsOf = async (classId: number) =>
    (await t.db.selectFrom('student_classes').select('user_id').where('class_id', '=', classId).orderBy('user_id').execute()).map((r) => r.user_id);

  it('exchanges the codes and names of two classes and keeps each class with its pupils', async () => {
    const s1 = await grade('S1');
    const [a, b] = s1.classes;
    expect([a.code, b.code]).toEqual(['1A', '1B']);
    const pupils = { a: await pupilsOf(a.id), b: await pupilsOf(b.id) };
    expect(pupils.a.length).toBeGreaterThan(0);

    const res = await call('PUT', `/v1/grade-classes/${s1.id}`, {
      classes: [{ ...a, code: b.code, nameHk: b.nameHk, nameEn: b.nameEn }, { ...b, code: a.code, nameHk: a.nameHk, nameEn: a.nameEn }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = await grade('S1');
    expect(after.classes.map((c) => [c.id, c.code, c.nameEn]).sort()).toEqual([[a.id, '1B', b.nameEn], [b.id, '1A', a.nameEn]].sort());
    expect(await pupilsOf(a.id)).toEqual(pupils.a);
    expect(await pupilsOf(b.id)).toEqual(pupils.b);
  });

  it('rotates three codes, and lets a new class take the code another gave up in the same save', async () => {
    const s2 = await grade('S2');
    const [a, b] = s2.classes;
    const res = await call('PUT', `/v1/grade-classes/${s2.id}`, {
      classes: [{ code: '2A', nameHk: '中二甲', nameEn: '2 Alpha' }, { ...a, code: '2B' }, { ...b, code: '2C' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = await grade('S2');
    expect(after.classes.find((c) => c.id === a.id)!.code).toBe('2B');
    expect(after.classes.find((c) => c.id === b.id)!.code).toBe('2C');
    expect(after.classes.find((c) => c.code === '2A')).toMatchObject({ nameEn: '2 Alpha' });
    expect(after.classes.map((c) => c.id)).not.toContain(undefined);
  });

  it('still refuses a code another grade holds (422), and changes nothing', async () => {
    const s3 = await grade('S3');
    const [a, b] = s3.classes;
    const res = await call('PUT', `/v1/grade-classes/${s3.id}`, { classes: [{ ...a, code: b.code }, { ...b, code: '4A' }] });
    expect(res.statusCode).toBe(422);
    expect(res.json().data).toEqual({ 'classes.1.code': fieldMessage('duplicate', 'en', { value: '4A' }) });
    expect((await grade('S3')).classes.map((c) => c.code)).toEqual([a.code, b.code]);
  });
});
