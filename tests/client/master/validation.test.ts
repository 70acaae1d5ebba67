import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { fieldMessage } from '../../../src/shared/field-messages';
import { masterEntities } from '../../../src/shared/generated/master-entities';
import { loadValidators, toFieldErrors, validateRecord } from '../../../src/client/master/validation';
import { toPayload } from '../../../src/client/master/schema';
import { validatorSource } from '../../../scripts/codegen-validators';

const { student, teacher, schoolYear, gradeClass, mailSetting } = masterEntities;
const okStudent = { code: 'S001', username: 's001', password: 'secret1', nameHk: '陳大文', nameEn: 'Chan Tai Man' };
const okTeacher = { code: 'T01', username: 't01', password: 'secret1', nameHk: '李老師', nameEn: 'Lee' };

beforeAll(loadValidators);

describe('form validation from the schemas (ajv, compiled ahead of time)', () => {
  it('accepts a valid record', () => {
    expect(validateRecord(student, 'add', okStudent, 'zh-hk')).toEqual({});
    expect(validateRecord(teacher, 'add', { ...okTeacher, email: 'lee@school.edu.hk', status: '1', seq: 3 }, 'en')).toEqual({});
  });

  it('an account’s full-width user name is checked and sent as the ordinary one (src/shared/usernames.ts)', () => {
    expect(validateRecord(student, 'add', { ...okStudent, username: ' ｆｕｌｌ１２３\u3000' }, 'en')).toEqual({});
    expect(toPayload(student, 'add', { ...okStudent, username: 'ｆｕｌｌ１２３' }).username).toBe('full123');
    expect(toPayload(teacher, 'edit', { ...okTeacher, username: 'ＬＥＥ．ｔ０１' }).username).toBe('LEE.t01');
    expect(validateRecord(student, 'add', { ...okStudent, username: '陳大文' }, 'en')).toHaveProperty('username');
  });

  it('a student code that does not begin with S gets the studentCode message, in both languages', () => {
    expect(validateRecord(student, 'add', { ...okStudent, code: 'X1' }, 'zh-hk')).toEqual({ code: fieldMessage('studentCode', 'zh-hk') });
    expect(validateRecord(student, 'add', { ...okStudent, code: 'X1' }, 'en')).toEqual({ code: 'The student code must begin with S' });
  });

  it('asks for the names in the languages the school requires, and only those (its language list)', () => {
    const { nameEn: _en, ...noEnglish } = okTeacher;
    expect(validateRecord(teacher, 'add', noEnglish, 'en')).toEqual({ nameEn: fieldMessage('required', 'en') });
    expect(validateRecord(teacher, 'add', { ...noEnglish, nameEn: '' }, 'en', ['zh-hk'])).toEqual({});
    expect(validateRecord(teacher, 'edit', { ...okTeacher, nameHk: '' }, 'zh-hk', ['zh-hk'])).toEqual({ nameHk: fieldMessage('required', 'zh-hk') });
    expect(validateRecord(teacher, 'edit', { ...okTeacher, nameHk: null }, 'en', ['en'])).toEqual({});
  });

  it('a wrong Google address gets the e-mail message; empty is allowed', () => {
    expect(validateRecord(teacher, 'add', { ...okTeacher, googleMail: 'lee at gmail' }, 'en').googleMail).toBe('Please enter a correct email address');
    expect(validateRecord(teacher, 'add', { ...okTeacher, googleMail: null }, 'en')).toEqual({});
  });

  it('a wrong e-mail gets the e-mail message', () => {
    expect(validateRecord(teacher, 'add', { ...okTeacher, email: 'not-an-address' }, 'zh-hk').email).toBe('請輸入正確的電郵地址');
    expect(validateRecord(teacher, 'add', { ...okTeacher, email: 'a@b.c' }, 'en').email).toBe('Please enter a correct email address');
    // empty is allowed: the field is optional (sent as null)
    expect(validateRecord(teacher, 'add', { ...okTeacher, email: null }, 'en')).toEqual({});
  });

  it('a password outside 6 to 15 characters gets the password message', () => {
    const expected = fieldMessage('password', 'en');
    expect(validateRecord(teacher, 'add', { ...okTeacher, password: 'abc' }, 'en').password).toBe(expected);
    expect(validateRecord(teacher, 'add', { ...okTeacher, password: 'x'.repeat(16) }, 'en').password).toBe(expected);
    expect(validateRecord(teacher, 'add', { ...okTeacher, password: 'x'.repeat(15) }, 'en')).toEqual({});
  });

  it('required fields: missing or emptied values say "required"; a length limit names its limit', () => {
    const errors = validateRecord(teacher, 'add', { username: 't', nameHk: '', nameEn: 'E', abbr: 'x'.repeat(11) }, 'zh-hk');
    expect(errors).toMatchObject({ code: '必填', password: '必填', nameHk: '必填', abbr: '最多 10 個字元' });
  });

  it('on edit the password is not asked for, but the other required fields still are', () => {
    const record = { id: 5, code: 'T01', username: 't01', nameHk: '李', nameEn: 'Lee', googleMail: 'x@gmail.com', positionId: null };
    expect(validateRecord(teacher, 'edit', record, 'en')).toEqual({});
    expect(validateRecord(teacher, 'edit', { ...record, nameEn: null }, 'en')).toEqual({ nameEn: 'Required' });
  });

  it('a start date after its end date gets the date-range message, for the record and for its child rows', () => {
    const year = { name: '2025/26', beginDate: '2026-09-01', endDate: '2026-08-31', yearStatus: '0', terms: [] };
    expect(validateRecord(schoolYear, 'add', year, 'zh-hk')).toEqual({ endDate: fieldMessage('dateRange', 'zh-hk') });
    const terms = [
      { nameHk: '上學期', nameEn: 'First term', beginDate: '2025-09-01', endDate: '2026-01-31' },
      { nameHk: '下學期', nameEn: 'Second term', beginDate: '2026-07-01', endDate: '2026-02-01' },
    ];
    const errors = validateRecord(schoolYear, 'add', { ...year, beginDate: '2025-09-01', endDate: '2026-08-31', terms }, 'en');
    expect(errors).toEqual({ 'terms.1.endDate': fieldMessage('dateRange', 'en') });
    expect(toFieldErrors(errors)).toEqual({ terms: [undefined, { endDate: { type: 'manual', message: fieldMessage('dateRange', 'en') } }] });
  });

  it('child rows are checked by their own schema', () => {
    const errors = validateRecord(gradeClass, 'add', { code: 'P1', nameHk: '一年級', nameEn: 'Primary 1', classes: [{ code: '1 A', nameHk: '1A', nameEn: '' }] }, 'en');
    expect(errors).toEqual({ 'classes.0.code': 'Wrong format', 'classes.0.nameEn': 'Required' });
  });

  it('the payload holds only what the create or update schema accepts', () => {
    const record = { id: 5, code: 'T01', username: 't01', nameHk: '李', nameEn: 'Lee', googleMail: 'x@gmail.com', email: null, seq: null, password: 'ignored' };
    expect(toPayload(teacher, 'edit', record)).toEqual({ code: 'T01', username: 't01', nameHk: '李', nameEn: 'Lee', googleMail: 'x@gmail.com', email: null });
    // the single mail setting is saved with its create schema; a blank SMTP password keeps the stored one
    expect(toPayload(mailSetting, 'add', { id: 1, host: 'smtp', password: null, port: 25 })).toEqual({ host: 'smtp', port: 25 });
    expect(toPayload(mailSetting, 'add', { id: 1, host: 'smtp', password: 'pw', port: 25 })).toEqual({ host: 'smtp', password: 'pw', port: 25 });
  });

  it('the compiled validators are up to date with the schemas (regenerate: npm run codegen)', () => {
    const committed = readFileSync('src/client/master/generated/validators.ts', 'utf8');
    expect(committed === validatorSource(masterEntities)).toBe(true);
    // no eval at run time: the page's Content-Security-Policy forbids it
    expect(committed).not.toMatch(/new Function|eval\(|require\(/);
  });
});
