import { useState } from 'react';
import { Button, ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useTranslate } from '../../i18n/translate';
import type { QuestionType } from '../../../shared/questionnaire/definition';
import { TYPE_ICONS, TYPE_ORDER } from './typeIcons';

/** "Add question": a menu of the ten types. */
export function AddQuestionButton({ onAdd, disabled, testId = 'add-question' }: { onAdd: (type: QuestionType) => void; disabled?: boolean; testId?: string }) {
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button variant="outlined" startIcon={<AddIcon />} onClick={(e) => setAnchor(e.currentTarget)} disabled={disabled} aria-haspopup="menu" data-testid={testId}>
        {translate('qe.designer.question.add')}
      </Button>
      <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={() => setAnchor(null)}>
        {TYPE_ORDER.map((type) => {
          const Icon = TYPE_ICONS[type];
          return (
            <MenuItem
              key={type}
              onClick={() => {
                setAnchor(null);
                onAdd(type);
              }}
              data-testid={`add-type-${type}`}
            >
              <ListItemIcon>
                <Icon fontSize="small" />
              </ListItemIcon>
              <ListItemText>{translate(`qe.question.types.${type}`)}</ListItemText>
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}
