import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { uploads } from '../../../src/server/storage/file-store.js';
import { join } from 'node:path';
import { bearer, login, testApp, type TestApp } from '../harness.js';
import { multipart } from '../master/helpers.js';
import { data, expectError } from './helpers.js';

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
/** The start of a JPEG and of a GIF: what the server looks at. */
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1)]);
const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), Buffer.alloc(40, 0)]);

describe('question images', () => {
  let t: TestApp;
  let tk: string;

  beforeAll(async () => {
    t = await testApp({ demo: true, config: { schedulerSeconds: 0 } });
    ({ tk } = await login(t.app, 'teacher01'));
  });
  afterAll(async () => t?.close());

  const upload = (token: string, filename: string, content: Buffer, type = 'application/octet-stream', lang = 'en') => {
    const body = multipart(filename, content, type);
    return t.app.inject({ method: 'POST', url: '/v1/questionnaires/images', headers: { ...body.headers, ...bearer(token), 'accept-language': lang }, payload: body.payload });
  };
  // the file store: the storage folder on SQLite, the database on PostgreSQL
  const stored = async () => (await uploads(t.db, t.config).list()).map((f) => f.path).filter((p) => p.startsWith('questionnaires/'));

  it('stores a PNG under questionnaires/ and serves it back at /qe/storage/', async () => {
    const { path } = data<{ path: string }>(await upload(tk, 'chart.png', PNG, 'image/png'));
    expect(path).toMatch(/^questionnaires\/[0-9a-f]+\.png$/);
    const res = await t.app.inject({ method: 'GET', url: `/qe/storage/${path}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^image\/png/);
    expect(res.rawPayload.equals(PNG)).toBe(true);
    // a second upload of the same picture is a file of its own
    const again = data<{ path: string }>(await upload(tk, 'chart.png', PNG, 'image/png'));
    expect(again.path).not.toBe(path);
  });

  it('names a stored image by what it is, not by what it is called', async () => {
    const jpeg = data<{ path: string }>(await upload(tk, 'photo.png', JPEG, 'image/png'));
    expect(jpeg.path).toMatch(/\.jpg$/);
    const res = await t.app.inject({ method: 'GET', url: `/qe/storage/${jpeg.path}` });
    expect(res.headers['content-type']).toMatch(/^image\/jpeg/);
    expect(res.rawPayload.equals(JPEG)).toBe(true);
    const gif = data<{ path: string }>(await upload(tk, 'anim.gif', GIF, 'image/gif'));
    expect(gif.path).toMatch(/\.gif$/);
    expect((await t.app.inject({ method: 'GET', url: `/qe/storage/${gif.path}` })).headers['content-type']).toMatch(/^image\/gif/);
  });

  it('refuses a text file, a file named .png that is not one, and a file over 2 MB with the image message (716)', async () => {
    const before = await stored();
    expectError(await upload(tk, 'notes.txt', Buffer.from('hello, not a picture'), 'text/plain'), 'IMAGE_REFUSED');
    expectError(await upload(tk, 'notes.txt', Buffer.from('hello, not a picture'), 'text/plain', 'zh-HK'), 'IMAGE_REFUSED', 'zh-hk');
    expectError(await upload(tk, 'fake.png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'image/png'), 'IMAGE_REFUSED');
    expectError(await upload(tk, 'empty.png', Buffer.alloc(0), 'image/png'), 'IMAGE_REFUSED');
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024 + 1 - PNG.length, 0)]);
    expectError(await upload(tk, 'big.png', big, 'image/png'), 'IMAGE_REFUSED');
    // exactly 2 MB is accepted
    const limit = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024 - PNG.length, 0)]);
    expect(data<{ path: string }>(await upload(tk, 'limit.png', limit, 'image/png')).path).toMatch(/\.png$/);
    expect(await stored()).toHaveLength(before.length + 1);
  });

  it('refuses a request without a file', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/questionnaires/images', headers: { ...bearer(tk), 'accept-language': 'en' }, payload: { file: 'x' } });
    expect(res.json().code).toBe(716);
  });

  it('refuses a student (403)', async () => {
    const { tk: student } = await login(t.app, 'student001');
    const before = await stored();
    expectError(await upload(student, 'chart.png', PNG, 'image/png'), 'PERMISSION_DENIED');
    expect(await stored()).toEqual(before);
    expect((await upload('', 'chart.png', PNG, 'image/png')).statusCode).toBe(401);
  });

  it('serves nothing outside the storage folder', async () => {
    // the signing secret lives in the data folder, the storage folder's parent
    expect(existsSync(join(t.config.dataDir, 'secret.key'))).toBe(true);
    for (const url of ['/qe/storage/../secret.key', '/qe/storage/..%2fsecret.key', '/qe/storage/%2e%2e/secret.key']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.body, url).not.toContain(t.config.secret);
    }
  });
});
