import { expect } from 'vitest';
import type { DB } from '../../../src/server/db/connect.js';
import type { Definition } from '../../../src/shared/questionnaire/definition.js';
import type { Questionnaire, QuestionnaireType, Target } from '../../../src/shared/questionnaire/types.js';
import { create, data, inMinutes, type Caller } from '../questionnaires/helpers.js';

/**
 * One question of each of the ten types, with the designer's rules, in two sections: a "No" to
 * the last question of the first section goes to the end, past the second section.
 */
export const everyType = (): Definition => ({
  version: 1,
  sections: [
    {
      id: 's1',
      title: 'About you',
      questions: [
        { id: 'name', type: 'SHORT_TEXT', title: 'Nickname', required: true, textRule: { kind: 'length', min: 2, max: 5 } },
        { id: 'age', type: 'SHORT_TEXT', title: 'Age', required: false, textRule: { kind: 'number', min: 10, max: 20 } },
        { id: 'code', type: 'SHORT_TEXT', title: 'Class', required: false, textRule: { kind: 'pattern', pattern: '[1-6][AB]', message: 'Like 3A' } },
        { id: 'story', type: 'PARAGRAPH', title: 'Tell us about your day', required: false },
        {
          id: 'sports',
          type: 'CHECKBOX',
          title: 'Sports you play',
          required: false,
          options: [{ id: 'run', label: 'Running' }, { id: 'swim', label: 'Swimming' }, { id: 'ball', label: 'Ball games' }],
          other: true,
          choiceRule: { kind: 'atLeast', count: 2 },
        },
        {
          id: 'club',
          type: 'CHECKBOX',
          title: 'Your club',
          required: false,
          options: [{ id: 'art', label: 'Art' }, { id: 'music', label: 'Music' }, { id: 'chess', label: 'Chess' }],
          choiceRule: { kind: 'atMost', count: 1 },
        },
        { id: 'house', type: 'DROPDOWN', title: 'House', required: true, options: [{ id: 'red', label: 'Red' }, { id: 'blue', label: 'Blue' }] },
        { id: 'mood', type: 'LINEAR_SCALE', title: 'Mood', required: true, scale: { min: 1, max: 5, minLabel: 'Sad', maxLabel: 'Happy' } },
        {
          id: 'rank',
          type: 'GRID_RADIO',
          title: 'Rank the subjects',
          required: true,
          rows: [{ id: 'r1', label: 'Maths' }, { id: 'r2', label: 'Music' }],
          columns: [{ id: 'c1', label: 'First' }, { id: 'c2', label: 'Second' }],
          onePerColumn: true,
        },
        {
          id: 'slots',
          type: 'GRID_CHECKBOX',
          title: 'When are you free?',
          required: true,
          rows: [{ id: 'am', label: 'Morning' }, { id: 'pm', label: 'Afternoon' }],
          columns: [{ id: 'mon', label: 'Mon' }, { id: 'tue', label: 'Tue' }, { id: 'wed', label: 'Wed' }],
        },
        { id: 'birthday', type: 'DATE', title: 'Birthday', required: false },
        { id: 'wake', type: 'TIME', title: 'Wake-up time', required: false },
        { id: 'more', type: 'RADIO', title: 'Tell us more?', required: true, options: [{ id: 'yes', label: 'Yes' }, { id: 'no', label: 'No', goTo: 'END' }] },
      ],
    },
    { id: 's2', title: 'More', questions: [{ id: 'why', type: 'PARAGRAPH', title: 'Why?', required: true }] },
  ],
});

/** A reply to `everyType` that passes every rule and goes through both sections. */
export const goodAnswers = () => ({
  name: 'Kit',
  age: '13',
  code: '3A',
  story: 'Maths, then lunch.',
  sports: { choices: ['run', '__other__'], otherText: 'Rowing' },
  club: { choices: ['art'] },
  house: { choice: 'red' },
  mood: 4,
  rank: { r1: 'c1', r2: 'c2' },
  slots: { am: ['mon'], pm: ['tue', 'wed'] },
  birthday: '2012-02-29',
  wake: '07:30',
  more: { choice: 'yes' },
  why: 'Because',
});

/** A questionnaire of `definition` that is ready and open now (PROCESSING, its feedback records made). */
export async function opened(call: Caller, targets: Target[], options: { definition?: Definition; type?: QuestionnaireType; title?: string; openDate?: string; endDate?: string } = {}): Promise<Questionnaire> {
  const q = await create(call, {
    title: options.title ?? 'Every type',
    targets,
    type: options.type ?? 'NAMED',
    definition: options.definition ?? everyType(),
    openDate: options.openDate ?? inMinutes(-1),
    endDate: options.endDate ?? inMinutes(60 * 24),
  });
  const ready = data(await call('POST', `/v1/questionnaires/${q.id}/ready`));
  if (!options.openDate || options.openDate <= new Date().toISOString()) expect(ready.status).toBe('PROCESSING');
  return ready;
}

/** A submission key as the client makes one. */
export const newKey = () => `k-${crypto.randomUUID()}`;

/**
 * Every stored reply of a questionnaire: in `replies`, and an anonymous one not released yet where
 * it waits (`waiting_replies`, no feedback id there either).
 */
export async function storedReplies(db: DB, questionnaireId: number): Promise<{ id: string; feedback_id: number | null; answers: string; mixed: number; released: number }[]> {
  const replies = await db.selectFrom('replies').select(['id', 'feedback_id', 'answers', 'mixed', 'released']).where('questionnaire_id', '=', questionnaireId).execute();
  const waiting = await db.selectFrom('waiting_replies').select(['id', 'answers', 'mixed']).where('questionnaire_id', '=', questionnaireId).execute();
  return [...replies, ...waiting.map((r) => ({ ...r, feedback_id: null, released: 0 }))];
}
