import { useCallback, useState, type MouseEvent, type ReactElement } from 'react';
import { Box, IconButton, Tooltip } from '@mui/material';
import EditIcon from '@mui/icons-material/EditOutlined';
import NoteAddIcon from '@mui/icons-material/NoteAddOutlined';
import PreviewIcon from '@mui/icons-material/Preview';
import ArchiveIcon from '@mui/icons-material/ArchiveOutlined';
import UnarchiveIcon from '@mui/icons-material/UnarchiveOutlined';
import { Confirm, useLocale, useNotify, useRefresh } from 'react-admin';
import type { TemplateSummary } from '../../shared/calls/templates';
import { useTranslate } from '../i18n/translate';
import { useMayForm } from '../questionnaires/form/access';
import { useMayTemplate } from './access';
import { templateApi } from './api';
import { templateName } from './labels';
import { TemplatePreview } from './TemplatePreview';
import { templateBody, TemplateDialog } from './TemplateDialog';
import { UseTemplateDialog } from './UseTemplateDialog';

export type TemplateRowAction = 'preview' | 'use' | 'edit' | 'retire' | 'restore';

const ICONS: Record<TemplateRowAction, ReactElement> = {
  preview: <PreviewIcon fontSize="small" />,
  use: <NoteAddIcon fontSize="small" />,
  edit: <EditIcon fontSize="small" />,
  retire: <ArchiveIcon fontSize="small" />,
  restore: <UnarchiveIcon fontSize="small" />,
};

/** What a user with these rights may do with a template: a retired one is only previewed and restored. */
export function offeredTemplateActions(record: Pick<TemplateSummary, 'retired'>, rights: { use: boolean; edit: boolean; delete: boolean }): TemplateRowAction[] {
  const out: TemplateRowAction[] = ['preview'];
  if (rights.use && !record.retired) out.push('use');
  if (rights.edit) out.push('edit');
  if (rights.delete) out.push(record.retired ? 'restore' : 'retire');
  return out;
}

/**
 * A template's actions in its list row (icons) or card (icons under it): preview (form-template.view),
 * new from template (and form.add), edit (form-template.edit), retire or restore after a
 * confirmation (form-template.delete). The server checks each again.
 */
export function TemplateActions({ record }: { record: TemplateSummary }) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const locale = useLocale();
  const mayAdd = useMayForm('add');
  const mayView = useMayTemplate('view');
  const rights = { use: mayAdd && mayView, edit: useMayTemplate('edit'), delete: useMayTemplate('delete') };
  const [open, setOpen] = useState<TemplateRowAction | null>(null);
  const [busy, setBusy] = useState(false);
  const close = useCallback(() => setOpen(null), []);
  const name = templateName(record, locale);
  const actions = offeredTemplateActions(record, rights);

  const flip = async (retire: boolean) => {
    setBusy(true);
    try {
      await (retire ? templateApi.retire(record.id) : templateApi.restore(record.id));
      notify(retire ? 'qe.template.message.retired' : 'qe.template.message.restored', { type: 'success' });
      refresh();
    } catch {
      // request() has shown the server's message
    } finally {
      setBusy(false);
      setOpen(null);
    }
  };

  // the dialogs live in portals, but React still bubbles their clicks to the row (which would open the preview)
  const stop = (e: MouseEvent) => e.stopPropagation();
  const label = (a: TemplateRowAction) => translate(`qe.template.action.${a}`);
  return (
    <Box component="span" onClick={stop} sx={{ display: 'inline-flex', flexWrap: 'nowrap' }}>
      {actions.map((a) => (
        <Tooltip key={a} title={label(a)}>
          <span>
            <IconButton size="small" aria-label={`${label(a)}: ${name}`} onClick={() => setOpen(a)} disabled={busy} data-testid={`template-${a}`} color={a === 'retire' ? 'warning' : 'default'}>
              {ICONS[a]}
            </IconButton>
          </span>
        </Tooltip>
      ))}
      {open === 'preview' && <TemplatePreview id={record.id} onClose={close} />}
      {open === 'use' && <UseTemplateDialog template={record} onClose={close} />}
      {open === 'edit' && (
        <TemplateDialog
          titleKey="qe.template.edit.title"
          initial={{
            nameHk: record.nameHk,
            nameEn: record.nameEn,
            descriptionHk: record.descriptionHk ?? '',
            descriptionEn: record.descriptionEn ?? '',
            audienceKind: record.audienceKind,
            gradeCode: record.gradeCode,
          }}
          submitKey="qe.template.action.save"
          testId="template-edit-dialog"
          submit={(v) => templateApi.update(record.id, templateBody(v))}
          onClose={close}
          onDone={() => {
            notify('qe.template.message.saved', { type: 'success' });
            close();
            refresh();
          }}
        />
      )}
      <Confirm
        isOpen={open === 'retire' || open === 'restore'}
        loading={busy}
        title="qe.confirm.title"
        content={open === 'restore' ? 'qe.template.message.restoreConfirm' : 'qe.template.message.retireConfirm'}
        translateOptions={{ name }}
        confirm={open === 'restore' ? 'qe.template.action.restore' : 'qe.template.action.retire'}
        confirmColor="warning"
        onConfirm={() => flip(open === 'retire')}
        onClose={close}
      />
    </Box>
  );
}
