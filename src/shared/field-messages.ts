import { interpolate, type Lang } from './errors.js';

/**
 * Texts for a form field that breaks a rule, keyed by the rule (ajv's keyword where one
 * exists). Server 422 answers and client-side checks use the same texts.
 */
const ENTRIES = {
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
  endInPast: { 'zh-hk': '結束日期已過', en: 'The end date has passed' },
  laterEnd: { 'zh-hk': '新的結束日期須遲於現在及原來的結束日期', en: 'The new end date must be later than now and than the current one' },
  runningEnd: {
    'zh-hk': '進行中問卷的結束日期只可延後（須遲於現在及原來的結束日期）；如要即時結束，請使用「結束」',
    en: "A running questionnaire's end date can only move later (later than now and than the current end date); to end it now, use Close",
  },
  'definition.notADefinition': { 'zh-hk': '這不是問卷的問題內容', en: 'This is not a questionnaire definition' },
  'definition.noSection': { 'zh-hk': '最少要有一個區段', en: 'There must be at least one section' },
  'definition.tooMany': { 'zh-hk': '數量太多', en: 'Too many' },
  'definition.notASection': { 'zh-hk': '這不是有效的區段', en: 'This is not a valid section' },
  'definition.duplicateId': { 'zh-hk': '編號重複', en: 'The id is used twice' },
  'definition.tooLong': { 'zh-hk': '文字太長', en: 'The text is too long' },
  'definition.unknownSection': { 'zh-hk': '此區段不存在', en: 'This section does not exist' },
  'definition.backwardJump': { 'zh-hk': '只可前往之後的區段', en: 'Can only go to a later section' },
  'definition.tooFewChoices': { 'zh-hk': '選擇項目不足（選項及列最少一個，欄最少兩個）', en: 'Not enough choices (options and rows at least one, columns at least two)' },
  'definition.notAChoice': { 'zh-hk': '這不是有效的選擇項目', en: 'This is not a valid choice' },
  'definition.required': { 'zh-hk': '必填', en: 'Required' },
  'definition.notAQuestion': { 'zh-hk': '這不是有效的問題', en: 'This is not a valid question' },
  'definition.unknownType': { 'zh-hk': '不明的題型', en: 'Unknown question type' },
  'definition.badImage': { 'zh-hk': '圖片無效', en: 'The image is not valid' },
  'definition.badScale': { 'zh-hk': '刻度須由 0 或 1 至 2 到 10', en: 'The scale must go from 0 or 1 to 2–10' },
  'definition.badRule': { 'zh-hk': '回應驗證的設定無效', en: 'The response validation is not valid' },
  'definition.badPattern': { 'zh-hk': '此格式無法使用：請檢查寫法。不支援反向參照（例如 \\1）及前瞻或後顧（例如 (?=…)、(?!…)、(?<=…)、(?<!…)），重複次數最多 1000', en: 'This pattern cannot be used: check how it is written. Back-references (such as \\1), look-ahead and look-behind (such as (?=…), (?!…), (?<=…), (?<!…)) are not supported, and a repeat is at most 1000' },
  'definition.complexPattern': { 'zh-hk': '此格式太複雜（或連同問卷其他格式太複雜），未能快速檢查答案：請減少或縮小重複次數（例如以 {1,20} 代替 {1,1000}）', en: 'This pattern is too complex (alone or with the other patterns of the questionnaire) to check answers quickly: use fewer or smaller repeats (such as {1,20} instead of {1,1000})' },
  'definition.invalid': { 'zh-hk': '無效', en: 'Not valid' },
  usernameRequired: { 'zh-hk': '請輸入用戶名稱', en: 'Please enter user name' },
  passwordRequired: { 'zh-hk': '請輸入密碼', en: 'Please enter password' },
  classNumberTaken: { 'zh-hk': '同班已有另一位學生使用此班號', en: 'Another student in this class already has this class number' },
  classNumberRepeated: { 'zh-hk': '第 %{rows} 行的班別及班號相同', en: 'Rows %{rows} give the same class and class number' },
  'import.unpacked': {
    'zh-hk': '檔案解壓後超過 %{limit} MB：請刪除不需要的工作表及內容，或把檔案分拆',
    en: 'The file is larger than %{limit} MB when unpacked: delete the sheets and content not needed, or split it into smaller files',
  },
  'import.rows': {
    'zh-hk': '工作表有多於 %{limit} 行資料：請把檔案分拆，每個不多於 %{limit} 行',
    en: 'The sheet has more than %{limit} rows of data: split it into files of at most %{limit} rows',
  },
  'import.unreadable': {
    'zh-hk': '檔案已損壞或不完整，無法讀取：請在 Excel 重新儲存後再上載',
    en: 'The file is damaged or incomplete and cannot be read: save it again in Excel and upload it again',
  },
  'import.complex': {
    'zh-hk': '讀取此檔案所需的記憶體或時間超出上限：請只保留要匯入的工作表，或把檔案分拆',
    en: 'Reading this file needs more memory or time than allowed: keep only the sheet to import, or split the file',
  },
  'import.fileSize': {
    'zh-hk': '檔案大於 %{limit} MB：請刪除不需要的工作表、圖片及內容，或把檔案分拆',
    en: 'The file is larger than %{limit} MB: delete the sheets, pictures and content not needed, or split it into smaller files',
  },
  'import.mergedHeading': {
    'zh-hk': '標題儲存格 %{cells}（%{text}）已合併：請取消合併，每欄一個標題',
    en: 'The heading cells %{cells} (%{text}) are merged: unmerge them, one heading for each column',
  },
  'import.blankHeading': {
    'zh-hk': '第 %{column} 欄有資料但沒有標題：請加上範本中的標題，或刪除此欄',
    en: 'Column %{column} holds data but has no heading: give it a heading of the template, or delete it',
  },
  'import.exists': {
    'zh-hk': '「%{value}」的記錄已存在：請選擇更新或略過已有的記錄',
    en: 'A record with "%{value}" already exists: choose to update or to skip existing records',
  },
  'import.failed': {
    'zh-hk': '寫入資料時出錯，沒有匯入任何記錄：請再次匯入檔案',
    en: 'Writing the records failed, so nothing was imported: import the file again',
  },
  leaveDateInSchool: { 'zh-hk': '在校學生不可有離校日期', en: 'A student still in school cannot have a leave date' },
  // staff personal data
  identityCard: { 'zh-hk': '證件號碼格式不正確（香港身份證例如 A123456(7)）', en: 'Wrong document number (a Hong Kong identity card looks like A123456(7))' },
  birthdayFuture: { 'zh-hk': '出生日期不可遲於今天', en: 'The birthday cannot be after today' },
} satisfies Record<string, Record<Lang, string>>;

/** A field rule's name (required, definition.badRule…). */
export type FieldRule = keyof typeof ENTRIES;

export const FIELD_MESSAGES: Record<string, Record<Lang, string>> = ENTRIES;

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
