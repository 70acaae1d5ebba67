import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from 'react-admin';
import type { Notice } from '../../../src/client/providers/notifier';
import { startLocalServer, tokenFor, watchNavigation, type LocalServer } from '../support/local-server';
import { replyBody } from '../../../src/shared/calls/filling';

// The HTTP client as its callers see it (docs/errors.md#how-the-client-shows-them,
// docs/conventions.md#headers-and-trimming), against a real HTTP server on 127.0.0.1.
// Each test loads the client afresh, as a page load does: its once-per-page alert starts unshown.

type Http = typeof import('../../../src/client/providers/http');
type Upload = typeof import('../../../src/client/providers/upload');
type Session = typeof import('../../../src/client/providers/session');
type I18n = typeof import('../../../src/client/providers/i18nProvider');

let server: LocalServer;
let http: Http;
let uploads: Upload;
let session: Session;
let i18n: I18n;
let notices: Notice[];
let alert: ReturnType<typeof vi.spyOn>;

beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(async () => server.close());

beforeEach(async () => {
  server.received.length = 0;
  server.answer(() => undefined);
  server.openPage('/qe/forms/list');
  localStorage.clear();
  vi.resetModules();
  session = await import('../../../src/client/providers/session');
  http = await import('../../../src/client/providers/http');
  uploads = await import('../../../src/client/providers/upload');
  i18n = await import('../../../src/client/providers/i18nProvider');
  const notifier = await import('../../../src/client/providers/notifier');
  notices = [];
  notifier.subscribe((n) => notices.push(n));
  alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

const logIn = (userId = 7) => session.saveSession(tokenFor(userId), userId);
/** The rejection of a call, which must be an HttpError. */
async function failure(call: Promise<unknown>): Promise<HttpError> {
  const error = await call.then(
    () => expect.unreachable('the call succeeded'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}
const toasts = () => notices.filter((n) => n.kind === 'toast').map((n) => (n.kind === 'toast' ? n.message : ''));

describe('request', () => {
  it("answers the envelope's data, or the whole envelope when asked", async () => {
    server.answer(() => ({ envelope: { code: 200, msg: 'ok', data: { list: [1, 2], total: 2 } } }));
    expect(await http.request('/v1/questionnaires')).toEqual({ list: [1, 2], total: 2 });
    expect(await http.request('/v1/questionnaires', { envelope: true })).toEqual({ code: 200, msg: 'ok', data: { list: [1, 2], total: 2 } });
    server.answer(() => ({ status: 200, envelope: { code: 201, msg: 'created', data: { id: 9 } } }));
    expect(await http.request('/v1/questionnaires', { method: 'POST', body: {} })).toEqual({ id: 9 });
  });

  it('sends the language, device, system and token headers, and the query without empty values, trimmed', async () => {
    logIn(7);
    await http.request('/v1/students', { query: { q: '  陳  ', classId: [3, 4], page: 1, empty: '', none: null, missing: undefined } });
    const [got] = server.received;
    expect(got.method).toBe('GET');
    expect(got.path).toBe('/v1/students');
    expect([...got.query.entries()]).toEqual([
      ['q', '陳'],
      ['classId', '3'],
      ['classId', '4'],
      ['page', '1'],
    ]);
    expect(got.headers).toMatchObject({ 'accept-language': 'zh-HK', 'x-device': 'Web', 'x-system': 'QE', authorization: `Bearer ${tokenFor(7)}` });
  });

  it('sends Accept-Language en once the user switched to English, and no Authorization without a session', async () => {
    await i18n.i18nProvider.changeLocale('en');
    await http.request('/v1/school-info');
    expect(server.received[0].headers['accept-language']).toBe('en');
    expect(server.received[0].headers.authorization).toBeUndefined();
  });

  it('sends a body as JSON with its strings trimmed', async () => {
    logIn();
    await http.request('/v1/positions', { method: 'PUT', body: { nameHk: '  主任 ', seq: 2, tags: [' a '] } });
    const [got] = server.received;
    expect(got.method).toBe('PUT');
    expect(got.headers['content-type']).toBe('application/json');
    expect(JSON.parse(got.body.toString())).toEqual({ nameHk: '主任', seq: 2, tags: ['a'] });
  });

  it('sends a reply’s answers with their leading spaces and line breaks when the call’s schema marks them (trimBody)', async () => {
    logIn();
    const answers = { story: '  line one\n    line two  \n', pick: { choice: ' a ', otherText: '  mine ' } };
    await http.request('/v1/my/questionnaires/5/replies', { method: 'POST', body: { submissionKey: ' key-12345 ', answers }, bodySchema: replyBody });
    expect(JSON.parse(server.received[0].body.toString())).toEqual({ submissionKey: 'key-12345', answers: { story: '  line one\n    line two', pick: { choice: ' a', otherText: '  mine' } } });
  });

  it("maps a business error to an HttpError with the server's message, status and body, and shows it", async () => {
    server.answer(() => ({ status: 400, envelope: { code: 703, msg: '記錄已被使用', data: { id: 3 } } }));
    const error = await failure(http.request('/v1/positions/3', { method: 'DELETE' }));
    expect(error.message).toBe('記錄已被使用');
    expect(error.status).toBe(400);
    expect(error.body).toEqual({ code: 703, errors: undefined, data: { id: 3 } });
    expect(toasts()).toEqual(['記錄已被使用']);
  });

  it('hands the error to the caller without a message on screen when asked (ignoreErr)', async () => {
    server.answer(() => ({ status: 400, envelope: { code: 703, msg: '記錄已被使用', data: null } }));
    const error = await failure(http.request('/v1/positions/3', { method: 'DELETE', ignoreErr: true }));
    expect(error.body.code).toBe(703);
    expect(notices).toEqual([]);
  });

  it("says 'operation failed' for an error without a message", async () => {
    server.answer(() => ({ status: 403, envelope: { code: 405, msg: '', data: null } }));
    const error = await failure(http.request('/v1/roles'));
    expect(error.message).toBe('操作失敗');
    expect(error.status).toBe(403);
    expect(toasts()).toEqual(['操作失敗']);
  });

  it("hands a 422's field errors to the form in body.errors, without a toast", async () => {
    const fields = [{ field: 'email', message: '電郵格式不正確' }];
    server.answer(() => ({ status: 422, envelope: { code: 422, msg: '資料不正確', data: fields } }));
    const error = await failure(http.request('/v1/teachers', { method: 'POST', body: { email: 'x' } }));
    expect(error.status).toBe(422);
    expect(error.body.errors).toEqual(fields);
    expect(notices).toEqual([]);
  });

  it.each([
    ['a server failure (500)', { status: 500, envelope: { code: 500, msg: 'TypeError: x is undefined', data: null } }],
    ['code 400', { status: 400, envelope: { code: 400, msg: 'stack', data: null } }],
    ['an answer that is not JSON (502)', { status: 502, body: '<html>Bad gateway</html>', contentType: 'text/html' }],
  ])('shows the general system error for %s, never its text', async (_, answer) => {
    server.answer(() => answer);
    const error = await failure(http.request('/v1/statistics'));
    expect(error.message).toBe('系統發生錯誤，請聯絡系統管理員');
    expect(error.status).toBe(answer.status);
    expect(toasts()).toEqual(['系統發生錯誤，請聯絡系統管理員']);
  });

  it('opens the import-errors dialog for 706 and the download-errors dialog for 719', async () => {
    server.answer(() => ({ status: 400, envelope: { code: 706, msg: 'x', data: ['第 2 行：電郵格式不正確', '第 5 行：重複'] } }));
    await failure(http.request('/v1/students/import', { method: 'POST', body: {} }));
    server.answer(() => ({ status: 400, envelope: { code: 719, msg: '甲\n乙', data: null } }));
    await failure(http.request('/v1/students/export'));
    expect(notices).toEqual([
      { kind: 'import-errors', lines: ['第 2 行：電郵格式不正確', '第 5 行：重複'] },
      { kind: 'download-errors', lines: ['甲', '乙'] },
    ]);
  });

  it("answers a file as a Blob, and a file call's JSON error as an HttpError", async () => {
    server.answer(() => ({ body: Buffer.from('PK\u0003\u0004xlsx'), contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }));
    const file = await http.request<Blob>('/v1/students/export', { blob: true });
    expect(file.size).toBe(8);
    expect(file.type).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    server.answer(() => ({ status: 400, envelope: { code: 704, msg: '沒有資料', data: null } }));
    expect((await failure(http.request('/v1/students/export', { blob: true }))).message).toBe('沒有資料');
  });

  it("says 'try again later' (status 0) when no answer comes: a dropped connection, or the time-out", async () => {
    server.answer(() => ({ drop: true }));
    const dropped = await failure(http.request('/v1/questionnaires'));
    expect(dropped.status).toBe(0);
    expect(dropped.message).toBe('發生錯誤，請稍後再試');

    server.answer(() => ({ delayMs: 5_000 }));
    const started = Date.now();
    const slow = await failure(http.request('/v1/questionnaires', { timeoutMs: 100 }));
    expect(slow.status).toBe(0);
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(toasts()).toEqual(['發生錯誤，請稍後再試', '發生錯誤，請稍後再試']);
  });

  describe('an expired session (401 or 444)', () => {
    it('logs out, alerts once, and reloads the page 300 ms later', async () => {
      logIn(7);
      const navigation = watchNavigation();
      try {
        server.answer(() => ({ status: 401, envelope: { code: 401, msg: '登入已過期', data: null } }));
        const error = await failure(http.request('/v1/questionnaires'));
        expect(error.status).toBe(401);
        expect(error.body.code).toBe(401);
        expect(session.getToken()).toBeNull();
        expect(session.getStoredUserId()).toBeNull();
        expect(alert).toHaveBeenCalledExactlyOnceWith('登入資料已過期，請重新登入');
        expect(navigation.count()).toBe(0);
        await vi.waitFor(() => expect(navigation.count()).toBe(1), { timeout: 2_000 });

        // a second expired answer of the same page: no second alert
        logIn(7);
        server.answer(() => ({ status: 401, envelope: { code: 444, msg: '', data: null } }));
        await failure(http.request('/v1/statistics'));
        expect(alert).toHaveBeenCalledTimes(1);
        expect(notices).toEqual([]);
      } finally {
        navigation.stop();
      }
    });

    it('is no news for a call made without a session, or with quietSession (logout itself)', async () => {
      server.answer(() => ({ status: 401, envelope: { code: 401, msg: '', data: null } }));
      expect((await failure(http.request('/v1/my/user-info'))).status).toBe(401);
      logIn(7);
      await failure(http.request('/v1/logout', { method: 'POST', quietSession: true }));
      expect(alert).not.toHaveBeenCalled();
      expect(session.getToken()).toBe(tokenFor(7));
    });

    it("is no news when a new login replaced the token while the call was under way", async () => {
      logIn(7);
      server.answer(() => ({ status: 401, delayMs: 100, envelope: { code: 401, msg: '', data: null } }));
      const call = failure(http.request('/v1/questionnaires'));
      await vi.waitFor(() => expect(server.received).toHaveLength(1));
      logIn(8);
      await call;
      expect(alert).not.toHaveBeenCalled();
      expect(session.getToken()).toBe(tokenFor(8));
    });
  });

  it("refuses to send a call when the stored token's jti is not the stored user id: logged out, alerted", async () => {
    session.saveSession(tokenFor(7), 8);
    const error = await failure(http.request('/v1/questionnaires'));
    expect(error.status).toBe(401);
    expect(server.received).toEqual([]);
    expect(session.getToken()).toBeNull();
    expect(alert).toHaveBeenCalledExactlyOnceWith('登入資料已過期，請重新登入');
  });

  it('refuses to send a call when another tab logged in as someone else, and goes to the dashboard', async () => {
    logIn(7);
    session.setCurrentUserId('7');
    logIn(8); // the other tab's login, in the shared local storage
    const navigation = watchNavigation();
    try {
      const error = await failure(http.request('/v1/questionnaires'));
      expect(error.status).toBe(401);
      expect(error.message).toBe('登入資料已變更，確認後頁面將重新載入');
      expect(server.received).toEqual([]);
      expect(alert).toHaveBeenCalledExactlyOnceWith('登入資料已變更，確認後頁面將重新載入');
      expect(navigation.count()).toBe(1);
      expect(session.getToken()).toBe(tokenFor(8));
    } finally {
      navigation.stop();
    }
  });

  describe('while the page unloads', () => {
    const pending = Symbol('pending');
    /** `pending` when the call has not settled 300 ms after the server got it */
    async function settled(send: () => Promise<unknown>) {
      const seen = server.received.length;
      const call = send();
      await vi.waitFor(() => expect(server.received.length).toBeGreaterThan(seen));
      return Promise.race([call.then(() => 'answered', () => 'failed'), new Promise((r) => setTimeout(() => r(pending), 300))]);
    }

    it('leaves a call the browser cut off unanswered, with nothing on screen and the session kept', async () => {
      logIn(7);
      server.answer(() => ({ drop: true }));
      window.dispatchEvent(new Event('pagehide'));
      try {
        expect(await settled(() => http.request('/v1/questionnaires'))).toBe(pending);
        server.answer(() => ({ status: 401, envelope: { code: 401, msg: '', data: null } }));
        expect(await settled(() => http.request('/v1/questionnaires'))).toBe(pending);
        expect(notices).toEqual([]);
        expect(alert).not.toHaveBeenCalled();
        expect(session.getToken()).toBe(tokenFor(7));
      } finally {
        window.dispatchEvent(new Event('pageshow'));
      }
      // back on the page (from the back-forward cache): failures are news again
      server.answer(() => ({ drop: true }));
      expect((await failure(http.request('/v1/questionnaires'))).status).toBe(0);
    });

    it('answers calls again when a screen with unsaved changes kept the page (beforeunload cancelled)', async () => {
      const keep = (e: Event) => e.preventDefault();
      window.addEventListener('beforeunload', keep);
      try {
        window.dispatchEvent(new Event('beforeunload', { cancelable: true }));
      } finally {
        window.removeEventListener('beforeunload', keep);
      }
      await new Promise((r) => setTimeout(r, 10));
      server.answer(() => ({ drop: true }));
      expect((await failure(http.request('/v1/questionnaires'))).status).toBe(0);
      expect(toasts()).toEqual(['發生錯誤，請稍後再試']);
    });
  });
});

describe('upload', () => {
  const form = (bytes = 256 * 1024) => {
    const data = new FormData();
    data.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), 'students.xlsx');
    return data;
  };

  it('posts the file as multipart with the same headers, reports its progress, and answers the data', async () => {
    // jsdom reports upload progress only to an upload that has a listener added with addEventListener
    // (a browser reports it to `upload.onprogress` too), and never knows the length of a multipart
    // body: give every upload a listener, and report a quarter sent as a browser would
    const send = XMLHttpRequest.prototype.send;
    vi.spyOn(XMLHttpRequest.prototype, 'send').mockImplementation(function (this: XMLHttpRequest, body) {
      this.upload.addEventListener('progress', () => undefined);
      this.upload.dispatchEvent(new ProgressEvent('progress', { lengthComputable: true, loaded: 64, total: 256 }));
      send.call(this, body);
    });
    logIn(7);
    server.answer(() => ({ envelope: { code: 200, msg: 'ok', data: { imported: 12 } } }));
    const progress: (number | null)[] = [];
    expect(await uploads.upload('/v1/students/import', form(), (f) => progress.push(f))).toEqual({ imported: 12 });
    const [got] = server.received;
    expect(got.method).toBe('POST');
    expect(got.path).toBe('/v1/students/import');
    expect(got.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(got.headers).toMatchObject({ 'accept-language': 'zh-HK', 'x-device': 'Web', 'x-system': 'QE', authorization: `Bearer ${tokenFor(7)}` });
    expect(got.body.toString('latin1')).toContain('filename="students.xlsx"');
    expect(got.body.length).toBeGreaterThan(256 * 1024);
    // the fraction sent while sending (null when the length is unknown), then null: all sent, the server is working on it
    expect(progress[0]).toBe(0.25);
    expect(progress.slice(1)).toEqual([null, null]);
  });

  it('opens the import-errors dialog for 706 and hands a 422 to the caller', async () => {
    logIn(7);
    server.answer(() => ({ status: 400, envelope: { code: 706, msg: '匯入失敗', data: ['第 3 行：學生編號須以 S 開首'] } }));
    const error = await failure(uploads.upload('/v1/students/import', form(10)));
    expect(error.body.code).toBe(706);
    expect(notices).toEqual([{ kind: 'import-errors', lines: ['第 3 行：學生編號須以 S 開首'] }]);

    server.answer(() => ({ status: 422, envelope: { code: 422, msg: '只接受 Excel 檔案', data: [{ field: 'file' }] } }));
    const invalid = await failure(uploads.upload('/v1/students/import', form(10)));
    expect(invalid.status).toBe(422);
    expect(invalid.message).toBe('只接受 Excel 檔案');
    expect(invalid.body.errors).toEqual([{ field: 'file' }]);
  });

  it('ends an expired session as request() does', async () => {
    logIn(7);
    server.answer(() => ({ status: 401, envelope: { code: 401, msg: '', data: null } }));
    const error = await failure(uploads.upload('/v1/students/import', form(10)));
    expect(error.status).toBe(401);
    expect(session.getToken()).toBeNull();
    expect(alert).toHaveBeenCalledExactlyOnceWith('登入資料已過期，請重新登入');
  });

  it("says 'try again later' when the connection drops", async () => {
    logIn(7);
    server.answer(() => ({ drop: true }));
    const error = await failure(uploads.upload('/v1/students/import', form(10)));
    expect(error.status).toBe(0);
    expect(toasts()).toEqual(['發生錯誤，請稍後再試']);
  });
});
