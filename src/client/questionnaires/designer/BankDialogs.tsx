import { useEffect, useState, type KeyboardEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItemButton,
  ListItemText,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useLocale, useNotify } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import { request } from '../../providers/http';
import { BANK_TAG_LENGTH, BANK_TAGS_MAX, type BankPage, type BankQuestion, type BankTags } from '../../../shared/calls/question-bank';
import { bankQuestionIn } from '../../../shared/questionnaire/bank';
import type { Definition } from '../../../shared/questionnaire/definition';
import { definitionIn, languagesOf } from '../../../shared/questionnaire/languages';
import type { Lang } from '../../../shared/i18n/text';

/**
 * "Save to bank" (question-bank.add): tags for a question of the questionnaire; the server reads
 * the question from the questionnaire as saved, so unsaved changes are saved first (`saveFirst`).
 */
export function SaveToBankDialog({
  questionnaireId,
  questionId,
  number,
  dirty,
  saveFirst,
  onClose,
}: {
  questionnaireId: number;
  questionId: string;
  number: number;
  dirty: boolean;
  saveFirst: () => Promise<boolean>;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const [tags, setTags] = useState<string[]>([]);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);

  const addTyped = () => {
    const tag = typed.trim().replace(/\s+/g, ' ').replace(/\|/g, '');
    if (tag && tags.length < BANK_TAGS_MAX && !tags.some((t) => t.toLowerCase() === tag.toLowerCase())) setTags([...tags, tag.slice(0, BANK_TAG_LENGTH)]);
    setTyped('');
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ',') {
      e.preventDefault();
      addTyped();
    }
  };
  const submit = async () => {
    setBusy(true);
    try {
      if (dirty && !(await saveFirst())) return;
      const all = typed.trim() ? [...tags, typed.trim().replace(/\|/g, '').slice(0, BANK_TAG_LENGTH)] : tags;
      await request<BankQuestion>('/v1/question-bank', { method: 'POST', body: { questionnaireId, questionId, tags: all.slice(0, BANK_TAGS_MAX) } });
      notify('qe.designer.bank.saved', { type: 'success' });
      onClose();
    } catch {
      // the HTTP client showed why
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="bank-save-title" data-testid="bank-save-dialog">
      <DialogTitle id="bank-save-title">{translate('qe.designer.bank.saveTitle', { n: number })}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ mb: 2 }}>
          {translate('qe.designer.bank.saveHelp')}
        </Typography>
        {dirty && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {translate('qe.designer.bank.saveFirst')}
          </Alert>
        )}
        <TextField
          fullWidth
          label={translate('qe.designer.bank.tags')}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          onKeyDown={onKey}
          onBlur={addTyped}
          helperText={translate('qe.designer.bank.tagsHelp', { max: BANK_TAGS_MAX, length: BANK_TAG_LENGTH })}
          slotProps={{ htmlInput: { maxLength: BANK_TAG_LENGTH, 'data-testid': 'bank-tag-input' } }}
        />
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1 }} data-testid="bank-tags">
          {tags.map((tag) => (
            <Chip key={tag} label={tag} onDelete={() => setTags(tags.filter((t) => t !== tag))} />
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('qe.common.cancel')}</Button>
        <Button variant="contained" onClick={() => void submit()} disabled={busy} data-testid="bank-save-confirm">
          {translate('qe.designer.bank.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** A bank question's texts in one of its languages: title, description, options, rows, columns, scale. */
function LanguagePreview({ definition, lang }: { definition: Definition; lang: Lang }) {
  const translate = useTranslate();
  const q = bankQuestionIn(definitionIn(definition, lang));
  const list = (key: 'options' | 'rows' | 'columns') =>
    q[key]?.length ? (
      <Typography variant="body2" sx={{ mt: 0.5 }}>
        {translate(`qe.designer.bank.${key}`)}: {q[key]!.map((c) => c.label).join(' · ')}
        {key === 'options' && q.other ? ` · ${q.otherLabel ?? translate('qe.question.other')}` : ''}
      </Typography>
    ) : null;
  return (
    <Box lang={lang} data-testid={`bank-preview-${lang}`} sx={{ mb: 1.5 }}>
      <Typography variant="overline">{translate(lang === 'en' ? 'qe.designer.bank.english' : 'qe.designer.bank.chinese')}</Typography>
      <Typography variant="subtitle1">{q.title}</Typography>
      {q.description && <Typography variant="body2" sx={{ color: 'text.secondary' }}>{q.description}</Typography>}
      {list('options')}
      {list('rows')}
      {list('columns')}
      {q.scale && (
        <Typography variant="body2" sx={{ mt: 0.5 }}>
          {translate('qe.designer.bank.scale', { min: q.scale.min, max: q.scale.max })}
          {q.scale.minLabel || q.scale.maxLabel ? ` (${q.scale.minLabel ?? ''} – ${q.scale.maxLabel ?? ''})` : ''}
        </Typography>
      )}
    </Box>
  );
}

const PAGE = 10;

/**
 * "Insert from bank" (question-bank.view): search both languages' texts and the tags, filter by
 * a tag chip, preview the question in each of its languages, and insert it (`onInsert`).
 */
export function InsertFromBankDialog({ help, onInsert, onClose }: { help: string; onInsert: (bank: BankQuestion) => void; onClose: () => void }) {
  const translate = useTranslate();
  const locale: Lang = useLocale() === 'en' ? 'en' : 'zh-hk';
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [tag, setTag] = useState<string | null>(null);
  const [size, setSize] = useState(PAGE);
  const [chosen, setChosen] = useState<BankQuestion | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setQ(typed.trim()), 300);
    return () => clearTimeout(timer);
  }, [typed]);
  useEffect(() => setSize(PAGE), [q, tag]);

  const tags = useQuery({ queryKey: ['question-bank-tags'], queryFn: () => request<BankTags>('/v1/question-bank/tags') });
  const found = useQuery({
    queryKey: ['question-bank', q, tag, size],
    queryFn: () => request<BankPage>('/v1/question-bank', { query: { q: q || undefined, tag: tag ?? undefined, size } }),
    placeholderData: (previous) => previous,
  });
  const titleOf = (b: BankQuestion) => (locale === 'en' ? b.titleEn ?? b.titleHk : b.titleHk ?? b.titleEn) ?? '';

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" aria-labelledby="bank-insert-title" data-testid="bank-insert-dialog">
      <DialogTitle id="bank-insert-title">{translate('qe.designer.bank.insertTitle')}</DialogTitle>
      <DialogContent>
        <TextField
          fullWidth
          autoFocus
          label={translate('qe.designer.bank.search')}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'bank-search' } }}
        />
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, my: 1.5 }} role="group" aria-label={translate('qe.designer.bank.tagFilter')} data-testid="bank-tag-chips">
          {tags.data?.length === 0 && <Typography variant="body2" sx={{ color: 'text.secondary' }}>{translate('qe.designer.bank.noTags')}</Typography>}
          {tags.data?.slice(0, 30).map((t) => (
            <Chip
              key={t.tag}
              label={`${t.tag} (${t.count})`}
              color={tag?.toLowerCase() === t.tag.toLowerCase() ? 'primary' : 'default'}
              aria-pressed={tag?.toLowerCase() === t.tag.toLowerCase()}
              onClick={() => setTag(tag?.toLowerCase() === t.tag.toLowerCase() ? null : t.tag)}
            />
          ))}
        </Box>
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <Box sx={{ flex: 1, minWidth: 0 }}>
            {found.isPending ? (
              <CircularProgress size={24} />
            ) : (
              <>
                <Typography variant="caption" aria-live="polite">
                  {found.data?.total ? translate('qe.designer.bank.found', { smart_count: found.data.total }) : translate('qe.designer.bank.none')}
                </Typography>
                <List dense data-testid="bank-results">
                  {found.data?.list.map((b) => (
                    <ListItemButton key={b.id} selected={chosen?.id === b.id} onClick={() => setChosen(b)} data-testid="bank-result">
                      <ListItemText primary={titleOf(b)} secondary={[translate(`qe.question.types.${b.type}`), ...b.tags].join(' · ')} />
                    </ListItemButton>
                  ))}
                </List>
                {found.data && found.data.total > found.data.list.length && size < 50 && <Button onClick={() => setSize(Math.min(50, size + PAGE))}>{translate('qe.designer.bank.more')}</Button>}
              </>
            )}
          </Box>
          <Box sx={{ flex: 1, minWidth: 0, borderLeft: { md: 1 }, borderColor: { md: 'divider' }, pl: { md: 2 } }} data-testid="bank-preview">
            <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
              {translate('qe.designer.bank.preview')}
            </Typography>
            {chosen ? (
              <>
                {languagesOf(chosen.definition as Definition).map((lang) => (
                  <LanguagePreview key={lang} definition={chosen.definition as Definition} lang={lang} />
                ))}
                <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                  {chosen.tags.map((t) => (
                    <Chip key={t} size="small" variant="outlined" label={t} />
                  ))}
                </Box>
              </>
            ) : (
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {translate('qe.designer.bank.pick')}
              </Typography>
            )}
          </Box>
        </Stack>
        <Alert severity="info" sx={{ mt: 2 }}>
          {help}
        </Alert>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('qe.common.cancel')}</Button>
        <Button variant="contained" disabled={!chosen} onClick={() => chosen && onInsert(chosen)} data-testid="bank-insert-confirm">
          {translate('qe.designer.bank.insertAction')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
