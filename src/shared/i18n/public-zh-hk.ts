import type { PublicMessages } from './public-en.js';

/** QE's Traditional Chinese texts of the screens outside the app: the zh-hk side of public-en.ts, included by app-zh-hk.ts. */
const publicZhHk: PublicMessages = {
  qe: {
    quick: { title: '正在開啟問卷', invalid: '此連結已失效，請登入後填寫問卷。', toLogin: '前往登入' },
    app: { title: '問卷系統', loading: '載入中…' },
    nav: {
      language: '語言',
      languageNow: '語言：%{name}',
    },
    login: {
      title: '登入',
      username: '用戶名稱',
      password: '密碼',
      submit: '登入',
      usernameRequired: '請輸入用戶名稱',
      passwordRequired: '請輸入密碼',
      autoLoginFailed: '自動登入失敗，請登入。',
    },
    error: {
      operationFailed: '操作失敗',
      tryLater: '發生錯誤，請稍後再試',
    },
  },
};

export default publicZhHk;
