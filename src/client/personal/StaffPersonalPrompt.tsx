import { useEffect, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useTranslate } from '../i18n/translate';
import { useNavigate } from 'react-router-dom';
import { hasPermission } from '../../shared/permissions';
import { loadUserInfo } from '../providers/authProvider';
import { STAFF_EDIT_PERSONAL_KEY } from '../providers/session';

export const MY_PERSONAL_DATA = '/personal-data/mine';

/**
 * The staff-edit-personal flag (docs/product-rules.md#states), as QE reads it: after logging in, a staff member who
 * may ask for changes (Personal and Apply) and whose personal data is not confirmed — never
 * asked for, or the last request rejected — is asked once to check it. "Check now", "Later" and
 * submitting a request all set the flag in local storage, so the question does not come back
 * until the next login (logout clears the flag). A request waiting or confirmed asks nothing.
 */
export function shouldAskForPersonalData(info: { userType: string; personalDataStatus?: string | null; permissions: Parameters<typeof hasPermission>[0] }, flag: string | null): boolean {
  if (flag) return false;
  if (info.userType === 'STUDENT') return false;
  if (!hasPermission(info.permissions, 'personal-data.personal') || !hasPermission(info.permissions, 'personal-data.apply')) return false;
  return !info.personalDataStatus || info.personalDataStatus === 'REJECT';
}

export function StaffPersonalPrompt() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    let live = true;
    loadUserInfo().then(
      (info) => {
        if (live && shouldAskForPersonalData(info, localStorage.getItem(STAFF_EDIT_PERSONAL_KEY))) setOpen(true);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);

  const close = (check: boolean) => {
    localStorage.setItem(STAFF_EDIT_PERSONAL_KEY, '1');
    setOpen(false);
    if (check) navigate(MY_PERSONAL_DATA);
  };

  return (
    <Dialog open={open} onClose={() => close(false)} aria-labelledby="qe-personal-prompt-title" data-testid="personal-prompt">
      <DialogTitle id="qe-personal-prompt-title">{translate('qe.personalData.prompt.title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{translate('qe.personalData.prompt.body')}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => close(false)} data-testid="personal-prompt-later">
          {translate('qe.personalData.prompt.later')}
        </Button>
        <Button variant="contained" onClick={() => close(true)} data-testid="personal-prompt-check" autoFocus>
          {translate('qe.personalData.prompt.check')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
