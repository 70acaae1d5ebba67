import { useState, type ReactNode } from 'react';
import { Box, Button, Chip, CircularProgress, IconButton, ListItemIcon, ListItemText, Menu, MenuItem, Paper, Tooltip, Typography, useMediaQuery, type Theme } from '@mui/material';
import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import DoneAllIcon from '@mui/icons-material/DoneAll';
import EditNoteIcon from '@mui/icons-material/EditNote';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import SaveIcon from '@mui/icons-material/Save';
import VisibilityIcon from '@mui/icons-material/Visibility';
import { useTranslate } from '../../i18n/translate';
import type { Definition } from '../../../shared/questionnaire/definition';
import { ExportDefinitionButton, ImportDefinitionButton } from './DefinitionFile';

export interface DesignerToolbarProps {
  id: number;
  title: string;
  /** the questionnaire's status, in words */
  status: string;
  preparing: boolean;
  dirty: boolean;
  editable: boolean;
  saving: boolean;
  definition: Definition;
  onBack: () => void;
  onDetails: () => void;
  onPreview: () => void;
  onImport: (definition: Definition) => void;
  onSave: () => void;
  onComplete: () => void;
}

/**
 * The designer's sticky toolbar. Wide: every action as a labelled button. On a phone one row —
 * back, the title, save — and the rest (details, preview, export, import, design complete) in an
 * overflow menu, so the toolbar does not take a third of the screen. The menu stays mounted while
 * closed: the import's file picker and its dialogs live in its entry.
 */
export function DesignerToolbar(props: DesignerToolbarProps) {
  const translate = useTranslate();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const { id, title, status, preparing, dirty, editable, saving, definition } = props;
  const close = (then: () => void) => () => {
    setMenu(null);
    then();
  };

  const heading = (
    <Box sx={{ flex: '1 1 200px', minWidth: 0, display: 'flex', alignItems: 'center', gap: 1 }}>
      <Typography component="h1" variant="h6" noWrap title={title} data-testid="designer-title" sx={phone ? { fontSize: '1rem' } : undefined}>
        {title}
      </Typography>
      <Chip size="small" label={status} color={preparing ? 'primary' : 'default'} data-testid="designer-status" />
      {dirty && <Chip size="small" color="warning" variant="outlined" label={translate('qe.designer.unsaved')} data-testid="designer-dirty" />}
    </Box>
  );
  const saveIcon = saving ? <CircularProgress size={16} color="inherit" aria-hidden /> : <SaveIcon />;

  if (phone) {
    return (
      <Paper elevation={2} sx={{ position: 'sticky', top: 0, zIndex: 5, px: 0.5, py: 0.5, mb: 2, display: 'flex', alignItems: 'center', gap: 0.5, flexWrap: 'nowrap' }} data-testid="designer-toolbar">
        <Tooltip title={translate('qe.designer.backToList')}>
          <IconButton onClick={props.onBack} aria-label={translate('qe.designer.backToList')} data-testid="designer-back">
            <ArrowBackIcon />
          </IconButton>
        </Tooltip>
        {heading}
        {editable && (
          <Tooltip title={translate('qe.common.save')}>
            <span>
              <IconButton color="primary" onClick={props.onSave} disabled={saving} aria-label={translate('qe.common.save')} data-testid="designer-save">
                {saveIcon}
              </IconButton>
            </span>
          </Tooltip>
        )}
        <Tooltip title={translate('qe.designer.moreActions')}>
          <IconButton onClick={(e) => setMenu(e.currentTarget)} aria-label={translate('qe.designer.moreActions')} aria-haspopup="menu" aria-expanded={Boolean(menu)} data-testid="designer-more">
            <MoreVertIcon />
          </IconButton>
        </Tooltip>
        <Menu anchorEl={menu} open={Boolean(menu)} onClose={() => setMenu(null)} keepMounted>
          <Entry icon={<EditNoteIcon />} label={translate('qe.designer.details')} onClick={close(props.onDetails)} testid="designer-details" />
          <Entry icon={<VisibilityIcon />} label={translate('qe.designer.preview.button')} onClick={close(props.onPreview)} testid="designer-preview" />
          <Box onClick={() => setMenu(null)}>
            <ExportDefinitionButton definition={definition} id={id} asMenuItem />
          </Box>
          {editable && <ImportDefinitionButton onImport={props.onImport} asMenuItem />}
          {editable && <Entry icon={<DoneAllIcon />} label={translate('qe.questionnaire.action.ready')} onClick={close(props.onComplete)} disabled={saving} testid="designer-ready" />}
        </Menu>
      </Paper>
    );
  }

  return (
    <Paper elevation={2} sx={{ position: 'sticky', top: 0, zIndex: 5, p: 1.5, mb: 2, display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }} data-testid="designer-toolbar">
      <Button size="small" startIcon={<ArrowBackIcon />} onClick={props.onBack} data-testid="designer-back">
        {translate('qe.designer.backToList')}
      </Button>
      {heading}
      <Button size="small" startIcon={<EditNoteIcon />} onClick={props.onDetails} data-testid="designer-details">
        {translate('qe.designer.details')}
      </Button>
      <Button size="small" startIcon={<VisibilityIcon />} onClick={props.onPreview} data-testid="designer-preview">
        {translate('qe.designer.preview.button')}
      </Button>
      <ExportDefinitionButton definition={definition} id={id} />
      {editable && (
        <>
          <ImportDefinitionButton onImport={props.onImport} />
          <Button variant="contained" size="small" startIcon={saveIcon} onClick={props.onSave} disabled={saving} data-testid="designer-save">
            {translate('qe.common.save')}
          </Button>
          <Button variant="outlined" size="small" startIcon={<DoneAllIcon />} onClick={props.onComplete} disabled={saving} data-testid="designer-ready">
            {translate('qe.questionnaire.action.ready')}
          </Button>
        </>
      )}
    </Paper>
  );
}

function Entry({ icon, label, onClick, testid, disabled }: { icon: ReactNode; label: string; onClick: () => void; testid: string; disabled?: boolean }) {
  return (
    <MenuItem onClick={onClick} disabled={disabled} data-testid={testid}>
      <ListItemIcon>{icon}</ListItemIcon>
      <ListItemText>{label}</ListItemText>
    </MenuItem>
  );
}
