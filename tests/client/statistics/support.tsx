import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import { AdminContext, memoryStore, TestMemoryRouter } from 'react-admin';
import { Route, Routes } from 'react-router-dom';
import { dataProvider } from '../../../src/client/providers/dataProvider';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import type { AnonymousRespondent, NamedRespondent, QuestionStatistics, StatisticsDetail, StatisticsRow } from '../../../src/shared/statistics/types';
import { percent } from '../../../src/shared/statistics/types';
import { authFor } from '../questionnaires/support';

export { fakeFetch, type FetchCall } from '../questionnaires/support';

export const VIEW = ['data-statistics.view'];
export const ALL = ['data-statistics.view', 'data-statistics.export', 'data-statistics.print'];

export function row(over: Partial<StatisticsRow> = {}): StatisticsRow {
  return {
    id: 5,
    title: '家長日意見調查',
    titleTranslation: null,
    languages: ['zh-hk'],
    schoolYear: { id: 3, name: '2024-2025' },
    principal: { id: 7, nameHk: '李老師', nameEn: 'Lee' },
    status: 'PROCESSING',
    type: 'NAMED',
    createDate: '2025-02-20T02:00:00.000Z',
    openDate: '2025-03-01T01:00:00.000Z',
    endDate: '2025-03-20T09:00:00.000Z',
    submittedNum: 12,
    respondentNum: 30,
    responseRate: percent(12, 30),
    ...over,
  };
}

const question = (over: Partial<QuestionStatistics> & Pick<QuestionStatistics, 'id' | 'type' | 'title' | 'summary'>): QuestionStatistics => ({
  number: 1,
  sectionTitle: '',
  required: false,
  answered: 0,
  ...over,
});

/** A questionnaire's results: a radio question with 'other', a grid, a scale, a date and a paragraph. */
export function detail(over: Partial<StatisticsDetail> = {}): StatisticsDetail {
  return {
    questionnaire: row(),
    filter: {},
    groups: {
      roles: [
        { role: 'STUDENT', respondentNum: 25, submittedNum: 10 },
        { role: 'TEACHER', respondentNum: 5, submittedNum: 2 },
      ],
      grades: [
        { id: 1, nameHk: '中一', nameEn: 'S1', respondentNum: 15, submittedNum: 6 },
        { id: 2, nameHk: '中二', nameEn: 'S2', respondentNum: 10, submittedNum: 4 },
      ],
      classes: [
        { id: 11, gradeId: 1, nameHk: '1A', nameEn: '1A', respondentNum: 15, submittedNum: 6 },
        { id: 21, gradeId: 2, nameHk: '2A', nameEn: '2A', respondentNum: 5, submittedNum: 2 },
        { id: 22, gradeId: 2, nameHk: '2B', nameEn: '2B', respondentNum: 5, submittedNum: 2 },
      ],
    },
    replyCount: 12,
    respondentNum: 30,
    submittedNum: 12,
    releaseBatch: null,
    withheld: null,
    questions: [
      question({
        id: 'q1',
        number: 1,
        type: 'RADIO',
        title: '你滿意今年的家長日嗎？',
        answered: 11,
        summary: {
          kind: 'choices',
          base: 11,
          choices: [
            { id: 'a', label: '滿意', count: 7, percent: percent(7, 11) },
            { id: 'b', label: '不滿意', count: 3, percent: percent(3, 11) },
            { id: '__other__', label: '其他', count: 1, percent: percent(1, 11) },
          ],
        },
      }),
      question({
        id: 'q2',
        number: 2,
        type: 'GRID_RADIO',
        title: '各項安排',
        answered: 10,
        summary: {
          kind: 'grid',
          columns: [
            { id: 'c1', label: '好' },
            { id: 'c2', label: '差' },
          ],
          rows: [
            { id: 'r1', label: '時間', base: 10, cells: [{ id: 'c1', count: 8, percent: 80 }, { id: 'c2', count: 2, percent: 20 }] },
            { id: 'r2', label: '地點', base: 9, cells: [{ id: 'c1', count: 3, percent: percent(3, 9) }, { id: 'c2', count: 6, percent: percent(6, 9) }] },
          ],
        },
      }),
      question({
        id: 'q3',
        number: 3,
        type: 'LINEAR_SCALE',
        title: '整體評分',
        answered: 4,
        summary: {
          kind: 'scale',
          base: 4,
          min: 1,
          max: 3,
          minLabel: '差',
          maxLabel: '好',
          points: [
            { value: '1', count: 1, percent: 25 },
            { value: '2', count: 0, percent: 0 },
            { value: '3', count: 3, percent: 75 },
          ],
          mean: 2.5,
          median: 3,
        },
      }),
      question({
        id: 'q4',
        number: 4,
        type: 'DATE',
        title: '方便的日子',
        answered: 2,
        summary: { kind: 'distribution', base: 2, values: [{ value: '2025-04-01', count: 2, percent: 100 }] },
      }),
      question({ id: 'q5', number: 5, type: 'PARAGRAPH', title: '其他意見', answered: 25, summary: { kind: 'texts', base: 25 } }),
    ],
    ...over,
  };
}

export const named = (over: Partial<NamedRespondent> = {}): NamedRespondent => ({
  feedbackId: 1,
  nameHk: '陳大文',
  nameEn: 'Chan Tai Man',
  role: 'STUDENT',
  userNo: 'S001',
  class: { id: 11, nameHk: '1A', nameEn: '1A' },
  classNumber: 3,
  status: 'SUBMITTED',
  submittedAt: '2025-03-02T02:00:00.000Z',
  replyId: 'r-1',
  ...over,
});

export const anonymous = (n: number): AnonymousRespondent => ({ number: n, replyId: `x-${n}`, submittedOn: '2025-03-02' });

export let location: { pathname: string; search: string } = { pathname: '', search: '' };

/** A screen of the statistics area at `path`, the real data provider over the fake fetch. */
export function renderAt(path: string, element: ReactNode, permissions = ALL) {
  return render(
    <TestMemoryRouter initialEntries={[path]} locationCallback={(l) => (location = l)}>
      <AdminContext dataProvider={dataProvider} authProvider={authFor(permissions)} i18nProvider={i18nProvider} store={memoryStore()}>
        <Routes>
          <Route path="/data-statistics/list" element={element} />
          <Route path="/data-statistics/detail" element={element} />
          <Route path="*" element={<div data-testid="elsewhere" />} />
        </Routes>
      </AdminContext>
    </TestMemoryRouter>,
  );
}

/** Wide screen by default: the layout's mobile mode starts below 1024 px. */
export function setWidth(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
}

/** chart.js needs a canvas jsdom lacks: the charts are stand-ins that say what they would draw. */
export const chartStub = () => {
  const stub = (kind: string) =>
    function Stub(props: { 'aria-label'?: string; data: { labels?: unknown[]; datasets: { data: number[] }[] } }) {
      return <canvas role="img" aria-label={props['aria-label']} data-chart={kind} data-values={JSON.stringify(props.data.datasets.map((d) => d.data))} />;
    };
  return { Bar: stub('bar'), Pie: stub('pie') };
};

