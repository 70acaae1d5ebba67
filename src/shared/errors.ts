/**
 * The business codes of the envelope (docs/errors.md). Each code has its text in
 * both languages here so that server messages and client fallbacks never drift apart.
 * `http` is the transport status the server answers with; the client reads `code`.
 */
export type Lang = 'zh-hk' | 'en';

export interface ErrorDef {
  code: number;
  http: number;
  'zh-hk': string;
  en: string;
}

export const ERRORS = {
  SYSTEM_ERROR: { code: 400, http: 500, 'zh-hk': '系統錯誤，請聯絡管理員', en: 'System error, please contact the administrator' },
  SESSION_EXPIRED: { code: 401, http: 401, 'zh-hk': '登入資料已過期，請重新登入', en: 'Login information expired, please log in again' },
  SESSION_REVOKED: { code: 444, http: 401, 'zh-hk': '登入資料已過期，請重新登入', en: 'Login information expired, please log in again' },
  RECORD_NOT_FOUND: { code: 404, http: 404, 'zh-hk': '找不到記錄', en: 'Record not found' },
  PERMISSION_DENIED: { code: 405, http: 403, 'zh-hk': '你沒有執行此操作的權限', en: 'You do not have permission for this operation' },
  INVALID_REQUEST: { code: 406, http: 400, 'zh-hk': '請求內容不正確', en: 'The request is not valid' },
  LOGIN_FAILED: { code: 700, http: 400, 'zh-hk': '用戶名稱或密碼不正確', en: 'Incorrect user name or password' },
  ACCOUNT_DISABLED: { code: 701, http: 403, 'zh-hk': '此帳戶已停用，請聯絡管理員', en: 'This account is disabled, please contact the administrator' },
  LOGIN_RATE_LIMITED: {
    code: 702,
    http: 429,
    'zh-hk': '登入失敗次數過多，請於 %{minutes} 分鐘後再試',
    en: 'Too many failed logins, please try again in %{minutes} minutes',
  },
  PASSWORD_RATE_LIMITED: {
    code: 702,
    http: 429,
    'zh-hk': '舊密碼輸入錯誤次數過多，請於 %{minutes} 分鐘後再試',
    en: 'The old password was wrong too many times, please try again in %{minutes} minutes',
  },
  OLD_PASSWORD_WRONG: { code: 703, http: 400, 'zh-hk': '舊密碼不正確', en: 'The old password is incorrect' },
  PASSWORD_RULE: { code: 704, http: 400, 'zh-hk': '密碼長度須為 6 至 15 個字元', en: 'The password must be 6 to 15 characters long' },
  ALREADY_INITIALISED: { code: 705, http: 409, 'zh-hk': '系統已完成初始設定', en: 'The system has already been set up' },
  IMPORT_ERRORS: { code: 706, http: 400, 'zh-hk': 'Excel 匯入有錯誤', en: 'Excel import has errors' },
  DUPLICATE: { code: 707, http: 409, 'zh-hk': '%{field}「%{value}」已被使用', en: '%{field} "%{value}" is already in use' },
  IN_USE: { code: 708, http: 409, 'zh-hk': '此記錄正被其他資料使用，不能刪除', en: 'This record is used by other data and cannot be deleted' },
  ILLEGAL_TRANSITION: { code: 709, http: 409, 'zh-hk': '目前狀態不允許此操作', en: 'This operation is not allowed in the current status' },
  GOOGLE_ACCOUNT_REQUIRED: {
    code: 710,
    http: 400,
    'zh-hk': '須先設定 Google 帳戶才可建立問卷',
    en: 'A Google account must be set before creating a questionnaire',
  },
  SAME_PASSWORD: { code: 711, http: 400, 'zh-hk': '新密碼不可與舊密碼相同', en: 'The new password must differ from the old one' },
  NOT_INITIALISED: { code: 712, http: 409, 'zh-hk': '系統尚未完成初始設定', en: 'The system has not been set up yet' },
  OWN_DEVELOPER_ACCESS: {
    code: 709,
    http: 409,
    'zh-hk': '此操作會令你失去角色及權限的管理權，不能執行',
    en: 'This would take away your own access to roles and permissions, so it is not done',
  },
  ALREADY_SUBMITTED: { code: 709, http: 409, 'zh-hk': '你已提交此問卷，不能再修改', en: 'You have already submitted this questionnaire; it cannot be changed' },
  NOT_OPEN_YET: { code: 709, http: 409, 'zh-hk': '問卷尚未開始', en: 'This questionnaire has not opened yet' },
  QUESTIONNAIRE_CLOSED: { code: 709, http: 409, 'zh-hk': '問卷已經結束', en: 'This questionnaire has ended' },
  NOT_A_RESPONDENT: { code: 405, http: 403, 'zh-hk': '你不是此問卷的填寫對象', en: 'You are not asked to answer this questionnaire' },
  NO_QUESTIONS: { code: 714, http: 409, 'zh-hk': '問卷最少要有一條問題', en: 'The questionnaire needs at least one question' },
  NO_AUDIENCE: { code: 715, http: 409, 'zh-hk': '請選擇目標對象', en: 'Please select target users' },
  IMAGE_REFUSED: { code: 716, http: 400, 'zh-hk': '只可上載圖片檔案（PNG、JPEG、GIF、WebP，最大 2 MB）', en: 'Only image files can be uploaded (PNG, JPEG, GIF, WebP, up to 2 MB)' },
  FILE_TYPE_REFUSED: { code: 716, http: 400, 'zh-hk': '不支援此檔案類型', en: 'This file type is not accepted' },
  MAIL_FAILED: { code: 713, http: 400, 'zh-hk': '郵件發送失敗：%{reason}', en: 'The mail could not be sent: %{reason}' },
  MAIL_SETTING_MISSING: { code: 713, http: 400, 'zh-hk': '郵件發送失敗：尚未儲存郵件設定', en: 'The mail could not be sent: no mail setting has been saved' },
  PUBLIC_URL_REQUIRED: {
    code: 713,
    http: 400,
    'zh-hk': '未能發送提示郵件：系統管理員須先設定 QE_PUBLIC_URL（用戶進入 QE 的網址），郵件內的連結才有正確地址',
    en: 'Reminders cannot be sent: the administrator must set QE_PUBLIC_URL (the address users reach QE at), so that the links in the mails point to it',
  },
  MAIL_PASSWORD_UNREADABLE: {
    code: 713,
    http: 400,
    'zh-hk': '郵件發送失敗：已儲存的 SMTP 密碼無法讀取（伺服器密鑰已更改），請在郵件設定重新輸入 SMTP 密碼',
    en: 'The mail could not be sent: the stored SMTP password can no longer be read (the server secret has changed); re-enter the SMTP password in the mail setting',
  },
  MAIL_CERTIFICATE_UNTRUSTED: {
    code: 713,
    http: 400,
    'zh-hk': '郵件發送失敗：郵件伺服器的 TLS 證書不受信任（%{reason}）。請為郵件伺服器安裝受信任的證書，或在郵件設定中允許不受信任的證書',
    en: "The mail could not be sent: the mail server's TLS certificate is not trusted (%{reason}). Give the mail server a trusted certificate, or allow an untrusted certificate in the mail setting",
  },
  NOTICE_IN_PROGRESS: {
    code: 709,
    http: 409,
    'zh-hk': '此問卷的提示郵件正在發送中，請待發送完成後再試',
    en: 'A reminder for this questionnaire is already being sent; please try again when it has finished',
  },
  OPERATION_FAILED: { code: 717, http: 400, 'zh-hk': '操作失敗', en: 'Operation failed' },
  DOWNLOAD_ERROR: { code: 719, http: 400, 'zh-hk': '下載失敗', en: 'Download failed' },
  TRY_LATER: { code: 20000, http: 503, 'zh-hk': '發生錯誤，請稍後再試', en: 'An error occurred, try again later' },
  RATE_LIMITED: { code: 20000, http: 429, 'zh-hk': '請求過於頻繁，請稍後再試', en: 'Too many requests, please try again later' },
  // requests refused before any route reads them: 406 "not valid", each with the HTTP status that says why
  REQUEST_TOO_LARGE: { code: 406, http: 413, 'zh-hk': '請求內容太大', en: 'The request is too large' },
  URL_TOO_LONG: { code: 406, http: 414, 'zh-hk': '網址太長', en: 'The address (URL) is too long' },
  UNSUPPORTED_MEDIA_TYPE: { code: 406, http: 415, 'zh-hk': '不支援此請求內容類型', en: 'This type of request content is not accepted' },
  HEADERS_TOO_LARGE: { code: 406, http: 431, 'zh-hk': '請求標頭太大', en: 'The request headers are too large' },
  REQUEST_TIMEOUT: { code: 406, http: 408, 'zh-hk': '請求逾時', en: 'The request took too long' },
  EXPECTATION_FAILED: { code: 406, http: 417, 'zh-hk': '不支援請求中的 Expect 標頭', en: 'The Expect header of the request is not supported' },
  TERM_NOT_RUNNING: { code: 20002, http: 400, 'zh-hk': '所選學期不是目前學期', en: 'The selected term is not the running term' },
  // school settings: 720–724
  LANGUAGE_REQUIRED: { code: 720, http: 400, 'zh-hk': '最少要有一種必填語言', en: 'At least one language must be required' },
  GOOGLE_NOT_CONFIGURED: {
    code: 721,
    http: 400,
    'zh-hk': '未設定 Google 登入（QE_GOOGLE_CLIENT_ID），不能要求建立問卷者綁定 Google 帳戶',
    en: 'Google sign-in is not configured (QE_GOOGLE_CLIENT_ID), so creators cannot be required to bind a Google account',
  },
  GRADUATE_GRADE_UNKNOWN: { code: 722, http: 400, 'zh-hk': '所選的畢業年級不存在', en: 'The chosen graduating grade does not exist' },
  // the role new accounts get is chosen explicitly (740-741)
  NO_DEFAULT_ROLE: {
    code: 740,
    http: 409,
    'zh-hk': '未為新的「%{userType}」帳戶指定角色，請超級管理員在「角色」中選擇一個角色給新帳戶',
    en: 'No role is set for new %{userType} accounts: a super administrator must choose one under Roles',
  },
  DEFAULT_ROLE_NEEDED: {
    code: 741,
    http: 409,
    'zh-hk': '此角色是新帳戶所得的角色，不能刪除或更改其用戶類型；請先為新帳戶選擇另一個同類角色',
    en: 'New accounts get this role, so it cannot be deleted or given another user type: first choose another role of its user type for new accounts',
  },
  // staff personal data (730–734)
  PERSONAL_NO_CHANGE: { code: 730, http: 400, 'zh-hk': '個人資料沒有任何改動', en: 'Nothing in the personal data has changed' },
  PERSONAL_REQUEST_DECIDED: { code: 731, http: 409, 'zh-hk': '此申請已經處理', en: 'This request has already been decided' },
  PERSONAL_OWN_REQUEST: { code: 732, http: 403, 'zh-hk': '不可審批自己的申請', en: 'You cannot approve or reject your own request' },
  PERSONAL_STAFF_ONLY: { code: 733, http: 403, 'zh-hk': '只有教職員可申請修改個人資料', en: 'Only staff can apply to change their personal data' },
  AVATAR_MISSING: { code: 734, http: 400, 'zh-hk': '找不到上載的頭像，請重新上載', en: 'The uploaded avatar was not found, please upload it again' },
  // the "new school year" roll-over
  ROLLOVER_DONE: { code: 725, http: 409, 'zh-hk': '學年「%{year}」已經由升班建立，不可再次升班', en: 'The school year "%{year}" was already filled by a roll-over; it cannot be run again' },
  ROLLOVER_CLASS_MISSING: { code: 726, http: 409, 'zh-hk': '下學年欠缺以下班別：%{classes}。請建立班別或更改升班對照', en: 'These classes are missing for next year: %{classes}. Create them or change the class mapping' },
  ROLLOVER_NO_CURRENT_YEAR: { code: 727, http: 409, 'zh-hk': '未設定目前學年，無法升班', en: 'There is no current school year to roll over from' },
  ROLLOVER_BAD_MAPPING: { code: 728, http: 400, 'zh-hk': '升班對照有誤，以下班別的對照不正確：%{classes}', en: 'The class mapping is not valid for these classes: %{classes}' },
  ROLLOVER_SWITCH_DATE: { code: 729, http: 400, 'zh-hk': '轉換日期須在下學年完結之前', en: 'The switch date must be before next year ends' },
  // backup and restore: 750–758
  BACKUP_RUNNING: { code: 750, http: 409, 'zh-hk': '另一個備份或還原正在進行，請待其完成後再試', en: 'Another backup or restore is running: try again when it has finished' },
  BACKUP_NOT_FOUND: { code: 751, http: 404, 'zh-hk': '找不到此備份', en: 'This backup was not found' },
  BACKUP_FOREIGN: { code: 752, http: 400, 'zh-hk': '此檔案不是 QE 的備份，現有資料沒有改動', en: 'This file is not a QE backup; the current data is unchanged' },
  BACKUP_CORRUPT: { code: 753, http: 400, 'zh-hk': '備份檔案已損壞或不完整（%{detail}），現有資料沒有改動', en: 'The backup file is damaged or incomplete (%{detail}); the current data is unchanged' },
  BACKUP_TAMPERED: { code: 754, http: 400, 'zh-hk': '備份的內容與其清單不符，可能曾被更改（%{detail}），現有資料沒有改動', en: 'The backup’s contents do not match its manifest, so it may have been changed (%{detail}); the current data is unchanged' },
  BACKUP_PASSPHRASE: { code: 755, http: 400, 'zh-hk': '密碼短語不正確，或備份曾被更改；現有資料沒有改動', en: 'The passphrase is wrong, or the backup was changed; the current data is unchanged' },
  BACKUP_PASSPHRASE_NEEDED: { code: 756, http: 400, 'zh-hk': '此備份已加密，請輸入製作備份時所用的密碼短語', en: 'This backup is encrypted: enter the passphrase it was made with' },
  BACKUP_NEWER: { code: 757, http: 400, 'zh-hk': '此備份由較新版本的 QE 製作（%{detail}），請先更新 QE 再還原；現有資料沒有改動', en: 'This backup was made by a newer QE (%{detail}): update QE, then restore; the current data is unchanged' },
  BACKUP_CONFIRM: { code: 758, http: 400, 'zh-hk': '請輸入備份的名稱以確認還原', en: 'Type the backup’s name to confirm the restore' },
  RESTORING: { code: 759, http: 409, 'zh-hk': '系統正在從備份還原資料，未能儲存；請稍候片刻再試', en: 'QE is restoring data from a backup, so nothing was saved: try again in a moment' },
  // imports hashed as a job
  IMPORT_RUNNING: { code: 761, http: 409, 'zh-hk': '另一個匯入正在設定此名單的密碼，請待其完成後再匯入', en: 'Another import into this list is still setting its passwords: import again when it has finished' },
  RESTORE_WAITED: { code: 760, http: 409, 'zh-hk': '仍有儲存工作未完成，還原未能開始，現有資料沒有改動；請稍後再試', en: 'Work that saves data was still running, so the restore did not start and the current data is unchanged: try again later' },
} as const satisfies Record<string, ErrorDef>;

export type ErrorKey = keyof typeof ERRORS;

export const SESSION_CODES = new Set([401, 444]);
export const SUCCESS_CODES = new Set([200, 201]);

export function interpolate(text: string, params: Record<string, string | number> = {}): string {
  return text.replace(/%\{(\w+)\}/g, (_, k: string) => (k in params ? String(params[k]) : `%{${k}}`));
}

export function errorText(key: ErrorKey, lang: Lang, params?: Record<string, string | number>): string {
  return interpolate(ERRORS[key][lang], params);
}
