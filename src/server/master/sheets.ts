/* eslint-disable @typescript-eslint/no-explicit-any -- rows of tables named by the schemas */
import { schoolClock } from '../school/clock.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type ExcelJS from 'exceljs';
import { envelopeSchema, ok } from '../plugins/envelope.js';
import { BusinessError, requestLang } from '../plugins/errors.js';
import { hashPassword } from '../auth/passwords.js';
import { fieldMessage, ruleOf } from '../../shared/field-messages.js';
import { errorText, type Lang } from '../../shared/errors.js';
import { ImportRefused, type ImportCounts, type ImportWrite } from './import-jobs.js';
import type { ImportClaim } from './import-claims.js';
import type { ImportJobView } from '../../shared/master/import-job.js';
import { choiceLabel, fieldLabel } from '../../shared/master/labels.js';
import { columnOf, missingNames, propertyMeta, type PropertySchema } from '../../shared/master/entity.js';
import { requiredLanguages } from '../school/languages.js';
import type { MasterDeps } from './deps.js';
import { listQuerySchema } from './list-query.js';
import type { EntityStore } from './store.js';
import { tableOf, type Row } from './entity-shape.js';
import { PlacesTaken, placeClashes } from './class-places.js';
import { schoolYearOf } from './entity-reads.js';
import type { ListQuery } from './list-query.js';
import { currentUser, type Permission } from '../plugins/guard.js';
import { idSchema } from '../../shared/calls/parts.js';
import { readWorkbook, WorkbookRefused, type SheetCells } from './workbook/read.js';
import { WORKBOOK_LIMITS } from './workbook/limits.js';
import { neutralCell, restoredText } from './workbook/cells.js';
import { eventLoopTurns } from '../event-loop-turns.js';
import { normaliseUsername } from '../../shared/usernames.js';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

// validateSchema: false — the same schemas were checked against JSON Schema's meta-schema when their
// routes were compiled at start (crud.ts); checking them again here meant compiling the meta-schema
// itself inside the first import, some 30 ms of one turn of the event loop
const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, verbose: true, coerceTypes: false, useDefaults: true, validateSchema: false, keywords: ['x-qe', 'x-qe-rule', 'x-qe-input'] });
addFormats.default(ajv);

/** The columns of an entity's sheets: the properties marked `sheet`, or for export every shown one. */
function sheetColumns(store: EntityStore, forImport: boolean): [string, PropertySchema][] {
  return store.props.filter(([name, p]) => {
    const m = propertyMeta(p);
    if (forImport) return Boolean(m.sheet);
    return name !== 'id' && !p.writeOnly && !m.links && !m.children;
  });
}

/** exceljs is loaded at the first sheet asked for, not at start: it is a fifth of QE's start-up. */
async function newWorkbook(): Promise<ExcelJS.Workbook> {
  const { default: excel } = await import('exceljs');
  return new excel.Workbook();
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
  const actions = meta.page.actions;
  const importPermission: Permission = `${meta.permission}.import`;
  const exportPermission: Permission = actions.includes('export') ? `${meta.permission}.export` : `${meta.permission}.view`;
  const db = deps.db as any;

  app.get<{ Querystring: ListQuery }>(`${base}/export`, {
    config: { permission: exportPermission },
    schema: { tags, summary: `The ${meta.resource} list as .xlsx, with the list's filters and sort (never passwords)`, querystring: listQuerySchema(store.entity) },
  }, async (request, reply) => {
    const lang = requestLang(request);
    const columns = sheetColumns(store, false);
    // the rows an import may write back: a super administrator is kept on their own screen
    const { list } = await store.list({ ...request.query, page: 1, size: 100_000 }, { ownOnly: true });
    const refs = new Map<string, Map<unknown, string>>();
    for (const [name, p] of columns) if (propertyMeta(p).reference) refs.set(name, await referenceKeys(db, p));
    const workbook = await newWorkbook();
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
    return sendWorkbook(reply, workbook, `${meta.resource}-${await schoolClock(deps.db).today()}.xlsx`);
  });

  if (!meta.importable) return;
  const importColumns = sheetColumns(store, true);

  app.get(`${base}/import-template`, {
    config: { permission: importPermission },
    schema: { tags, summary: `An empty .xlsx with the columns the ${meta.resource} import reads` },
  }, async (request, reply) => {
    const lang = requestLang(request);
    const workbook = await newWorkbook();
    headerRow(workbook.addWorksheet(meta.resource), importColumns.map(([name]) => fieldLabel(entityKey, name, lang)));
    return sendWorkbook(reply, workbook, `${meta.resource}-template.xlsx`);
  });

  // an entity with per-year values (a student's class and number) imports them into a chosen year
  const yearly = store.yearly.length > 0;
  app.post<{ Querystring: { existing?: ExistingChoice; schoolYearId?: number } }>(`${base}/import`, {
    config: { permission: importPermission },
    schema: {
      tags,
      summary: `Imports ${meta.resource} from .xlsx or .xls (multipart "file"): all rows or none; 706 lists every bad row. Records that exist (by ${meta.unique?.[0] ?? 'their key'}) are updated or skipped as \`existing\` says, else refused. A file with more than ${JOB_PASSWORDS} different passwords is answered once checked, with \`job\` (GET /v1/import-jobs/:id follows it); 761 while another import of this list hashes`,
      querystring: {
        type: 'object',
        additionalProperties: false,
        properties: { existing: { type: 'string', enum: ['refuse', 'update', 'skip'] }, ...(yearly ? { schoolYearId: idSchema } : {}) },
      },
      response: { 200: envelopeSchema() },
    },
  }, async (request) => {
    const lang = requestLang(request);
    const sheet = await readUpload(request, lang, meta.resource);
    // the list is this import's from its checks to its last row written (its job's, if it has one)
    const claim = await deps.jobs.claim(meta.resource);
    let outcome: ImportOutcome;
    try {
      outcome = await importSheet(store, deps, sheet, lang, request.query.existing ?? 'refuse', request.query.schoolYearId, { userId: currentUser(request).id, claim });
    } finally {
      if (!claim.handedOver) await claim.release();
    }
    // `imported` (added and updated) stays for callers that read only it; with a job, what it will be
    return ok({ imported: outcome.added + outcome.updated, ...outcome });
  });
}

/** What an import answers, in the caller's language, for a workbook it did not read (see ./workbook/refusal.mjs). */
function refusalLine(reason: 'unpacked' | 'rows' | 'unreadable' | 'complex' | 'fileSize', lang: Lang): string {
  const limit = reason === 'unpacked' ? WORKBOOK_LIMITS.unpackedBytes / 2 ** 20 : reason === 'fileSize' ? WORKBOOK_LIMITS.fileBytes / 2 ** 20 : WORKBOOK_LIMITS.rows;
  return fieldMessage(`import.${reason}`, lang, { limit: limit.toLocaleString('en-US') });
}

/**
 * The sheet to import of the uploaded workbook (the one named as the template names its sheet,
 * else the first visible one) as rows of cells, read in a thread of its own under limits
 * (./workbook/read.ts); anything but .xlsx/.xls is refused (716), a workbook over a limit or
 * damaged answers 706 with a line that says which, with the limit's number.
 */
async function readUpload(request: FastifyRequest, lang: Lang, sheetName: string): Promise<SheetCells> {
  if (!request.isMultipart()) throw new BusinessError('FILE_TYPE_REFUSED');
  const file = await request.file();
  if (!file) throw new BusinessError('FILE_TYPE_REFUSED');
  let buffer: Buffer;
  try {
    buffer = await file.toBuffer();
  } catch (error) {
    // over the upload limit: the administrator is told the limit, not only "too large"
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new BusinessError('IMPORT_ERRORS', {}, [refusalLine('fileSize', lang)]);
    throw error;
  }
  const name = file.filename.toLowerCase();
  const zip = buffer.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  const ole = buffer.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));
  if (!((name.endsWith('.xlsx') && zip) || (name.endsWith('.xls') && ole))) throw new BusinessError('FILE_TYPE_REFUSED');
  try {
    return await readWorkbook(buffer, zip ? 'xlsx' : 'xls', WORKBOOK_LIMITS, sheetName);
  } catch (error) {
    if (!(error instanceof WorkbookRefused)) throw error;
    request.log.info({ reason: error.reason, detail: error.detail }, 'workbook refused');
    // more files than the reader takes at once are waiting: the caller tries again shortly (429)
    if (error.reason === 'busy') throw new BusinessError('RATE_LIMITED');
    throw new BusinessError('IMPORT_ERRORS', {}, [refusalLine(error.reason, lang)]);
  }
}

const normal = (s: string) => s.normalize('NFKC').replace(/\s+/g, '').toLowerCase();

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

/**
 * Whether a property holds a code, an account, a number, a date or a choice rather than free
 * text: its full-width letters and digits (Ｓ０１２, typed with a Chinese input method) are read
 * as the ordinary ones (NFKC). Names and passwords are kept as typed.
 */
function normalised(p: PropertySchema): boolean {
  const types = Array.isArray(p.type) ? p.type : [p.type];
  if (p.writeOnly) return false;
  return !types.includes('string') || Boolean(p.pattern || p.format || p.enum || propertyMeta(p).reference);
}

/** A spreadsheet column's letters (1 -> A, 28 -> AB). */
function columnName(n: number): string {
  let name = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) name = String.fromCharCode(65 + ((k - 1) % 26)) + name;
  return name;
}

/**
 * An entity's row validators: a new record's, and an existing one's (no password needed, and no
 * default fills a column the sheet leaves out). Compiled once per entity, a turn of the event loop
 * each: Ajv keeps every schema object it compiled, so the copy compiled anew for each import grew
 * its cache with every file, and the two compiles held the loop about 80 ms in an import's request.
 */
const validators = new WeakMap<object, Promise<{ validate: ValidateFunction; validateExisting: ValidateFunction }>>();
function rowValidators(store: EntityStore): Promise<{ validate: ValidateFunction; validateExisting: ValidateFunction }> {
  let compiled = validators.get(store.entity.create);
  if (!compiled) {
    compiled = (async () => {
      const validate = ajv.compile(store.entity.create);
      await new Promise((resolve) => setImmediate(resolve));
      const forExisting = JSON.parse(JSON.stringify(store.entity.create)) as { $id?: string; required?: string[]; properties: Record<string, { default?: unknown }> };
      delete forExisting.$id;
      forExisting.required = (forExisting.required ?? []).filter((n) => n !== 'password');
      for (const p of Object.values(forExisting.properties)) delete p.default;
      return { validate, validateExisting: ajv.compile(forExisting) };
    })();
    compiled.catch(() => validators.delete(store.entity.create));
    validators.set(store.entity.create, compiled);
  }
  return compiled;
}

/** What an existing record (same code) in the file becomes: refused (the default), updated or skipped. */
export type ExistingChoice = 'refuse' | 'update' | 'skip';
export type ImportOutcome = ImportCounts & { job?: ImportJobView };

/**
 * More distinct passwords than this (about half a second of hashing) make the import a job:
 * the request answers once the file is checked, and the screen follows the job's progress.
 */
export const JOB_PASSWORDS = 16;

/**
 * Validates every row, then imports all of them in one transaction — or none, answering 706 with
 * every bad row, each named by its row number in the spreadsheet. Records whose code (the first
 * unique property) is stored already are updated or skipped as `existing` says; for them the
 * password is optional.
 */
export async function importSheet(store: EntityStore, deps: MasterDeps, sheet: SheetCells, lang: Lang, existing: ExistingChoice = 'refuse', schoolYearId?: number, job?: { userId: number; claim: ImportClaim }): Promise<ImportOutcome> {
  const entityKey = store.entity.key;
  const columns = sheetColumns(store, true);
  const fail = (lines: string[]) => new BusinessError('IMPORT_ERRORS', {}, lines);
  // the file is checked a slice at a time, every step of it, so that a 10,000-row file does not
  // hold other requests (SQLite's driver answers its queries within the same turn of the event loop)
  const pause = eventLoopTurns();
  // the heading row is the first that holds anything; each row keeps its number in the spreadsheet
  const numbered = sheet.rows.map((cells, i) => ({ row: sheet.rowNumbers[i], cells: cells ?? [] }));
  const filled = numbered.filter(({ cells: r }) => r.some((c) => cellText(c) !== null));
  if (!filled.length) throw fail([fieldMessage('import.noData', lang)]);
  const [{ row: headingRow, cells: header }] = filled;
  const data = filled.slice(1);
  const letter = (i: number) => columnName(sheet.firstColumn + i);

  // headings merged across columns hide a column; a column of data without a heading is read by nobody
  const headingLines: string[] = [];
  for (const m of sheet.merges) {
    if (m.from.row > headingRow || m.to.row < headingRow || (m.from.column === m.to.column && m.from.row === m.to.row)) continue;
    const text = cellText(header[m.from.column - sheet.firstColumn]) ?? '';
    headingLines.push(fieldMessage('import.mergedHeading', lang, { cells: `${columnName(m.from.column)}${m.from.row}:${columnName(m.to.column)}${m.to.row}`, text }));
  }
  const width = Math.max(header.length, ...data.map((d) => d.cells.length));
  for (let i = 0; i < width; i++) {
    if (cellText(header[i]) !== null) continue;
    if (sheet.merges.some((m) => m.from.row <= headingRow && m.to.row >= headingRow && m.from.column - sheet.firstColumn <= i && m.to.column - sheet.firstColumn >= i)) continue;
    if (data.some((d) => cellText(d.cells[i]) !== null)) headingLines.push(fieldMessage('import.blankHeading', lang, { column: letter(i) }));
  }

  const index = new Map<string, number>();
  header.forEach((h, i) => {
    const text = cellText(h);
    if (!text) return;
    const match = columns.find(([name]) => [name, fieldLabel(entityKey, name, 'en'), fieldLabel(entityKey, name, 'zh-hk')].some((l) => normal(l) === normal(text)));
    if (match) index.set(match[0], i);
  });
  const languages = await requiredLanguages(deps.db);
  const today = await schoolClock(deps.db).today();
  const required = [...(store.entity.create.required ?? []), ...missingNames(store.entity.schema, {}, languages)];
  // an account's password is asked row by row: records that exist keep theirs
  const missing = columns
    .filter(([name]) => required.includes(name) && !index.has(name) && !(store.meta.account && name === 'password'))
    .map(([name]) => fieldLabel(entityKey, name, lang));
  if (missing.length) headingLines.push(fieldMessage('import.missingColumns', lang, { columns: missing.join(', ') }));
  if (headingLines.length) throw fail(headingLines);
  if (!data.length) throw fail([fieldMessage('import.noData', lang)]);
  if (data.length > WORKBOOK_LIMITS.rows) throw fail([refusalLine('rows', lang)]);

  // references written by their key (a class by its code, a position by its code)
  const refKeys = new Map<string, Map<string, number>>();
  for (const [name, p] of columns) {
    if (!propertyMeta(p).reference) continue;
    await pause();
    const keys = await referenceKeys(deps.db, p);
    refKeys.set(name, new Map([...keys].map(([id, key]) => [normal(key), id as number])));
  }

  const lines: string[] = [];
  const rowLine = (row: number, name: string, message: string) => fieldMessage('import.row', lang, { row, column: fieldLabel(entityKey, name, lang), message });
  const line = (row: number, name: string, message: string) => lines.push(rowLine(row, name, message));
  const { validate, validateExisting } = await rowValidators(store);
  // the year the per-year values go into: the one asked for (404 when it does not exist), else the current one
  const currentYear = await schoolYearOf(store, deps.db as any, schoolYearId);

  // the records the file names by their code that are stored already
  const keyField = store.meta.unique?.[0];
  const keyColumn = keyField ? columnOf(keyField, store.entity.schema.properties[keyField]) : null;
  const keyIndex = keyField === undefined ? undefined : index.get(keyField);
  const storedIds = new Map<string, number>();
  if (keyField && keyColumn && keyIndex !== undefined) {
    const keys = [...new Set(data.map((d) => cellText(d.cells[keyIndex])).filter((k): k is string => k !== null).map((k) => k.normalize('NFKC')))];
    for (let i = 0; i < keys.length; i += 500) {
      await pause();
      let q = (deps.db as any).selectFrom(store.meta.table).select(['id', `${keyColumn} as k`]).where(keyColumn, 'in', keys.slice(i, i + 500));
      for (const [c, v] of Object.entries(store.meta.scope ?? {})) q = q.where(c, '=', v);
      for (const f of await q.execute()) storedIds.set(String(f.k), Number(f.id));
    }
  }

  const records: { row: number; id: number | null; values: Row }[] = [];
  let skipped = 0;
  for (const { row, cells: r } of data) {
    await pause();
    const keyText = keyIndex === undefined ? null : cellText(r[keyIndex]);
    const id = keyText === null ? null : (storedIds.get(keyText.normalize('NFKC')) ?? null);
    if (id !== null && existing === 'skip') {
      skipped++;
      continue;
    }
    if (id !== null && existing === 'refuse') {
      line(row, keyField!, fieldMessage('import.exists', lang, { value: keyText!.normalize('NFKC') }));
      continue;
    }
    const values: Row = {};
    let bad = false;
    for (const [name, p] of columns) {
      const i = index.get(name);
      const raw = i === undefined ? null : cellText(r[i]);
      if (raw === null) continue;
      const typed = name === 'username' && store.meta.account ? normaliseUsername(raw) : normalised(p) ? raw.normalize('NFKC') : raw;
      const text = propertyMeta(p).lowerCase ? typed.toLowerCase() : typed;
      const types = Array.isArray(p.type) ? p.type : [p.type];
      if (propertyMeta(p).reference) {
        const found = refKeys.get(name)!.get(normal(text));
        if (found === undefined) {
          line(row, name, fieldMessage('reference', lang, { value: text }));
          bad = true;
        } else values[name] = found;
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
    const check = id === null ? validate : validateExisting;
    if (!check(values)) {
      const seen = new Set<string>();
      for (const e of check.errors as ErrorObject[]) {
        const name = (e.instancePath.replace(/^\//, '') || (e.params as { missingProperty?: string }).missingProperty) ?? '_';
        if (seen.has(name)) continue;
        seen.add(name);
        line(row, name, fieldMessage(ruleOf(e.keyword, e.parentSchema), lang, e.params as Record<string, string | number>));
      }
      bad = true;
    }
    for (const name of missingNames(store.entity.schema, values, languages)) {
      line(row, name, fieldMessage('required', lang));
      bad = true;
    }
    const ruleErrors = { ...store.ruleErrors(values, null, today), ...store.rules.importErrors?.(values) };
    for (const [name, { rule, params }] of Object.entries(ruleErrors)) {
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
    if (!bad) records.push({ row, id, values });
  }

  // unique values: against each other in the file and against what is stored (a record updated keeps its own)
  for (const field of store.meta.unique ?? []) {
    const p = store.entity.schema.properties[field];
    const firstRow = new Map<string, number>();
    const values = records.map((r) => r.values[field]).filter((v) => v !== undefined && v !== null);
    const stored = new Map<string, number>();
    for (let i = 0; i < values.length; i += 500) {
      await pause();
      const found = await (deps.db as any).selectFrom(store.meta.table).select(['id', `${columnOf(field, p)} as v`]).where(columnOf(field, p), 'in', values.slice(i, i + 500)).execute();
      for (const f of found) stored.set(String(f.v), Number(f.id));
    }
    for (const r of records) {
      const v = r.values[field];
      if (v === undefined || v === null) continue;
      const key = String(v);
      const holder = stored.get(key);
      if ((holder !== undefined && holder !== r.id) || firstRow.has(key)) line(r.row, field, fieldMessage('duplicate', lang, { value: key }));
      else firstRow.set(key, r.row);
    }
  }
  // a place in a class (the class and its number) is one pupil's a year: not twice in the file, not one already held
  const placeField = store.placeField;
  if (placeField && currentYear !== null) {
    await pause();
    const { taken, repeated } = await placeClashes(store, deps.db as any, currentYear, records.map((r) => ({ id: r.id, values: r.values })));
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
  const passwords = store.meta.account ? [...new Set(records.filter((r) => r.values.password !== undefined).map((r) => String(r.values.password)))] : [];
  const added = records.filter((r) => r.id === null);
  const updated = records.filter((r) => r.id !== null).map((r) => ({ id: r.id!, values: r.values }));
  const counts = { added: added.length, updated: updated.length, skipped };
  const write: ImportWrite = async (hashes, within) => {
    try {
      await store.createMany(added.map((r) => r.values), (values) => hashes.get(String(values.password)), updated, currentYear ?? undefined, within);
    } catch (error) {
      // a number given to someone else between the check above and the writing transaction
      if (error instanceof PlacesTaken && placeField) throw new ImportRefused(error.indexes.map((i) => rowLine(added[i].row, placeField, fieldMessage('classNumberTaken', lang))));
      throw error;
    }
  };

  // many different passwords (each pupil their own): hashed as a job after this answer
  if (passwords.length > JOB_PASSWORDS && job) {
    return {
      ...counts,
      job: await deps.jobs.start({
        claim: job.claim,
        userId: job.userId,
        rows: records.length,
        passwords,
        counts,
        lines: { restoring: errorText('RESTORING', lang), failed: fieldMessage('import.failed', lang) },
        write,
      }),
    };
  }
  const hashes = new Map<string, string>();
  for (let i = 0; i < passwords.length; i += 4) {
    await Promise.all(passwords.slice(i, i + 4).map(async (pw) => hashes.set(pw, await hashPassword(pw))));
  }
  try {
    await write(hashes, async (trx) => job?.claim.assertHeld(trx));
  } catch (error) {
    if (error instanceof ImportRefused) throw fail(error.lines);
    throw error;
  }
  return counts;
}
