import { memo, useState, type ChangeEvent, type Dispatch } from 'react';
import { Box, Chip, Divider, FormControlLabel, IconButton, Paper, Switch, TextField, Tooltip, Typography } from '@mui/material';
import LibraryAddIcon from '@mui/icons-material/LibraryAdd';
import SaveAltIcon from '@mui/icons-material/SaveAlt';
import InventoryIcon from '@mui/icons-material/Inventory2Outlined';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import DragIndicatorIcon from '@mui/icons-material/DragIndicator';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useTranslate } from '../../i18n/translate';
import type { Question, QuestionType } from '../../../shared/questionnaire/definition';
import { QUESTION_TYPE_VIEWS } from '../question-types';
import type { SectionRef } from './GoToSelect';
import { ImageField } from './ImageField';
import { withType, type DefaultLabels, type DesignerAction } from './model';
import { useProblems } from './problems';
import { TYPE_ORDER } from './typeIcons';

/** What an input of a question claims among its problems (the rest are listed under the question). */
const CLAIMED = ['title', 'description', 'image', 'options', 'options.*', 'rows', 'rows.*', 'columns', 'columns.*', 'otherLabel', 'scale', 'choiceRule', 'textRule'];

export interface QuestionEditorProps {
  question: Question;
  /** section and question index: the path of its problems */
  si: number;
  qi: number;
  /** its number through the whole questionnaire */
  number: number;
  /** the sections (branching targets) — only given to RADIO and DROPDOWN */
  sections?: SectionRef[];
  dispatch: Dispatch<DesignerAction>;
  labels: DefaultLabels;
  canUp: boolean;
  canDown: boolean;
  onMove: (id: string, delta: -1 | 1) => void;
  onDuplicate: (id: string) => void;
  onDelete: (id: string) => void;
  /** "Save to bank" (question-bank.add; a questionnaire that is saved) */
  onSaveToBank?: (id: string) => void;
  /** "Insert from bank" after this question (question-bank.view) */
  onInsertFromBank?: (id: string) => void;
}

const clean = (q: Question): Question => {
  const next = { ...q };
  for (const key of Object.keys(next) as (keyof Question)[]) if (next[key] === undefined) delete next[key];
  return next;
};

/**
 * One question in the designer: its drag handle (mouse, touch, or keyboard: space to lift, arrows,
 * space to drop), type, title, description, image, the settings of its type and its response rules
 * (its type's settings editor, src/client/questionnaires/question-types/),
 * required switch, and move up/down, duplicate and delete.
 */
export const QuestionEditor = memo(function QuestionEditor({ question: q, si, qi, number, sections, dispatch, labels, canUp, canDown, onMove, onDuplicate, onDelete, onSaveToBank, onInsertFromBank }: QuestionEditorProps) {
  const translate = useTranslate();
  const problems = useProblems();
  const path = `sections.${si}.questions.${qi}`;
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: q.id,
    attributes: { roleDescription: translate('qe.designer.drag.roleDescription') },
  });
  const [branchingOn, setBranchingOn] = useState(false);
  const branching = branchingOn || Boolean(q.options?.some((o) => o.goTo));

  const update = (fn: (q: Question) => Question) => dispatch({ type: 'updateQuestion', id: q.id, update: (old) => clean(fn(old)) });
  const patch = (p: Partial<Question>) => update((old) => ({ ...old, ...p }));
  const setBranching = (on: boolean) => {
    setBranchingOn(on);
    if (!on) patch({ options: q.options?.map(({ id, label }) => ({ id, label })) });
  };
  const rest = problems.rest(path, CLAIMED);
  const hasProblem = problems.rest(path, []).length > 0;
  const { icon: Icon, settings: Settings } = QUESTION_TYPE_VIEWS[q.type];

  return (
    <Paper
      ref={setNodeRef}
      id={`dq-${q.id}`}
      variant="outlined"
      data-testid="question-editor"
      data-question-type={q.type}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      sx={{
        p: 2,
        position: 'relative',
        opacity: isDragging ? 0.6 : 1,
        zIndex: isDragging ? 2 : undefined,
        borderLeft: 4,
        borderLeftColor: hasProblem ? 'error.main' : 'primary.main',
        scrollMarginTop: 96,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1.5, flexWrap: 'wrap' }}>
        <Tooltip title={translate('qe.designer.drag.handle')}>
          <Box
            ref={setActivatorNodeRef}
            {...attributes}
            {...listeners}
            aria-label={translate('qe.designer.drag.handleOf', { n: number })}
            data-testid="drag-handle"
            sx={{ cursor: 'grab', display: 'flex', color: 'text.secondary', borderRadius: 1, touchAction: 'none', '&:focus-visible': { outline: 2, outlineColor: 'primary.main' } }}
          >
            <DragIndicatorIcon />
          </Box>
        </Tooltip>
        <Typography variant="subtitle2" component="h2" sx={{ color: 'text.secondary' }} data-testid="question-number">
          {translate('qe.designer.question.number', { n: number })}
        </Typography>
        {q.bankId !== undefined && (
          <Tooltip title={translate('qe.designer.bank.fromBankHelp')}>
            <Chip size="small" variant="outlined" icon={<InventoryIcon />} label={translate('qe.designer.bank.fromBank')} data-testid="bank-origin" />
          </Tooltip>
        )}
        <Box sx={{ flex: 1 }} />
        <Box sx={{ display: 'flex', color: 'text.secondary' }} aria-hidden>
          <Icon fontSize="small" />
        </Box>
        <TextField
          fullWidth={false}
          margin="none"
          select
          size="small"
          value={q.type}
          onChange={(e: ChangeEvent<HTMLInputElement>) => update((old) => withType(old, e.target.value as QuestionType, labels))}
          sx={{ minWidth: 180 }}
          slotProps={{
            select: { native: true },
            htmlInput: { 'aria-label': translate('qe.designer.question.type'), 'data-testid': 'question-type' },
          }}
        >
          {TYPE_ORDER.map((t) => (
            <option key={t} value={t}>
              {translate(`qe.question.types.${t}`)}
            </option>
          ))}
        </TextField>
      </Box>
      <TextField
        fullWidth
        multiline
        label={translate('qe.designer.question.title')}
        value={q.title}
        onChange={(e: ChangeEvent<HTMLInputElement>) => patch({ title: e.target.value })}
        error={Boolean(problems.at(`${path}.title`))}
        helperText={problems.at(`${path}.title`)}
        required
        slotProps={{ htmlInput: { maxLength: 1000, 'data-testid': 'question-title' } }}
      />
      <TextField
        fullWidth
        multiline
        size="small"
        label={translate('qe.designer.question.description')}
        value={q.description ?? ''}
        onChange={(e: ChangeEvent<HTMLInputElement>) => patch({ description: e.target.value || undefined })}
        error={Boolean(problems.at(`${path}.description`))}
        helperText={problems.at(`${path}.description`)}
        sx={{ mt: 1.5 }}
        slotProps={{ htmlInput: { maxLength: 2000, 'data-testid': 'question-description' } }}
      />
      <Box sx={{ mt: 1.5 }}>
        <ImageField value={q.image} onChange={(image) => patch({ image })} problem={problems.at(`${path}.image`)} />
      </Box>
      <Box sx={{ mt: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>
        {Settings && <Settings question={q} path={path} si={si} sections={sections} patch={patch} branching={branching} setBranching={setBranching} />}
      </Box>
      {rest.length > 0 && (
        <Box role="alert" sx={{ mt: 1 }} data-testid="question-problems">
          {rest.map((text, i) => (
            <Typography key={i} variant="caption" sx={{ color: 'error.main', display: 'block' }}>
              {text}
            </Typography>
          ))}
        </Box>
      )}
      <Divider sx={{ my: 1.5 }} />
      <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 0.5 }}>
        <Tooltip title={translate('qe.designer.moveUp')}>
          <span>
            <IconButton disabled={!canUp} onClick={() => onMove(q.id, -1)} aria-label={translate('qe.designer.question.moveUp', { n: number })} data-move={`${q.id}:up`} data-testid="question-up">
              <ArrowUpwardIcon />
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title={translate('qe.designer.moveDown')}>
          <span>
            <IconButton
              disabled={!canDown}
              onClick={() => onMove(q.id, 1)}
              aria-label={translate('qe.designer.question.moveDown', { n: number })}
              data-move={`${q.id}:down`}
              data-testid="question-down"
            >
              <ArrowDownwardIcon />
            </IconButton>
          </span>
        </Tooltip>
        <Box sx={{ flex: 1 }} />
        {onInsertFromBank && (
          <Tooltip title={translate('qe.designer.bank.insert')}>
            <IconButton onClick={() => onInsertFromBank(q.id)} aria-label={translate('qe.designer.bank.insert')} data-testid="question-bank-insert">
              <LibraryAddIcon />
            </IconButton>
          </Tooltip>
        )}
        {onSaveToBank && (
          <Tooltip title={translate('qe.designer.bank.save')}>
            <IconButton onClick={() => onSaveToBank(q.id)} aria-label={translate('qe.designer.bank.saveTitle', { n: number })} data-testid="question-bank-save">
              <SaveAltIcon />
            </IconButton>
          </Tooltip>
        )}
        <Tooltip title={translate('qe.designer.question.duplicate')}>
          <IconButton onClick={() => onDuplicate(q.id)} aria-label={translate('qe.designer.question.duplicate')} data-testid="question-duplicate">
            <ContentCopyIcon />
          </IconButton>
        </Tooltip>
        <Tooltip title={translate('qe.designer.question.delete')}>
          <IconButton onClick={() => onDelete(q.id)} aria-label={translate('qe.designer.question.delete')} data-testid="question-delete">
            <DeleteIcon />
          </IconButton>
        </Tooltip>
        <Divider orientation="vertical" flexItem sx={{ mx: 1 }} />
        <FormControlLabel
          control={<Switch checked={q.required} onChange={(_, required) => patch({ required })} slotProps={{ input: { 'data-testid': 'question-required' } as object }} />}
          label={translate('qe.question.required')}
          labelPlacement="start"
          sx={{ mr: 0 }}
        />
      </Box>
    </Paper>
  );
});
