import { useMemo, type ChangeEvent, type Dispatch, type ReactNode } from 'react';
import { Box, Button, Chip, IconButton, Paper, Stack, TextField, Tooltip, Typography } from '@mui/material';
import LibraryAddIcon from '@mui/icons-material/LibraryAdd';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useDroppable } from '@dnd-kit/core';
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { useTranslate } from '../../i18n/translate';
import type { QuestionType, Section } from '../../../shared/questionnaire/definition';
import { AddQuestionButton } from './AddQuestionButton';
import { GoToSelect } from './GoToSelect';
import { sectionDropId, type DesignerAction } from './model';
import { useProblems } from './problems';

/**
 * A section: its title and description, move and delete, its questions (a sortable list that also
 * takes questions dropped from other sections), "add question", and where to go after it.
 */
export function SectionEditor({
  section,
  si,
  sections,
  dispatch,
  onAdd,
  onDelete,
  onInsertFromBank,
  children,
}: {
  section: Section;
  si: number;
  sections: Section[];
  dispatch: Dispatch<DesignerAction>;
  onAdd: (sectionId: string, type: QuestionType) => void;
  onDelete: (sectionId: string) => void;
  /** "Insert from bank" at the end of the section (question-bank.view) */
  onInsertFromBank?: (sectionId: string) => void;
  children: ReactNode;
}) {
  const translate = useTranslate();
  const problems = useProblems();
  const { setNodeRef, isOver } = useDroppable({ id: sectionDropId(section.id) });
  const path = `sections.${si}`;
  const set = (patch: Partial<Pick<Section, 'title' | 'description' | 'next'>>) => dispatch({ type: 'updateSection', id: section.id, patch });
  const rest = problems.rest(path, ['title', 'description', 'next', 'questions.*']);
  const many = sections.length > 1;
  // the same ids keep the same array: the sortable list (and every question in it) re-renders only on a real reorder
  const idsKey = section.questions.map((q) => q.id).join('\n');
  const items = useMemo(() => (idsKey ? idsKey.split('\n') : []), [idsKey]);
  return (
    <Box component="section" data-testid="section-editor" aria-label={translate('qe.designer.section.label', { n: si + 1, total: sections.length })}>
      <Paper variant="outlined" sx={{ p: 2, borderTop: 6, borderTopColor: 'primary.main' }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1.5 }}>
          <Chip size="small" color="primary" label={translate('qe.designer.section.label', { n: si + 1, total: sections.length })} />
          <Box sx={{ flex: 1 }} />
          {many && (
            <>
              <Tooltip title={translate('qe.designer.section.moveUp')}>
                <span>
                  <IconButton size="small" disabled={si === 0} onClick={() => dispatch({ type: 'moveSection', id: section.id, delta: -1 })} aria-label={translate('qe.designer.section.moveUp')}>
                    <ArrowUpwardIcon fontSize="small" />
                  </IconButton>
                </span>
              </Tooltip>
              <Tooltip title={translate('qe.designer.section.moveDown')}>
                <span>
                  <IconButton
                    size="small"
                    disabled={si === sections.length - 1}
                    onClick={() => dispatch({ type: 'moveSection', id: section.id, delta: 1 })}
                    aria-label={translate('qe.designer.section.moveDown')}
                  >
                    <ArrowDownwardIcon fontSize="small" />
                  </IconButton>
                </span>
              </Tooltip>
              <Tooltip title={translate('qe.designer.section.delete')}>
                <IconButton size="small" onClick={() => onDelete(section.id)} aria-label={translate('qe.designer.section.delete')} data-testid="section-delete">
                  <DeleteIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </>
          )}
        </Box>
        <TextField
          fullWidth
          size="small"
          label={translate('qe.designer.section.title')}
          value={section.title ?? ''}
          onChange={(e: ChangeEvent<HTMLInputElement>) => set({ title: e.target.value || undefined })}
          error={Boolean(problems.at(`${path}.title`))}
          helperText={problems.at(`${path}.title`)}
          slotProps={{ htmlInput: { maxLength: 500, 'data-testid': 'section-title' } }}
        />
        <TextField
          fullWidth
          multiline
          size="small"
          label={translate('qe.designer.section.description')}
          value={section.description ?? ''}
          onChange={(e: ChangeEvent<HTMLInputElement>) => set({ description: e.target.value || undefined })}
          error={Boolean(problems.at(`${path}.description`))}
          helperText={problems.at(`${path}.description`)}
          sx={{ mt: 1.5 }}
          slotProps={{ htmlInput: { maxLength: 2000 } }}
        />
        {rest.map((text, i) => (
          <Typography key={i} variant="caption" role="alert" sx={{ color: 'error.main', display: 'block', mt: 0.5 }}>
            {text}
          </Typography>
        ))}
      </Paper>
      <SortableContext id={section.id} items={items} strategy={verticalListSortingStrategy}>
        <Stack
          ref={setNodeRef}
          spacing={1.5}
          sx={{ mt: 1.5, minHeight: 48, borderRadius: 1, outline: isOver && !section.questions.length ? 2 : 0, outlineColor: 'primary.light', outlineStyle: 'dashed' }}
          data-testid="section-questions"
        >
          {children}
          {section.questions.length === 0 && (
            <Typography variant="body2" sx={{ color: 'text.secondary', p: 1.5 }}>
              {translate('qe.designer.section.empty')}
            </Typography>
          )}
        </Stack>
      </SortableContext>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', flexWrap: 'wrap', mt: 1.5 }}>
        <AddQuestionButton onAdd={(type) => onAdd(section.id, type)} disabled={false} testId={`add-question-${si}`} />
        {onInsertFromBank && (
          <Button startIcon={<LibraryAddIcon />} onClick={() => onInsertFromBank(section.id)} data-testid={`bank-insert-${si}`}>
            {translate('qe.designer.bank.insert')}
          </Button>
        )}
        <Box sx={{ flex: 1 }} />
        <GoToSelect
          sections={sections}
          from={si}
          value={section.next}
          onChange={(next) => set({ next })}
          label={translate('qe.designer.section.after', { n: si + 1 })}
          blankKey={si === sections.length - 1 ? 'qe.designer.goTo.endDefault' : 'qe.designer.goTo.nextSection'}
          error={problems.at(`${path}.next`)}
          testId={`section-next-${si}`}
        />
      </Box>
    </Box>
  );
}
