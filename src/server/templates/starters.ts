import type { DB } from '../db/connect.js';
import { definitionErrors, type ChoiceCountRule, type Definition, type DefinitionTexts, type Question, type QuestionTexts, type QuestionType } from '../../shared/questionnaire/definition.js';
import { missingTranslations } from '../../shared/questionnaire/languages.js';
import type { AudienceKind } from '../../shared/calls/templates.js';
import { definitionColumns } from '../questionnaires/service.js';

/** A text in Chinese and English, as the starter set is written. */
type Both = readonly [hk: string, en: string];

interface StarterQuestion {
  type: QuestionType;
  title: Both;
  required?: boolean;
  options?: Both[];
  other?: Both;
  rows?: Both[];
  columns?: Both[];
  scale?: { min: number; max: number; minLabel: Both; maxLabel: Both };
  choiceRule?: ChoiceCountRule;
}

interface Starter {
  key: string;
  name: Both;
  description: Both;
  type: 'NAMED' | 'ANONYMOUS';
  audienceKind: AudienceKind;
  sectionTitle: Both;
  closingMessage: Both;
  questions: StarterQuestion[];
}

const agree: Both[] = [['同意', 'Agree'], ['一半半', 'Partly'], ['不同意', 'Disagree']];
const rating: Both[] = [['好', 'Good'], ['一般', 'Fair'], ['需改善', 'Needs improving']];

/** QE's own starter set: four templates a school can use as they are or change. */
const STARTERS: Starter[] = [
  {
    key: 'school-life',
    name: ['學校生活問卷', 'School life survey'],
    description: ['了解學生對校園生活、學習及支援的感受，適合每年進行一次。', 'How students find school life, learning and support: a survey to run once a year.'],
    type: 'ANONYMOUS',
    audienceKind: 'ALL_STUDENTS',
    sectionTitle: ['我的學校生活', 'My school life'],
    closingMessage: ['多謝你抽空填寫！', 'Thank you for your time!'],
    questions: [
      { type: 'RADIO', title: ['整體而言，你喜歡在本校上學嗎？', 'Overall, do you enjoy coming to this school?'], options: [['非常喜歡', 'Very much'], ['喜歡', 'Yes'], ['一般', 'Neither yes nor no'], ['不喜歡', 'Not really'], ['非常不喜歡', 'Not at all']] },
      { type: 'LINEAR_SCALE', title: ['你在校園內感到安全嗎？', 'How safe do you feel at school?'], scale: { min: 1, max: 5, minLabel: ['非常不安全', 'Not safe at all'], maxLabel: ['非常安全', 'Very safe'] } },
      {
        type: 'GRID_RADIO',
        title: ['你同意以下說法嗎？', 'How far do you agree?'],
        rows: [['老師願意聆聽我的意見', 'My teachers listen to my views'], ['我在班中有好朋友', 'I have good friends in my class'], ['功課份量適中', 'The amount of homework is about right'], ['學校的規則公平', 'The school rules are fair']],
        columns: agree,
      },
      {
        type: 'CHECKBOX',
        title: ['你參加了哪些課外活動？（可選多項）', 'Which activities outside lessons do you take part in? (choose any)'],
        options: [['體育', 'Sports'], ['音樂', 'Music'], ['藝術', 'Arts'], ['學術學會', 'Academic clubs'], ['義工服務', 'Volunteering'], ['沒有參加', 'None']],
        other: ['其他活動', 'Another activity'],
      },
      { type: 'DROPDOWN', title: ['上學日的晚上，你大約溫習多久？', 'On a school night, how long do you usually study?'], options: [['少於半小時', 'Under half an hour'], ['半小時至一小時', 'Half an hour to an hour'], ['一至兩小時', 'One to two hours'], ['兩小時以上', 'Over two hours']] },
      { type: 'RADIO', title: ['遇到困難時，你最常向誰求助？', 'When you have a problem, who do you usually turn to?'], options: [['班主任', 'My class teacher'], ['學校社工', 'The school social worker'], ['同學', 'Classmates'], ['家人', 'My family'], ['不會求助', 'No one']] },
      { type: 'SHORT_TEXT', title: ['用一句說話形容你的學校', 'Describe your school in one sentence'], required: false },
      { type: 'PARAGRAPH', title: ['你希望學校在哪方面改善？', 'What would you like the school to do better?'], required: false },
    ],
  },
  {
    key: 'lesson-feedback',
    name: ['課堂回饋', 'Lesson feedback'],
    description: ['課後請學生評價一節課的內容、進度及學習活動，老師可按需要選擇班別。', 'Students rate a lesson’s content, pace and activities after it; the teacher chooses the class.'],
    type: 'ANONYMOUS',
    audienceKind: 'NONE',
    sectionTitle: ['這一課', 'This lesson'],
    closingMessage: ['多謝你的回饋，老師會參考你的意見。', 'Thank you: your teacher will read your feedback.'],
    questions: [
      { type: 'LINEAR_SCALE', title: ['這一課的內容清楚易明嗎？', 'How clear was this lesson?'], scale: { min: 1, max: 5, minLabel: ['完全不清楚', 'Not clear at all'], maxLabel: ['非常清楚', 'Very clear'] } },
      { type: 'RADIO', title: ['這一課的進度', 'The pace of this lesson was'], options: [['太慢', 'Too slow'], ['剛好', 'About right'], ['太快', 'Too fast']] },
      {
        type: 'GRID_RADIO',
        title: ['這一課裏……', 'In this lesson…'],
        rows: [['我明白學習目標', 'I understood what we were learning'], ['我有機會發問', 'I had the chance to ask questions'], ['課堂活動幫助我學習', 'The activities helped me learn']],
        columns: agree,
      },
      {
        type: 'CHECKBOX',
        title: ['哪些做法對你最有幫助？（最多選兩項）', 'What helped you most? (choose up to two)'],
        options: [['老師講解', 'The teacher’s explanation'], ['小組討論', 'Group discussion'], ['練習', 'Practice exercises'], ['影片或圖片', 'Videos or pictures'], ['同學示範', 'Classmates showing their work']],
        choiceRule: { kind: 'atMost', count: 2 },
      },
      { type: 'LINEAR_SCALE', title: ['你有多大信心完成這一課的功課？', 'How confident are you about the homework on this lesson?'], scale: { min: 0, max: 10, minLabel: ['毫無信心', 'Not at all'], maxLabel: ['十分有信心', 'Completely'] } },
      { type: 'SHORT_TEXT', title: ['這一課你學到最重要的一點是甚麼？', 'What is the most important thing you learnt in this lesson?'], required: false },
      { type: 'PARAGRAPH', title: ['還有哪些地方想老師再講解？', 'What would you like your teacher to explain again?'], required: false },
    ],
  },
  {
    key: 'activity-review',
    name: ['活動檢討', 'Activity review'],
    description: ['活動完結後請參加者及工作人員評價安排和得着，作為下次籌辦的參考。', 'Participants and helpers review an activity’s arrangements and what they gained, for planning the next one.'],
    type: 'NAMED',
    audienceKind: 'NONE',
    sectionTitle: ['活動檢討', 'Looking back on the activity'],
    closingMessage: ['多謝你的意見，我們會用來改善下次的活動。', 'Thank you: your views will shape the next activity.'],
    questions: [
      { type: 'RADIO', title: ['你在活動中的身份', 'You took part as'], options: [['參加者', 'A participant'], ['工作人員', 'A helper'], ['負責老師', 'A teacher in charge']] },
      { type: 'DATE', title: ['你參加活動的日期', 'The day you took part'], required: false },
      {
        type: 'GRID_RADIO',
        title: ['請評價活動的以下各方面', 'Rate these parts of the activity'],
        rows: [['事前安排', 'Arrangements beforehand'], ['活動內容', 'What we did'], ['時間長短', 'Length'], ['場地', 'Venue']],
        columns: rating,
      },
      { type: 'LINEAR_SCALE', title: ['整體而言，你對活動有多滿意？', 'Overall, how satisfied are you with the activity?'], scale: { min: 1, max: 5, minLabel: ['非常不滿意', 'Very dissatisfied'], maxLabel: ['非常滿意', 'Very satisfied'] } },
      {
        type: 'CHECKBOX',
        title: ['你從活動中得到甚麼？（可選多項）', 'What did you gain from it? (choose any)'],
        options: [['新知識', 'New knowledge'], ['新朋友', 'New friends'], ['合作經驗', 'Working with others'], ['自信', 'Confidence'], ['樂趣', 'Fun']],
        other: ['其他得着', 'Something else'],
      },
      { type: 'RADIO', title: ['你會推薦同學明年參加嗎？', 'Would you recommend it to schoolmates next year?'], options: [['會', 'Yes'], ['不會', 'No'], ['未決定', 'Not sure']] },
      { type: 'PARAGRAPH', title: ['你對下次舉辦同類活動有甚麼建議？', 'What should we do differently next time?'], required: false },
    ],
  },
  {
    key: 'staff-development',
    name: ['教師專業發展需要', 'Staff development needs'],
    description: ['收集教職員的進修需要及合適時段，用以計劃來年的教師發展日及培訓。', 'Staff say what they would like to learn and when, for planning next year’s development days and training.'],
    type: 'NAMED',
    audienceKind: 'ALL_TEACHERS',
    sectionTitle: ['專業發展', 'Professional development'],
    closingMessage: ['多謝你的寶貴意見！', 'Thank you for your views!'],
    questions: [
      {
        type: 'CHECKBOX',
        title: ['你希望在哪些範疇進修？（可選多項）', 'Which areas would you like to develop in? (choose any)'],
        options: [['照顧學生多樣性', 'Catering for learner diversity'], ['電子學習', 'E-learning'], ['評估素養', 'Assessment'], ['學生輔導', 'Student guidance'], ['班級經營', 'Classroom management'], ['領導及管理', 'Leadership and management']],
        other: ['其他範疇', 'Another area'],
        choiceRule: { kind: 'atLeast', count: 1 },
      },
      { type: 'RADIO', title: ['你最喜歡哪種進修形式？', 'Which form of development suits you best?'], options: [['工作坊', 'Workshops'], ['觀課及同儕交流', 'Lesson observation and sharing with colleagues'], ['網上課程', 'Online courses'], ['校外研討會', 'Seminars outside school']] },
      {
        type: 'GRID_RADIO',
        title: ['你對以下各項的需要程度', 'How much do you need the following?'],
        rows: [['新課程的知識', 'Knowing the new curriculum'], ['資訊科技技能', 'IT skills'], ['支援學生的情緒健康', 'Supporting students’ wellbeing'], ['與家長溝通', 'Working with parents']],
        columns: [['很需要', 'Much'], ['有些需要', 'Some'], ['不需要', 'None']],
      },
      { type: 'LINEAR_SCALE', title: ['今年的教師發展日對你的工作有多大幫助？', 'How useful to your work were this year’s staff development days?'], scale: { min: 1, max: 5, minLabel: ['沒有幫助', 'Not useful'], maxLabel: ['很有幫助', 'Very useful'] } },
      { type: 'DROPDOWN', title: ['你每年可投放多少小時於專業發展？', 'How many hours a year can you give to professional development?'], options: [['少於10小時', 'Under 10 hours'], ['10至30小時', '10 to 30 hours'], ['30至50小時', '30 to 50 hours'], ['50小時以上', 'Over 50 hours']] },
      {
        type: 'GRID_CHECKBOX',
        title: ['哪些時段適合你參加校內培訓？（可選多項）', 'When could you take part in training at school? (choose any)'],
        required: false,
        rows: [['上學期', 'First term'], ['下學期', 'Second term']],
        columns: [['放學後', 'After school'], ['教師發展日', 'Staff development days'], ['學校假期', 'School holidays']],
      },
      { type: 'PARAGRAPH', title: ['你希望學校為你的專業發展提供哪些支援？', 'What support would you like from the school for your development?'], required: false },
    ],
  },
];

/** Choices with ids of their own (o1, o2 …), in one language, and their other-language texts by id. */
function choices(prefix: string, list: Both[] | undefined) {
  if (!list) return { hk: undefined, en: undefined };
  return {
    hk: list.map(([label], i) => ({ id: `${prefix}${i + 1}`, label })),
    en: Object.fromEntries(list.map(([, label], i) => [`${prefix}${i + 1}`, label])),
  };
}

/** A starter written in both languages as a definition: Chinese its main language, English its translation. */
function starterDefinition(starter: Starter): Definition {
  const questions: Question[] = [];
  const english: Record<string, QuestionTexts> = {};
  starter.questions.forEach((s, i) => {
    const id = `q${i + 1}`;
    const options = choices('o', s.options);
    const rows = choices('r', s.rows);
    const columns = choices('c', s.columns);
    questions.push({
      id,
      type: s.type,
      title: s.title[0],
      required: s.required ?? true,
      ...(options.hk ? { options: options.hk } : {}),
      ...(s.other ? { other: true, otherLabel: s.other[0] } : {}),
      ...(rows.hk ? { rows: rows.hk } : {}),
      ...(columns.hk ? { columns: columns.hk } : {}),
      ...(s.scale ? { scale: { min: s.scale.min, max: s.scale.max, minLabel: s.scale.minLabel[0], maxLabel: s.scale.maxLabel[0] } } : {}),
      ...(s.choiceRule ? { choiceRule: s.choiceRule } : {}),
    });
    english[id] = {
      title: s.title[1],
      ...(options.en ? { options: options.en } : {}),
      ...(s.other ? { otherLabel: s.other[1] } : {}),
      ...(rows.en ? { rows: rows.en } : {}),
      ...(columns.en ? { columns: columns.en } : {}),
      ...(s.scale ? { minLabel: s.scale.minLabel[1], maxLabel: s.scale.maxLabel[1] } : {}),
    };
  });
  const en: DefinitionTexts = { closingMessage: starter.closingMessage[1], sections: { s1: { title: starter.sectionTitle[1] } }, questions: english };
  return { version: 1, languages: ['zh-hk', 'en'], sections: [{ id: 's1', title: starter.sectionTitle[0], questions }], closingMessage: starter.closingMessage[0], translations: { en } };
}

/** The starter set's keys, as `questionnaire_templates.starter_key` holds them. */
export const STARTER_KEYS = STARTERS.map((s) => s.key);

/**
 * Installs QE's starter templates that the school does not have yet, by starter key: at every
 * start, so a new school gets them and an upgraded one too, and a second start (or a second
 * instance starting beside it) adds none again. A school's changes to a starter are kept.
 */
export async function seedStarterTemplates(db: DB): Promise<void> {
  const have = new Set((await db.selectFrom('questionnaire_templates').select('starter_key').where('starter_key', 'is not', null).execute()).map((r) => r.starter_key));
  const now = new Date().toISOString();
  for (const starter of STARTERS) {
    if (have.has(starter.key)) continue;
    const definition = starterDefinition(starter);
    // the set is QE's own text: a mistake in it must fail QE's tests, never reach a school
    if (definitionErrors(definition).length || missingTranslations(definition).length) throw new Error(`starter template ${starter.key} is not valid`);
    await db
      .insertInto('questionnaire_templates')
      .values({
        name_hk: starter.name[0],
        name_en: starter.name[1],
        description_hk: starter.description[0],
        description_en: starter.description[1],
        ...definitionColumns(definition),
        type: starter.type,
        audience_kind: starter.audienceKind,
        grade_code: null,
        retired: 0,
        starter_key: starter.key,
        created_by: null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('starter_key').doNothing())
      .execute();
  }
}
