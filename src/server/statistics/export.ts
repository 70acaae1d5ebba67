import type { Lang } from '../../shared/errors.js';
import { definitionIn, titleIn } from '../../shared/questionnaire/languages.js';
import { QUESTION_TYPES, type Definition, type QuestionType } from '../../shared/questionnaire/definition.js';
import type { Answer } from '../../shared/questionnaire/answers.js';
import { QUESTION_TYPE_RULES, type AnswerColumn, type ColumnsOf as QuestionColumns, type ExportTranslate } from '../../shared/questionnaire/question-types/index.js';
import { messageText } from '../../shared/master/labels.js';
import { composedKey } from '../../shared/i18n/keys.js';
import type { AppMessages } from '../../shared/i18n/app-en.js';
import type { StatisticsDetail, StatisticsFilter, Withheld } from '../../shared/statistics/types.js';
import { gridCells, summaryLines } from '../../shared/statistics/rows.js';
import { assertNever } from '../../shared/exhaustive.js';
import type { DB } from '../db/connect.js';
import { readAside } from '../db/read-aside.js';
import { schoolDateTime } from '../../shared/school-clock.js';
import { filtered } from './filters.js';
import type { Scoped } from './scoped.js';
import { numberedReplies } from './replies.js';
import { neutralCell } from '../master/workbook/cells.js';
import { XlsxWriter, type CellValue } from './xlsx-writer.js';

/** The note of a withheld result: a group too small, or too few replies in all. */
const withheldKey = (w: Withheld) => (w.reason === 'total' ? 'withheldTotal' : 'withheld');

/** The export's own texts (qe.statisticsExport), by their key in that group. */
type Translate = ExportTranslate;
type Column = AnswerColumn;
/** A question's columns in the raw sheet, under `header` (its number and title). */
type ColumnsOf = QuestionColumns;

/**
 * The raw sheet's columns of a question, by type (its module's `answerColumns`): one per question,
 * one per row of a grid; choices by their labels, an 'other' with its text.
 */
export const ANSWER_COLUMNS = Object.fromEntries(QUESTION_TYPES.map((t) => [t, QUESTION_TYPE_RULES[t].answerColumns])) as Record<QuestionType, ColumnsOf>;

/** Raw-answers columns: one per question, one per row of a grid. */
function columnsOf(definition: Definition): Column[] {
  const columns: Column[] = [];
  let n = 0;
  for (const section of definition.sections) {
    for (const q of section.questions) columns.push(...ANSWER_COLUMNS[q.type](q, `${++n}. ${q.title}`));
  }
  return columns;
}

/**
 * Adds a row (bold for headings). Text that a spreadsheet could take for a formula — answers
 * are typed by respondents — is written with a quote in front.
 */
export function put(sheet: XlsxWriter, values: CellValue[], bold: boolean | 'first' = false): Promise<void> {
  return sheet.row(values.map(neutralCell), bold);
}

/** Sheet 1: the detail's numbers, as the screen and the PDF show them. */
async function summarySheet(sheet: XlsxWriter, detail: StatisticsDetail, filterText: string, lang: Lang, t: Translate, zone: string) {
  const q = detail.questionnaire;
  // on the school's clock, as the screens show them, whatever the server's zone
  const date = (v: string | null) => schoolDateTime(v, zone);
  const head: [Parameters<Translate>[0], string | number | null][] = [
    ['title', titleIn(q, lang)],
    ['schoolYear', q.schoolYear?.name ?? ''],
    ['principal', lang === 'en' ? q.principal.nameEn : q.principal.nameHk],
    ['status', messageText(lang, `qe.questionnaire.status.${q.status}`)],
    ['type', messageText(lang, `qe.questionnaire.type.${q.type}`)],
    ['openDate', date(q.openDate)],
    ['endDate', date(q.endDate)],
    ['filter', filterText],
    ['respondentNum', detail.respondentNum],
    ['submittedNum', detail.submittedNum],
    ['responseRate', q.responseRate],
  ];
  for (const [key, value] of head) await put(sheet, [t(key), value], 'first');
  if (detail.withheld) await put(sheet, [t(withheldKey(detail.withheld), { min: detail.withheld.minGroupSize })]);
  for (const question of detail.questions) {
    await put(sheet, []);
    await put(sheet, [`${question.number}. ${question.title}`, messageText(lang, `qe.question.types.${question.type}`)], true);
    await put(sheet, [t('answered'), question.answered]);
    const s = question.summary;
    if (!s) continue;
    switch (s.kind) {
      case 'choices':
      case 'scale':
      case 'distribution':
        await put(sheet, [t('answer'), t('count'), t('percent')], true);
        // a scale's points as numbers
        for (const line of summaryLines(s)) await put(sheet, [s.kind === 'scale' ? Number(line.label) : line.label, line.count, line.percent]);
        if (s.kind === 'scale') {
          await put(sheet, [t('mean'), s.mean]);
          await put(sheet, [t('median'), s.median]);
        }
        break;
      case 'grid':
        await put(sheet, [t('row'), t('answered'), ...s.columns.flatMap((c) => [`${c.label} · ${t('count')}`, `${c.label} · ${t('percent')}`])], true);
        for (const row of s.rows) await put(sheet, [row.label, row.base, ...gridCells(s, row).flatMap((c) => [c.count, c.percent])]);
        break;
      case 'texts':
        await put(sheet, [t('textAnswers')]);
        break;
      default:
        assertNever(s, 'summary kind');
    }
  }
}

/**
 * The xlsx report of one questionnaire (docs/architecture.md#a-statistics-call): the summary and one row per reply,
 * anonymous ones numbered, never named. Written by QE's own plain writer (./xlsx-writer.ts:
 * exceljs's streaming writer took 10 s for 25,000 replies, building the workbook in memory
 * 15–17 s) into memory, so that a failure still answers 719 rather than half a file.
 */
export async function statisticsWorkbook(db: DB, scoped: Scoped, detail: StatisticsDetail, filter: StatisticsFilter, lang: Lang, zone: string): Promise<Buffer[]> {
  const t = (key: keyof AppMessages['qe']['statisticsExport'], p: Record<string, string | number> = {}) => messageText(lang, `qe.statisticsExport.${key}`, p);
  const name = (n: { nameHk: string; nameEn: string }) => (lang === 'en' ? n.nameEn : n.nameHk);
  const parts = [
    filter.role ? messageText(lang, `qe.userType.${filter.role}`) : '',
    filter.gradeId ? name(detail.groups.grades.find((g) => g.id === filter.gradeId) ?? { nameHk: '', nameEn: '' }) : '',
    filter.classId ? name(detail.groups.classes.find((c) => c.id === filter.classId) ?? { nameHk: '', nameEn: '' }) : '',
  ].filter(Boolean);
  const workbook = new XlsxWriter();
  await workbook.startSheet({ name: t('summarySheet'), widths: [48, ...Array.from({ length: 11 }, () => 16)] });
  await summarySheet(workbook, detail, parts.join(' / ') || t('everyone'), lang, t, zone);

  const columns = columnsOf(definitionIn(scoped.definition, lang));
  const anonymous = scoped.row.type === 'ANONYMOUS';
  const who = anonymous ? [t('number')] : [t('role'), t('name'), t('userNo'), t('class'), t('classNumber')];
  await workbook.startSheet({ name: t('answersSheet'), frozenRows: 1, widths: [...who, t('submittedOn'), ...columns].map((_, i) => (i < who.length + 1 ? 14 : 28)) });
  const sheet = workbook;
  await put(sheet, [...who, t('submittedOn'), ...columns.map((c) => c.header)], true);
  const finish = () => workbook.finish();
  if (detail.withheld) {
    await put(sheet, [t(withheldKey(detail.withheld), { min: detail.withheld.minGroupSize })]);
    return finish();
  }
  // the rows' order first, from ids and sort keys alone (a small sort), then their answers a page
  // at a time: no sort of every reply's answers, no whole questionnaire in memory; on SQLite both
  // read on a thread of their own (db/read-aside.ts), so the event loop is free meanwhile
  const PAGE = 500;
  // a page read ahead that fails is awaited (and its error thrown) in turn, or never if the
  // export stopped before: not an unhandled rejection meanwhile
  const ahead = <T>(reading: Promise<T>) => {
    reading.catch(() => undefined);
    return reading;
  };
  if (anonymous) {
    const order = await readAside(db, filtered(db.selectFrom(numberedReplies(db, scoped.row.id).as('r')).select(['r.id', 'r.number', 'r.submitted_on']), 'r', filter).orderBy('r.number'));
    const pageAnswers = (i: number) => ahead(readAside(db, db.selectFrom('replies').select(['id', 'answers']).where('id', 'in', order.slice(i, i + PAGE).map((r) => r.id))));
    // the next page is read while this one is written
    let reading = order.length ? pageAnswers(0) : null;
    for (let i = 0; i < order.length; i += PAGE) {
      const page = order.slice(i, i + PAGE);
      const answers = new Map((await reading!).map((r) => [r.id, r.answers]));
      reading = i + PAGE < order.length ? pageAnswers(i + PAGE) : null;
      for (const r of page) {
        const parsed = JSON.parse(answers.get(r.id) ?? '{}') as Record<string, Answer>;
        await put(sheet, [t('anonymous', { number: Number(r.number) }), r.submitted_on, ...columns.map((c) => c.value(parsed, t))]);
      }
    }
    return finish();
  }
  const joined = () =>
    filtered(
      db
        .selectFrom('replies as r')
        .innerJoin('feedback as f', 'f.id', 'r.feedback_id')
        .innerJoin('users as u', 'u.id', 'f.user_id')
        .leftJoin('classes as c', 'c.id', 'r.class_id')
        .leftJoin('student_classes as sc', (j) => j.onRef('sc.user_id', '=', 'f.user_id').onRef('sc.class_id', '=', 'r.class_id').on('sc.school_year_id', '=', scoped.yearId ?? -1))
        .where('r.questionnaire_id', '=', scoped.row.id),
      'r',
      filter,
    );
  const order = await readAside(db, joined().select('r.id').orderBy('r.respondent_role').orderBy('c.seq').orderBy('sc.student_number').orderBy('u.id'));
  const pageRows = (ids: string[]) =>
    ahead(
      readAside(
        db,
        joined()
          .select(['r.id', 'r.respondent_role', 'u.name_hk', 'u.name_en', 'u.user_no', 'c.name_hk as class_hk', 'c.name_en as class_en', 'sc.student_number', 'r.submitted_on', 'r.answers'])
          .where('r.id', 'in', ids),
      ),
    );
  const idsOf = (i: number) => order.slice(i, i + PAGE).map((r) => r.id);
  // the next page is read while this one is written
  let reading = order.length ? pageRows(idsOf(0)) : null;
  for (let i = 0; i < order.length; i += PAGE) {
    const ids = idsOf(i);
    const raw = await reading!;
    reading = i + PAGE < order.length ? pageRows(idsOf(i + PAGE)) : null;
    const byId = new Map(raw.map((r) => [r.id, r]));
    for (const id of ids) {
      const r = byId.get(id)!;
      const answers = JSON.parse(r.answers) as Record<string, Answer>;
      await put(sheet, [
        messageText(lang, composedKey(`qe.userType.${r.respondent_role ?? 'STUDENT'}`)),
        lang === 'en' ? r.name_en : r.name_hk,
        r.user_no,
        r.class_hk ? (lang === 'en' ? r.class_en : r.class_hk) : null,
        r.student_number ?? null,
        r.submitted_on,
        ...columns.map((c) => c.value(answers, t)),
      ]);
    }
  }
  return finish();
}
