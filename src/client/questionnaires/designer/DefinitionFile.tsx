import { useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, List, ListItem, ListItemIcon, ListItemText, MenuItem } from '@mui/material';
import FileDownloadIcon from '@mui/icons-material/FileDownload';
import FileUploadIcon from '@mui/icons-material/FileUpload';
import { Confirm, useNotify } from 'react-admin';
import { useTranslate } from '../../i18n/translate';
import { definitionErrors, questionCount, type Definition, type DefinitionProblem } from '../../../shared/questionnaire/definition';
import { withoutOrphans } from '../../../shared/questionnaire/languages';
import { saveBlob } from '../../master/download';
import { describePath, problemText } from './problems';

/** The largest definition file the import reads. */
export const DEFINITION_FILE_MAX_BYTES = 5 * 1024 * 1024;

export type ParsedDefinitionFile = { definition: Definition } | { notJson: true } | { problems: DefinitionProblem[] };

/**
 * A definition file's content checked as the server would check it (`definitionErrors`). Takes an
 * exported definition, or a questionnaire record holding one. Its languages and translations come
 * with it (docs/questionnaire-languages.md); a translation of a text the file does not have (a
 * question deleted before the export) is accepted and dropped, as saving would drop it.
 */
export function parseDefinitionFile(text: string): ParsedDefinitionFile {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { notJson: true };
  }
  if (value && typeof value === 'object' && !('version' in value) && 'definition' in value) value = (value as { definition: unknown }).definition;
  const problems = definitionErrors(value);
  return problems.length ? { problems } : { definition: withoutOrphans(value as Definition) };
}

const readText = (file: File): Promise<string> =>
  typeof file.text === 'function'
    ? file.text()
    : new Promise((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.onerror = () => reject(reader.error);
        reader.readAsText(file);
      });

/** A toolbar button, or an entry of the phone's overflow menu (DesignerToolbar.tsx). */
function ActionButton({ asMenuItem, icon, label, onClick, testid }: { asMenuItem: boolean; icon: ReactNode; label: string; onClick: () => void; testid: string }) {
  if (asMenuItem) {
    return (
      <MenuItem onClick={onClick} data-testid={testid}>
        <ListItemIcon>{icon}</ListItemIcon>
        <ListItemText>{label}</ListItemText>
      </MenuItem>
    );
  }
  return (
    <Button size="small" startIcon={icon} onClick={onClick} data-testid={testid}>
      {label}
    </Button>
  );
}

/** Export: the definition on screen as questionnaire-{id}.json. */
export function ExportDefinitionButton({ definition, id, asMenuItem = false }: { definition: Definition; id: number | string; asMenuItem?: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const run = () => {
    saveBlob(new Blob([JSON.stringify(definition, null, 2)], { type: 'application/json' }), `questionnaire-${id}.json`);
    notify('qe.success.exported', { type: 'success' });
  };
  return (
    <ActionButton asMenuItem={asMenuItem} icon={<FileDownloadIcon />} label={translate('qe.designer.export')} onClick={run} testid="designer-export" />
  );
}

/**
 * Import: a JSON file picked, checked with `definitionErrors` (a bad file is refused with its
 * reasons, translated, each with where it is), then — after a confirmation — it replaces the
 * questions on screen (not saved until "save").
 */
export function ImportDefinitionButton({ onImport, asMenuItem = false }: { onImport: (definition: Definition) => void; asMenuItem?: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  // the reasons stay while the dialog fades out
  const [refused, setReasons] = useState<string[]>([]);
  const [refusedOpen, setRefusedOpen] = useState(false);
  const setRefused = (reasons: string[] | null) => {
    if (reasons) setReasons(reasons);
    setRefusedOpen(reasons !== null);
  };
  const [pending, setPending] = useState<Definition | null>(null);

  const pick = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    if (file.size > DEFINITION_FILE_MAX_BYTES) return setRefused([translate('qe.designer.import.tooLarge')]);
    let text: string;
    try {
      text = await readText(file);
    } catch {
      return setRefused([translate('qe.designer.import.notJson')]);
    }
    const parsed = parseDefinitionFile(text);
    if ('notJson' in parsed) return setRefused([translate('qe.designer.import.notJson')]);
    if ('problems' in parsed) {
      return setRefused(parsed.problems.map((p) => `${describePath(translate, p.path)}: ${problemText(translate, p.problem)}`));
    }
    setPending(parsed.definition);
  };

  return (
    <>
      <ActionButton asMenuItem={asMenuItem} icon={<FileUploadIcon />} label={translate('qe.designer.import.button')} onClick={() => input.current?.click()} testid="designer-import" />
      <input ref={input} hidden type="file" accept="application/json,.json" onChange={pick} data-testid="designer-import-file" />
      <Dialog open={refusedOpen} onClose={() => setRefused(null)} aria-labelledby="qe-import-refused" data-testid="import-refused">
        <DialogTitle id="qe-import-refused">{translate('qe.designer.import.refusedTitle')}</DialogTitle>
        <DialogContent dividers>
          <DialogContentText>{translate('qe.designer.import.refused')}</DialogContentText>
          <List dense>
            {refused.slice(0, 50).map((reason, i) => (
              <ListItem key={i} disableGutters>
                <ListItemText primary={reason} />
              </ListItem>
            ))}
          </List>
          {refused.length > 50 && <DialogContentText>{translate('qe.designer.moreProblems', { smart_count: refused.length - 50 })}</DialogContentText>}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setRefused(null)} autoFocus>
            {translate('qe.common.close')}
          </Button>
        </DialogActions>
      </Dialog>
      <Confirm
        isOpen={pending !== null}
        title="qe.designer.import.confirmTitle"
        content="qe.designer.import.confirm"
        translateOptions={{ smart_count: pending ? questionCount(pending) : 0 }}
        confirm="qe.designer.import.replace"
        confirmColor="warning"
        onConfirm={() => {
          if (pending) onImport(pending);
          setPending(null);
          notify('qe.designer.import.done', { type: 'info' });
        }}
        onClose={() => setPending(null)}
      />
    </>
  );
}
