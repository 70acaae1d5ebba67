import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { vi } from 'vitest';

/** One request as the server received it. */
export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** How the server answers a request: an envelope as JSON (the default), a raw body, a delay, or a dropped connection. */
export interface Answer {
  status?: number;
  envelope?: unknown;
  body?: string | Buffer;
  contentType?: string;
  delayMs?: number;
  drop?: boolean;
}

export interface LocalServer {
  origin: string;
  received: Received[];
  /** what the next requests get; `{ code: 200, msg: 'ok', data: null }` when the handler says nothing */
  answer(handler: (request: Received) => Answer | undefined): void;
  /** the page the client code runs on (its relative URLs resolve against it) */
  openPage(path: string): void;
  close(): Promise<void>;
}

interface JsdomGlobal {
  reconfigure(options: { url: string }): void;
  virtualConsole: { on(event: 'jsdomError', listener: (error: Error) => void): void; off(event: 'jsdomError', listener: (error: Error) => void): void };
}
/** The JSDOM instance vitest's jsdom environment runs the tests in. */
export const jsdomInstance = (): JsdomGlobal => (globalThis as unknown as { jsdom: JsdomGlobal }).jsdom;

/**
 * A real HTTP server on 127.0.0.1 for the client's HTTP code, and the jsdom page moved onto its
 * origin. Node's fetch does not resolve a relative URL as a browser's does, so `fetch` is wrapped
 * to resolve it against the page's address first; XMLHttpRequest is jsdom's own, which still
 * sends from jsdom's first origin, so the server answers CORS as a cross-origin server would.
 */
export async function startLocalServer(pagePath = '/qe/dashboard'): Promise<LocalServer> {
  const received: Received[] = [];
  let handler: (request: Received) => Answer | undefined = () => undefined;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.setHeader('access-control-allow-origin', '*');
      if (req.method === 'OPTIONS') {
        res.writeHead(204, {
          'access-control-allow-methods': 'GET, POST, PUT, DELETE',
          'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '',
        });
        res.end();
        return;
      }
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const request: Received = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks) };
      received.push(request);
      const answer = handler(request) ?? {};
      const send = () => {
        if (answer.drop) {
          req.socket.destroy();
          return;
        }
        const body = answer.body ?? JSON.stringify(answer.envelope ?? { code: 200, msg: 'ok', data: null });
        res.writeHead(answer.status ?? 200, { 'content-type': answer.contentType ?? 'application/json; charset=utf-8' });
        res.end(body);
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const nodeFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) => nodeFetch(typeof input === 'string' ? new URL(input, window.location.href) : input, init));
  const openPage = (path: string) => jsdomInstance().reconfigure({ url: `${origin}${path}` });
  openPage(pagePath);
  return {
    origin,
    received,
    answer: (h) => (handler = h),
    openPage,
    close: async () => {
      vi.unstubAllGlobals();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A token as the server issues it, as far as the client reads one: its `jti` is the user id. */
export function tokenFor(userId: number): string {
  const part = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ jti: String(userId), sid: 'session-1' })}.signature`;
}

/** Collects the navigations (reload, a new href) the page attempted: jsdom reports each as not implemented. */
export function watchNavigation(): { count(): number; stop(): void } {
  let count = 0;
  const listener = (error: Error) => {
    if (/navigation/.test(error.message)) count++;
  };
  jsdomInstance().virtualConsole.on('jsdomError', listener);
  return { count: () => count, stop: () => jsdomInstance().virtualConsole.off('jsdomError', listener) };
}
