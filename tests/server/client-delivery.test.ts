import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResolvedConfig } from 'vite';
import { precompress } from '../../scripts/vite-precompress.js';
import { createTestDatabase } from '../support/database.js';
import { testConfig } from '../support/config.js';
import { buildApp } from '../../src/server/app.js';
import type { FastifyInstance } from 'fastify';

/**
 * The client is sent compressed and cached as a browser on a slow network needs it:
 * the build writes brotli and gzip copies, the server picks one by Accept-Encoding, hashed assets
 * are cached for a year and never revalidated, index.html is asked again every time.
 */
describe('client delivery', () => {
  let app: FastifyInstance;
  let drop: () => Promise<void>;
  let script: Buffer;
  let clientDir: string;

  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    clientDir = join(database.dataDir, 'client');
    mkdirSync(join(clientDir, 'assets'), { recursive: true });
    script = Buffer.from(`export const words = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => `問卷 questionnaire ${i % 37}`))};\n`);
    writeFileSync(join(clientDir, 'assets', 'index-Ab1_cD2-.js'), script);
    writeFileSync(join(clientDir, 'assets', 'tiny-Zz9Yy8Xx.js'), 'export {};\n');
    writeFileSync(join(clientDir, 'index.html'), `<!doctype html><html><head><script type="module" src="/qe/assets/index-Ab1_cD2-.js"></script></head><body>${'<!-- padding -->'.repeat(100)}</body></html>`);
    writeFileSync(join(clientDir, 'logo.svg'), `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(400)}</svg>`);
    // the build step itself, as vite runs it
    const plugin = precompress();
    (plugin.configResolved as (c: ResolvedConfig) => void)({ build: { outDir: clientDir } } as ResolvedConfig);
    await (plugin.closeBundle as () => Promise<void>)();

    const config = testConfig(database, { clientDir });
    app = (await buildApp(config, { logger: false })).app;
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await drop?.();
  });

  it('writes brotli and gzip copies of text files at build time, none of a file too small to gain', () => {
    const path = join(clientDir, 'assets', 'index-Ab1_cD2-.js');
    expect(brotliDecompressSync(readFileSync(`${path}.br`)).equals(script)).toBe(true);
    expect(gunzipSync(readFileSync(`${path}.gz`)).equals(script)).toBe(true);
    expect(readFileSync(`${path}.br`).length).toBeLessThan(script.length / 5);
    expect(() => readFileSync(join(clientDir, 'assets', 'tiny-Zz9Yy8Xx.js.br'))).toThrow();
  });

  it('sends a hashed asset in the encoding the browser takes, cached for a year as immutable', async () => {
    const get = (encoding?: string) => app.inject({ method: 'GET', url: '/qe/assets/index-Ab1_cD2-.js', headers: encoding ? { 'accept-encoding': encoding } : {} });
    const br = await get('gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).equals(script)).toBe(true);

    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).equals(script)).toBe(true);

    const plain = await get();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(script)).toBe(true);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('asks again for index.html and for files without a hash in their name', async () => {
    for (const url of ['/qe/', '/qe/login', '/qe/questionnaire-filling/list']) {
      const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
    }
    const logo = await app.inject({ method: 'GET', url: '/qe/logo.svg', headers: { 'accept-encoding': 'br' } });
    expect(logo.headers['content-encoding']).toBe('br');
    expect(logo.headers['cache-control']).toBe('no-cache');
  });
});
