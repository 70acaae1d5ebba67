import { useEffect, useState } from 'react';
import {
  Button,
  Checkbox,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  Typography,
} from '@mui/material';
import ManageAccountsIcon from '@mui/icons-material/ManageAccounts';
import { useLocale, useNotify, useRecordContext } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { useHolds } from '../master/access';
import { developerApi, type Role } from './api';

/**
 * "Assign roles" on a user's record (admins, teachers, students): the roles of QE as
 * checkboxes, the user's own ticked (GET /v1/users/:id/roles), saved as a whole (PUT). Shown
 * only to holders of role.assign-roles; the user sees the change on their next load.
 */
export function AssignRolesButton() {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const en = useLocale() === 'en';
  const mayAssign = useHolds('role', 'assign-roles');
  const [open, setOpen] = useState(false);
  const [roles, setRoles] = useState<Role[] | null>(null);
  const [held, setHeld] = useState<Set<number>>(new Set());
  const [busy, setBusy] = useState(false);
  const userId = Number(record?.id);

  useEffect(() => {
    if (!open) return;
    let live = true;
    setRoles(null);
    Promise.all([developerApi.roles(), developerApi.userRoles(userId)]).then(
      ([all, mine]) => {
        if (!live) return;
        setRoles(all);
        setHeld(new Set(mine));
      },
      () => live && setOpen(false),
    );
    return () => {
      live = false;
    };
  }, [open, userId]);

  if (!mayAssign || !record) return null;

  const save = async () => {
    setBusy(true);
    try {
      await developerApi.setUserRoles(userId, [...held].sort((a, b) => a - b));
      notify('qe.developer.assign.saved', { type: 'success' });
      setOpen(false);
    } catch {
      // request() has shown the server's message (709: own developer access)
    } finally {
      setBusy(false);
    }
  };
  const name = String((en ? record.nameEn : record.nameHk) ?? record.username ?? '');

  return (
    <>
      <Button type="button" size="small" startIcon={<ManageAccountsIcon />} onClick={() => setOpen(true)} data-testid="assign-roles">
        {translate('qe.developer.assign.button')}
      </Button>
      <Dialog open={open} onClose={busy ? undefined : () => setOpen(false)} fullWidth maxWidth="xs" aria-labelledby="qe-assign-roles-title" data-testid="assign-roles-dialog">
        <DialogTitle id="qe-assign-roles-title">{translate('qe.developer.assign.title', { name })}</DialogTitle>
        <DialogContent>
          {!roles ? (
            <CircularProgress size={24} />
          ) : (
            <FormGroup>
              {roles.map((r) => (
                <FormControlLabel
                  key={r.id}
                  control={
                    <Checkbox
                      checked={held.has(r.id)}
                      onChange={(e) => {
                        const next = new Set(held);
                        if (e.target.checked) next.add(r.id);
                        else next.delete(r.id);
                        setHeld(next);
                      }}
                      slotProps={{ input: { 'data-testid': `assign-role-${r.roleCode}` } as object }}
                    />
                  }
                  label={
                    <>
                      {en ? r.nameEn : r.nameHk}{' '}
                      <Typography component="span" variant="caption" sx={{ color: 'text.secondary' }}>
                        {r.roleCode} · {translate(`qe.userType.${r.userType}`)}
                      </Typography>
                    </>
                  }
                />
              ))}
            </FormGroup>
          )}
          <Typography variant="body2" sx={{ mt: 1, color: 'text.secondary' }}>
            {translate('qe.developer.assign.effect')}
          </Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} disabled={busy}>
            {translate('qe.common.cancel')}
          </Button>
          <Button variant="contained" onClick={save} disabled={busy || !roles} data-testid="assign-roles-save">
            {translate('qe.common.save')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
