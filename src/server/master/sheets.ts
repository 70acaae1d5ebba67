/* eslint-disable @typescript-eslint/no-explicit-any -- rows of tables named by the schemas */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import ExcelJS from 'exceljs';
import { envelopeSchema, ok } from '../plugins/envelope.js';
import { BusinessError, requestLang } from '../plugins/errors.js';
import { hashPassword } from '../auth/passwords.js';
import { fieldMessage, ruleOf } from '../../shared/field-messages.js';
import { interpolate, type Lang } from '../../shared/errors.js';
import { choiceLabel, fieldLabel } from '../../shared/master/labels.js';
import { columnOf, propertyMeta, type PropertySchema } from '../../shared/master/entity.js';
import { PAGES } from '../../shared/permissions.js';
import type { MasterDeps } from './crud.js';
import { listQuerySchema } from './crud.js';
import { PlacesTaken, tableOf, type EntityStore, type ListQuery, type Row } from './store.js';
import type { Permission } from '../plugins/guard.js';
import { readWorkbook, WorkbookRefused } from './workbook/read.js';
import { WORKBOOK_LIMITS } from './workbook/limits.js';
import { neutralCell, restoredText } from './workbook/cells.js';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const ROW_TEXT: Record<Lang, string> = { 'zh-hk': '第 %{row} 行，%{column}：%{message}', en: 'Row %{row}, %{column}: %{message}' };
const TEMPLATE_TEXT: Record<Lang, string> = {
  'zh-hk': '匯入範本錯誤：缺少欄位 %{columns}',
  en: 'Import template error: missing columns %{columns}',
};
const EMPTY_TEXT: Record<Lang, string> = { 'zh-hk': '檔案沒有資料', en: 'The file holds no data' };

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, verbose: true, coerceTypes: false, useDefaults: true, keywords: ['x-qe', 'x-qe-rule'] });
addFormats.default(ajv);

/** The columns of an entity's sheets: the properties marked `sheet`, or for export every shown one. */
function sheetColumns(store: EntityStore, forImport: boolean): [string, PropertySchema][] {
  return store.props.filter(([name, p]) => {
    const m = propertyMeta(p);
    if (forImport) return Boolean(m.sheet);
    return name !== 'id' && !p.writeOnly && !m.links && !m.children;
  });
}

function today() {
  return new Date().toISOString().slice(0, 10);
}

async function sendWorkbook(reply: FastifyReply, workbook: ExcelJS.Workbook, name: string) {
  const buffer = await workbook.xlsx.writeBuffer();
  return reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', `attachment; filename="${name}"`)
    .send(Buffer.from(buffer as ArrayBuffer));
}

function headerRow(sheet: ExcelJS.Worksheet, labels: string[]) {
  sheet.addRow(labels.map(neutralCell)).font = { bold: true };
  sheet.columns.forEach((c, i) => (c.width = Math.max(12, labels[i].length * 2 + 4)));
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
}

/** Reference ids answered as the key the sheet writes them with (a class by its code). */
async function referenceKeys(db: any, p: PropertySchema): Promise<Map<unknown, string>> {
  const m = propertyMeta(p);
  const { table, scope } = tableOf(m.reference!.resource);
  const key = m.sheetKey ?? 'id';
  let q = db.selectFrom(table).select(['id', `${key} as key`]);
  for (const [c, v] of Object.entries(scope)) q = q.where(c, '=', v);
  const rows = await q.execute();
  return new Map(rows.map((r: Row) => [r.id, String(r.key)]));
}

/** Excel export and import of one entity, and the import template. */
export async function sheetRoutes(app: FastifyInstance, deps: MasterDeps, store: EntityStore): Promise<void> {
  const { meta } = store;
  const entityKey = store.entity.key;
  const base = `/v1/${meta.resource}`;
  const tags = [meta.resource];
  const actions = PAGES.find((p) => p.code === meta.permission)?.actions ?? [];
  const importPermission: Permission = `${meta.permission}.import`;
  const exportPermission: Permission = actions.includes('export') ? `${meta.permission}.export` : `${meta.permission}.view`;
  const db = deps.db as any;

  app.get<{ Querystring: ListQuery }>(`${base}/export`, {
    config: { permission: exportPermission },
    schema: { tags, summary: `The ${meta.resource} list as .xlsx, with the list's filters and sort (never passwords)`, querystring: listQuerySchema(store.entity) },
  }, async (request, reply) => {
    const lang = requestLang(request);
    const columns = sheetColumns(store, false);
    const { list } = await store.list({ ...request.query, page: 1, size: 100_000 });
    const refs = new Map<string, Map<unknown, string>>();
    for (const [name, p] of columns) if (propertyMeta(p).reference) refs.set(name, await referenceKeys(db, p));
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet(meta.resource);
    headerRow(sheet, columns.map(([name]) => fieldLabel(entityKey, name, lang)));
    for (const record of list) {
      sheet.addRow(columns.map(([name, p]) => {
        const v = record[name];
        if (v === null || v === undefined) return null;
        if (refs.has(name)) return neutralCell(refs.get(name)!.get(v) ?? v);
        if (p.enum) return neutralCell(choiceLabel(entityKey, name, String(v), lang));
        return neutralCell(v);
      }));
    }
    return sendWorkbook(reply, workbook, `${meta.resource}-${today()}.xlsx`);
  });

  if (!meta.importable) return;
  const importColumns = sheetColumns(store, true);

  app.get(`${base}/import-template`, {
    config: { permission: importPermission },
    schema: { tags, summary: `An empty .xlsx with the columns the ${meta.resource} import reads` },
  }, async (request, reply) => {
    const lang = requestLang(request);
    const workbook = new ExcelJS.Workbook();
    headerRow(workbook.addWorksheet(meta.resource), importColumns.map(([name]) => fieldLabel(entityKey, name, lang)));
    return sendWorkbook(reply, workbook, `${meta.resource}-template.xlsx`);
  });

  app.post(`${base}/import`, {
    config: { permission: importPermission },
    schema: { tags, summary: `Imports ${meta.resource} from .xlsx or .xls (multipart "file"): all rows or none; 706 lists every bad row`, response: { 200: envelopeSchema() } },
  }, async (request) => {
    const lang = requestLang(request);
    const rows = await readUpload(request, lang);
    const imported = await importRows(store, deps, rows, lang);
    return ok({ imported });
  });
}

/** What an import answers, in the caller's language, for a workbook it did not read (see ./workbook/refusal.mjs). */
function refusalLine(reason: 'unpacked' | 'rows' | 'unreadable' | 'complex', lang: Lang): string {
  const limit = reason === 'unpacked' ? WORKBOOK_LIMITS.unpackedBytes / 2 ** 20 : WORKBOOK_LIMITS.rows;
  return fieldMessage(`import.${reason}`, lang, { limit: limit.toLocaleString('en-US') });
}

/**
 * The first sheet of the uploaded workbook as rows of cells, read in a thread of its own under
 * limits (./workbook/read.ts); anything but .xlsx/.xls is refused (716), a workbook over a
 * limit or damaged answers 706 with a line that says which.
 */
async function readUpload(request: FastifyRequest, lang: Lang): Promise<unknown[][]> {
  if (!request.isMultipart()) throw new BusinessError('FILE_TYPE_REFUSED');
  const file = await request.file();
  if (!file) throw new BusinessError('FILE_TYPE_REFUSED');
  const buffer = await file.toBuffer();
  const name = file.filename.toLowerCase();
  const zip = buffer.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  const ole = buffer.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));
  if (!((name.endsWith('.xlsx') && zip) || (name.endsWith('.xls') && ole))) throw new BusinessError('FILE_TYPE_REFUSED');
  try {
    return await readWorkbook(buffer, zip ? 'xlsx' : 'xls');
  } catch (error) {
    if (!(error instanceof WorkbookRefused)) throw error;
    request.log.info({ reason: error.reason, detail: error.detail }, 'workbook refused');
    // more files than the reader takes at once are waiting: the caller tries again shortly (429)
    if (error.reason === 'busy') throw new BusinessError('RATE_LIMITED');
    throw new BusinessError('IMPORT_ERRORS', {}, [refusalLine(error.reason, lang)]);
  }
}

const normal = (s: string) => s.replace(/\s+/g, '').toLowerCase();

function cellText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (v instanceof Date) {
    // a date cell (midnight local in the sheet) as yyyy-MM-dd
    const d = new Date(v.getTime() - v.getTimezoneOffset() * 60_000);
    return d.toISOString().slice(0, 10);
  }
  // the quote an export puts before formula-like text comes off again (./workbook/cells.ts)
  const s = restoredText(String(v).trim());
  return s === '' ? null : s;
}

/** Validates every row, then imports all of them in one transaction — or none, answering 706 with every bad row. */
export async function importRows(store: EntityStore, deps: MasterDeps, cells: unknown[][], lang: Lang): Promise<number> {
  const entityKey = store.entity.key;
  const columns = sheetColumns(store, true);
  const [header = [], ...body] = cells;
  const fail = (lines: string[]) => new BusinessError('IMPORT_ERRORS', {}, lines);
  const index = new Map<string, number>();
  header.forEach((h, i) => {
    const text = cellText(h);
    if (!text) return;
    const match = columns.find(([name]) => [name, fieldLabel(entityKey, name, 'en'), fieldLabel(entityKey, name, 'zh-hk')].some((l) => normal(l) === normal(text)));
    if (match) index.set(match[0], i);
  });
  const required = store.entity.create.required ?? [];
  const missing = columns.filter(([name]) => required.includes(name) && !index.has(name)).map(([name]) => fieldLabel(entityKey, name, lang));
  if (missing.length) throw fail([interpolate(TEMPLATE_TEXT[lang], { columns: missing.join(', ') })]);
  const data = body.map((row, i) => ({ row: i + 2, cells: row })).filter(({ cells: r }) => r.some((c) => cellText(c) !== null));
  if (!data.length) throw fail([EMPTY_TEXT[lang]]);
  if (data.length > WORKBOOK_LIMITS.rows) throw fail([refusalLine('rows', lang)]);

  // references written by their key (a class by its code, a position by its code)
  const refKeys = new Map<string, Map<string, number>>();
  for (const [name, p] of columns) {
    if (!propertyMeta(p).reference) continue;
    const keys = await referenceKeys(deps.db, p);
    refKeys.set(name, new Map([...keys].map(([id, key]) => [normal(key), id as number])));
  }

  const lines: string[] = [];
  const rowLine = (row: number, name: string, message: string) => interpolate(ROW_TEXT[lang], { row, column: fieldLabel(entityKey, name, lang), message });
  const line = (row: number, name: string, message: string) => lines.push(rowLine(row, name, message));
  const validate = ajv.compile(store.entity.create);
  const currentYear = await store.yearId(deps.db as any);
  const records: { row: number; values: Row }[] = [];
  for (const [k, { row, cells: r }] of data.entries()) {
    // a few hundred rows at a time, so that a 10,000-row file does not hold other requests
    if (k % 250 === 249) await new Promise<void>((resolve) => setImmediate(resolve));
    const values: Row = {};
    let bad = false;
    for (const [name, p] of columns) {
      const i = index.get(name);
      const text = i === undefined ? null : cellText(r[i]);
      if (text === null) continue;
      const types = Array.isArray(p.type) ? p.type : [p.type];
      if (propertyMeta(p).reference) {
        const id = refKeys.get(name)!.get(normal(text));
        if (id === undefined) {
          line(row, name, fieldMessage('reference', lang, { value: text }));
          bad = true;
        } else values[name] = id;
      } else if (p.enum) {
        const value = p.enum.filter((v) => v !== null).map(String).find((v) => [v, choiceLabel(entityKey, name, v, 'en'), choiceLabel(entityKey, name, v, 'zh-hk')].some((l) => normal(l) === normal(text)));
        if (value === undefined) {
          line(row, name, fieldMessage('enum', lang));
          bad = true;
        } else values[name] = value;
      } else if (types.includes('integer')) {
        const n = Number(text);
        if (!Number.isInteger(n)) {
          line(row, name, fieldMessage('type', lang));
          bad = true;
        } else values[name] = n;
      } else values[name] = text;
    }
    if (!validate(values)) {
      const seen = new Set<string>();
      for (const e of validate.errors as ErrorObject[]) {
        const name = (e.instancePath.replace(/^\//, '') || (e.params as { missingProperty?: string }).missingProperty) ?? '_';
        if (seen.has(name)) continue;
        seen.add(name);
        line(row, name, fieldMessage(ruleOf(e.keyword, e.parentSchema), lang, e.params as Record<string, string | number>));
      }
      bad = true;
    }
    for (const [name, { rule, params }] of Object.entries(store.ruleErrors(values, null))) {
      line(row, name, fieldMessage(rule, lang, params));
      bad = true;
    }
    // per-year values (a class and its number) go together and need a current year, as on a single save
    const given = store.yearly.filter(([name]) => values[name] !== undefined);
    if (!bad && given.length) {
      const missing = store.yearly.find(([name]) => values[name] === undefined);
      if (missing) line(row, missing[0], fieldMessage('required', lang));
      else if (currentYear === null) line(row, given[0][0], fieldMessage('noCurrentYear', lang));
      bad = Boolean(missing) || currentYear === null;
    }
    if (!bad) records.push({ row, values });
  }

  // unique values: against each other in the file and against what is stored
  for (const field of store.meta.unique ?? []) {
    const p = store.entity.schema.properties[field];
    const firstRow = new Map<string, number>();
    const values = records.map((r) => r.values[field]).filter((v) => v !== undefined && v !== null);
    const stored = new Set<string>();
    for (let i = 0; i < values.length; i += 500) {
      const found = await (deps.db as any).selectFrom(store.meta.table).select(`${columnOf(field, p)} as v`).where(columnOf(field, p), 'in', values.slice(i, i + 500)).execute();
      for (const f of found) stored.add(String(f.v));
    }
    for (const r of records) {
      const v = r.values[field];
      if (v === undefined || v === null) continue;
      const key = String(v);
      if (stored.has(key) || firstRow.has(key)) line(r.row, field, fieldMessage('duplicate', lang, { value: key }));
      else firstRow.set(key, r.row);
    }
  }
  // a place in a class (the class and its number) is one pupil's a year: not twice in the file, not one already held
  const placeField = store.placeField;
  if (placeField && currentYear !== null) {
    const { taken, repeated } = await store.placeClashes(deps.db as any, currentYear, records.map((r) => ({ id: null, values: r.values })));
    records.forEach((r, i) => {
      const same = repeated.get(i);
      if (same) line(r.row, placeField, fieldMessage('classNumberRepeated', lang, { rows: same.map((k) => records[k].row).join(', ') }));
      else if (taken.has(i)) line(r.row, placeField, fieldMessage('classNumberTaken', lang));
    });
  }
  if (lines.length) {
    lines.sort((a, b) => Number(a.match(/\d+/)?.[0]) - Number(b.match(/\d+/)?.[0]));
    throw fail(lines);
  }

  // rows with the same initial password share one hash: a school's file usually gives one to all
  const hashes = new Map<string, string>();
  if (store.meta.account) {
    const distinct = [...new Set(records.map((r) => String(r.values.password)))];
    for (let i = 0; i < distinct.length; i += 4) {
      await Promise.all(distinct.slice(i, i + 4).map(async (pw) => hashes.set(pw, await hashPassword(pw))));
    }
  }
  try {
    await store.createMany(records.map((r) => r.values), (values) => hashes.get(String(values.password)));
  } catch (error) {
    // a number given to someone else between the check above and the writing transaction
    if (error instanceof PlacesTaken && placeField) throw fail(error.indexes.map((i) => rowLine(records[i].row, placeField, fieldMessage('classNumberTaken', lang))));
    throw error;
  }
  return records.length;
}
