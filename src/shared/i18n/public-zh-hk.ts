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
    signIn: {
      accounts: '以學校帳戶登入',
      or: '或',
      withMicrosoft: '以 Microsoft 帳戶登入',
      withGoogle: '以 Google 帳戶登入',
      withProvider: '以%{name}登入',
      callback: {
        title: '以學校帳戶登入',
        working: '正在登入，請稍候…',
        failed: '未能登入。',
        denied: '登入已取消，或學校的帳戶服務拒絕了登入。',
        providerError: '學校的帳戶服務回報問題（%{error}）。',
        providerSaid: '訊息：%{description}',
        invalid: '此登入網址不完整，請返回登入頁面重新開始。',
        unknown: '此登入在另一個視窗或分頁開始，或已開始太久，請返回登入頁面重新開始。',
        toLogin: '返回登入頁面',
        retry: '再試一次',
        close: '關閉',
      },
      report: {
        title: '登入測試',
        passed: '測試通過：此帳戶可經此身份提供者登入。',
        failed: '測試未通過：請查看以下各項檢查。',
        checks: '檢查項目',
        ok: '通過',
        notOk: '未通過',
        steps: {
          discovery: '提供者設定（discovery）',
          keys: '簽署金鑰',
          token: '以授權碼換取權杖',
          idToken: 'ID 權杖',
          email: '電郵地址',
          domain: '電郵網域',
          account: 'QE 帳戶',
          role: '角色是否允許',
        },
        claims: '提供者提供的資料',
        subject: '識別碼（sub）',
        email: '電郵',
        emailVerified: '電郵已驗證',
        name: '姓名',
        yes: '是',
        no: '否',
        none: '（沒有）',
        account: '找到的 QE 帳戶',
        accountLine: '%{name}（%{userType}）',
        noAccount: '沒有相符的 QE 帳戶。',
        userType: {
          SUPER_ADMIN: '超級管理員',
          ADMIN: '管理員',
          TEACHER: '教師',
          STUDENT: '學生',
        },
      },
    },
    error: {
      operationFailed: '操作失敗',
      tryLater: '發生錯誤，請稍後再試',
    },
  },
};

export default publicZhHk;
