import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { bearer } from '../harness.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Every answer a test received, to check afterwards that no password ever left the server. */
export const answers: { url: string; status: number; body: string }[] = [];

/** A caller of the API with one token, in one language (English unless told). */
export function caller(app: FastifyInstance, tk: string | null, lang: 'en' | 'zh-hk' = 'en') {
  return async (method: Method, url: string, payload?: unknown): Promise<LightMyRequestResponse> => {
    const res = await app.inject({
      method,
      url,
      headers: { ...(tk ? bearer(tk) : {}), 'accept-language': lang === 'en' ? 'en' : 'zh-HK' },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    answers.push({ url, status: res.statusCode, body: res.body });
    return res;
  };
}

/** A multipart/form-data body holding one file under `file`. */
export function multipart(filename: string, content: Buffer, contentType = 'application/octet-stream'): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----qe-test-${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, content, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
