import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Link, List, ListItem, ListItemText } from '@mui/material';
import TranslateIcon from '@mui/icons-material/Translate';
import { useTranslate } from '../../i18n/translate';

/** A text without its translation: its place in words, what is missing ("No English text yet"), and its path (to go to it). */
export interface MissingTranslation {
  path: string;
  place: string;
  text: string;
}

/**
 * Why "design complete" did not go ahead: each text still without its second-language version,
 * by place (found before asking the server, or the server's 422). A place leads to its input
 * (`onPick`); "open translations" to the translations view.
 */
export function MissingTranslationsDialog({
  items,
  open,
  onClose,
  onOpen,
  onPick,
}: {
  items: MissingTranslation[];
  open: boolean;
  onClose: () => void;
  /** opens the translations view; no button without it */
  onOpen?: () => void;
  onPick?: (path: string) => void;
}) {
  const translate = useTranslate();
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="qe-missing-translations" scroll="paper" data-testid="missing-translations">
      <DialogTitle id="qe-missing-translations">{translate('qe.designer.missing.title')}</DialogTitle>
      <DialogContent dividers>
        <DialogContentText>{translate('qe.designer.missing.intro', { smart_count: items.length })}</DialogContentText>
        <List dense>
          {items.slice(0, 100).map((m) => (
            <ListItem key={m.path} disableGutters data-testid="missing-translation" data-path={m.path}>
              <ListItemText
                primary={
                  onPick ? (
                    <Link component="button" type="button" onClick={() => onPick(m.path)} sx={{ textAlign: 'left', verticalAlign: 'baseline' }}>
                      {m.place}
                    </Link>
                  ) : (
                    m.place
                  )
                }
                secondary={m.text}
              />
            </ListItem>
          ))}
        </List>
        {items.length > 100 && <DialogContentText>{translate('qe.designer.moreProblems', { smart_count: items.length - 100 })}</DialogContentText>}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('qe.common.close')}</Button>
        {onOpen && (
          <Button variant="contained" startIcon={<TranslateIcon />} onClick={onOpen} autoFocus data-testid="missing-open-translations">
            {translate('qe.designer.missing.open')}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
