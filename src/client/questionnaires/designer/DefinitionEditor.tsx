import { useCallback, useEffect, useMemo, useRef, useState, type Dispatch } from 'react';
import { Box, Button, Stack } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type Announcements, type DragEndEvent } from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';
import { Confirm, useCanAccess, useNotify } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import type { Definition, QuestionType } from '../../../shared/questionnaire/definition';
import { ClosingMessageEditor } from './ClosingMessageEditor';
import { canMove, copyQuestion, locate, newId, newQuestion, type DefaultLabels, type DesignerAction } from './model';
import { QuestionEditor } from './QuestionEditor';
import { SectionEditor } from './SectionEditor';
import { InsertFromBankDialog, SaveToBankDialog } from './BankDialogs';
import { insertionOf } from '../../../shared/questionnaire/bank';
import { languagesOf } from '../../../shared/questionnaire/languages';
import type { BankQuestion } from '../../../shared/calls/question-bank';

/** What the question bank's buttons need of the designer: the questionnaire, and a save before a question is read from it. */
export interface DesignerBank {
  questionnaireId: number;
  dirty: boolean;
  save: () => Promise<boolean>;
}

const MAX_SECTIONS = 50;
// sensor options kept the same between renders: new ones would re-render every question (dnd-kit re-creates its activators)
const POINTER = { activationConstraint: { distance: 5 } };
const KEYBOARD = { coordinateGetter: sortableKeyboardCoordinates };

/**
 * The sections and questions of a definition, editable: one drag-and-drop area (questions move
 * within and between sections, by pointer, touch or keyboard), the move buttons, duplicate,
 * delete with a confirmation, add question and add section; then the closing message.
 */
export function DefinitionEditor({ definition, dispatch, bank }: { definition: Definition; dispatch: Dispatch<DesignerAction>; bank?: DesignerBank }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { canAccess: canSaveToBank } = useCanAccess({ resource: 'question-bank', action: 'add' });
  const { canAccess: canReadBank } = useCanAccess({ resource: 'question-bank', action: 'view' });
  const [banking, setBanking] = useState<string | null>(null);
  // where a bank question goes: after a question, or at the end of a section
  const [inserting, setInserting] = useState<{ sectionId: string; after?: string } | null>(null);
  const [deleting, setDeleting] = useState<{ kind: 'question' | 'section'; id: string } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const sensors = useSensors(useSensor(PointerSensor, POINTER), useSensor(KeyboardSensor, KEYBOARD));

  const labels: DefaultLabels = useMemo(
    () => ({
      option: (n) => translate('qe.designer.defaults.option', { n }),
      row: (n) => translate('qe.designer.defaults.row', { n }),
      column: (n) => translate('qe.designer.defaults.column', { n }),
    }),
    [translate],
  );

  // question numbers through the whole questionnaire
  const numbers = useMemo(() => {
    const map = new Map<string, number>();
    let n = 0;
    for (const s of definition.sections) for (const q of s.questions) map.set(q.id, ++n);
    return map;
  }, [definition]);
  // the branching targets (ids and titles) stay the same array while no section is added, moved or renamed
  const targetsKey = JSON.stringify(definition.sections.map((s) => [s.id, s.title ?? '']));
  const targets = useMemo(() => (JSON.parse(targetsKey) as [string, string][]).map(([id, title]) => ({ id, title })), [targetsKey]);
  const latest = useRef(definition);
  useEffect(() => {
    latest.current = definition;
  });
  const numberOf = (id: string | number) => numbers.get(String(id)) ?? 0;

  const onMove = useCallback(
    (id: string, delta: -1 | 1) => {
      dispatch({ type: 'moveQuestion', id, delta });
      // keep the focus on the button pressed (or its twin once the question reached an end), and say where the question went
      setTimeout(() => {
        const d = latest.current;
        const pressed = document.querySelector<HTMLButtonElement>(`[data-move="${id}:${delta < 0 ? 'up' : 'down'}"]`);
        const twin = document.querySelector<HTMLButtonElement>(`[data-move="${id}:${delta < 0 ? 'down' : 'up'}"]`);
        (pressed && !pressed.disabled ? pressed : twin)?.focus();
        const at = locate(d, id);
        if (at) setAnnouncement(translate('qe.designer.question.moved', { n: d.sections.slice(0, at.si).reduce((a, s) => a + s.questions.length, 0) + at.qi + 1 }));
      });
    },
    [dispatch, translate],
  );
  const onDuplicate = useCallback(
    (id: string) => {
      const at = locate(latest.current, id);
      if (!at) return;
      const section = latest.current.sections[at.si];
      const original = section.questions[at.qi];
      const copy = copyQuestion(original);
      dispatch({ type: 'addQuestion', sectionId: section.id, question: copy, after: id, copyOf: original });
      setTimeout(() => document.getElementById(`dq-${copy.id}`)?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' }));
    },
    [dispatch],
  );
  const onDeleteQuestion = useCallback((id: string) => setDeleting({ kind: 'question', id }), []);
  const onSaveToBank = useCallback((id: string) => setBanking(id), []);
  const onInsertAfter = useCallback((id: string) => {
    const at = locate(latest.current, id);
    if (at) setInserting({ sectionId: latest.current.sections[at.si].id, after: id });
  }, []);
  const onInsertAtEnd = useCallback((sectionId: string) => setInserting({ sectionId }), []);
  /** The bank question with a fresh id, its options' ids kept, its texts in this questionnaire's languages, no go-to targets. */
  const insert = (chosen: BankQuestion) => {
    if (!inserting) return;
    const { question, translations } = insertionOf(chosen.definition as Definition, chosen.id, languagesOf(latest.current), newId());
    dispatch({ type: 'insertQuestion', sectionId: inserting.sectionId, after: inserting.after, question, translations });
    setInserting(null);
    notify('qe.designer.bank.inserted', { type: 'info' });
    setTimeout(() => document.getElementById(`dq-${question.id}`)?.scrollIntoView?.({ block: 'center', behavior: 'smooth' }));
  };
  const insertHelp = () => {
    if (!inserting) return '';
    if (inserting.after) return translate('qe.designer.bank.insertHelp', { n: numbers.get(inserting.after) ?? 0 });
    return translate('qe.designer.bank.insertHelpEnd', { n: definition.sections.findIndex((s) => s.id === inserting.sectionId) + 1 });
  };
  const bankSave = bank && canSaveToBank ? onSaveToBank : undefined;
  const bankInsert = canReadBank ? onInsertAfter : undefined;
  const onAdd = useCallback(
    (sectionId: string, type: QuestionType) => {
      const question = newQuestion(type, labels);
      dispatch({ type: 'addQuestion', sectionId, question });
      setTimeout(() => {
        document.getElementById(`dq-${question.id}`)?.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
        document.querySelector<HTMLElement>(`#dq-${question.id} [data-testid="question-title"]`)?.focus();
      });
    },
    [dispatch, labels],
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) dispatch({ type: 'dropQuestion', id: String(active.id), overId: String(over.id) });
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => translate('qe.designer.drag.picked', { n: numberOf(active.id) }),
    onDragOver: ({ active, over }) => (over ? translate('qe.designer.drag.over', { n: numberOf(active.id), m: numberOf(over.id) || '-' }) : undefined),
    onDragEnd: ({ active }) => translate('qe.designer.drag.dropped', { n: numberOf(active.id) }),
    onDragCancel: () => translate('qe.designer.drag.cancelled'),
  };

  const confirmDelete = () => {
    if (!deleting) return;
    dispatch(deleting.kind === 'question' ? { type: 'removeQuestion', id: deleting.id } : { type: 'removeSection', id: deleting.id });
    setDeleting(null);
  };
  const deletingSection = deleting?.kind === 'section' ? definition.sections.find((s) => s.id === deleting.id) : undefined;

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{ announcements, screenReaderInstructions: { draggable: translate('qe.designer.drag.instructions') } }}
    >
      <Stack spacing={3} data-testid="definition-editor">
        {definition.sections.map((section, si) => (
          <SectionEditor
            key={section.id}
            section={section}
            si={si}
            sections={definition.sections}
            dispatch={dispatch}
            onAdd={onAdd}
            onDelete={(id) => setDeleting({ kind: 'section', id })}
            onInsertFromBank={canReadBank ? onInsertAtEnd : undefined}
          >
            {section.questions.map((q, qi) => (
              <QuestionEditor
                key={q.id}
                question={q}
                si={si}
                qi={qi}
                number={numbers.get(q.id) ?? 0}
                sections={q.type === 'RADIO' || q.type === 'DROPDOWN' ? targets : undefined}
                dispatch={dispatch}
                labels={labels}
                canUp={canMove(definition, q.id, -1)}
                canDown={canMove(definition, q.id, 1)}
                onMove={onMove}
                onDuplicate={onDuplicate}
                onDelete={onDeleteQuestion}
                onSaveToBank={bankSave}
                onInsertFromBank={bankInsert}
              />
            ))}
          </SectionEditor>
        ))}
        <Box>
          <Button
            startIcon={<AddIcon />}
            onClick={() => dispatch({ type: 'addSection', section: { id: newId(), questions: [] } })}
            disabled={definition.sections.length >= MAX_SECTIONS}
            data-testid="add-section"
          >
            {translate('qe.designer.section.add')}
          </Button>
        </Box>
        <ClosingMessageEditor message={definition.closingMessage} dispatch={dispatch} />
      </Stack>
      <Box aria-live="polite" sx={{ position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' }} data-testid="designer-announcement">
        {announcement}
      </Box>
      {banking && bank && (
        <SaveToBankDialog questionnaireId={bank.questionnaireId} questionId={banking} number={numbers.get(banking) ?? 0} dirty={bank.dirty} saveFirst={bank.save} onClose={() => setBanking(null)} />
      )}
      {inserting && <InsertFromBankDialog help={insertHelp()} onInsert={insert} onClose={() => setInserting(null)} />}
      <Confirm
        isOpen={deleting !== null}
        title="qe.confirm.title"
        content={deleting?.kind === 'section' ? 'qe.designer.section.deleteConfirm' : 'qe.designer.question.deleteConfirm'}
        translateOptions={{ smart_count: deletingSection?.questions.length ?? 0 }}
        confirm="qe.designer.remove"
        confirmColor="warning"
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </DndContext>
  );
}
