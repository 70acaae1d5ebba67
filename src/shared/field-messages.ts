import { interpolate, type Lang } from './errors.js';

/**
 * Texts for a form field that breaks a rule, keyed by the rule (ajv's keyword where one
 * exists). Server 422 answers and client-side checks use the same texts.
 */
export const FIELD_MESSAGES: Record<string, Record<Lang, string>> = {
  required: { 'zh-hk': '必填', en: 'Required' },
  minLength: { 'zh-hk': '最少 %{limit} 個字元', en: 'At least %{limit} characters' },
  maxLength: { 'zh-hk': '最多 %{limit} 個字元', en: 'At most %{limit} characters' },
  minimum: { 'zh-hk': '不可小於 %{limit}', en: 'Must be at least %{limit}' },
  maximum: { 'zh-hk': '不可大於 %{limit}', en: 'Must be at most %{limit}' },
  pattern: { 'zh-hk': '格式不正確', en: 'Wrong format' },
  format: { 'zh-hk': '格式不正確', en: 'Wrong format' },
  type: { 'zh-hk': '類型不正確', en: 'Wrong type' },
  enum: { 'zh-hk': '不是可選的值', en: 'Not one of the allowed values' },
  additionalProperties: { 'zh-hk': '不接受此欄位', en: 'This field is not accepted' },
  password: { 'zh-hk': '密碼長度須為 6 至 15 個字元', en: 'The password must be 6 to 15 characters long' },
  oldPasswordWrong: { 'zh-hk': '舊密碼不正確', en: 'The old password is incorrect' },
  passwordMismatch: { 'zh-hk': '兩次輸入的密碼不一致', en: 'The two passwords do not match' },
  email: { 'zh-hk': '請輸入正確的電郵地址', en: 'Please enter a correct email address' },
  studentCode: { 'zh-hk': '學生編號須以 S 開頭', en: 'The student code must begin with S' },
  dateRange: { 'zh-hk': '開始日期不可遲於結束日期', en: 'The start date must not be after the end date' },
  duplicate: { 'zh-hk': '「%{value}」已被使用', en: '"%{value}" is already in use' },
  reference: { 'zh-hk': '找不到所選的記錄', en: 'The chosen record does not exist' },
  noCurrentYear: { 'zh-hk': '未設定本學年，不能編排班別', en: 'No current school year is set, so no class can be given' },
  leaveDate: { 'zh-hk': '離校學生須填寫離校日期', en: 'A student who has left needs a leave date' },
  termInYear: { 'zh-hk': '學期須在學年的日期之內', en: 'A term must lie within its school year' },
  currentYear: { 'zh-hk': '必須有一個本學年', en: 'One school year must be the current one' },
  usernameRequired: { 'zh-hk': '請輸入用戶名稱', en: 'Please enter user name' },
  passwordRequired: { 'zh-hk': '請輸入密碼', en: 'Please enter password' },
};

export function fieldMessage(rule: string, lang: Lang, params: Record<string, string | number> = {}): string {
  const entry = FIELD_MESSAGES[rule] ?? FIELD_MESSAGES.format;
  return interpolate(entry[lang], params);
}

/**
 * The FIELD_MESSAGES rule for an ajv error: the property's own `x-qe-rule` (email, studentCode,
 * password) when its pattern or length fails, else ajv's keyword.
 */
export function ruleOf(keyword: string, parentSchema?: unknown): string {
  const own = (parentSchema as { 'x-qe-rule'?: string } | undefined)?.['x-qe-rule'];
  return own && ['pattern', 'minLength', 'maxLength', 'format'].includes(keyword) ? own : keyword;
}
