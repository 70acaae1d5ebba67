import { useCallback, useEffect, useState } from 'react';
import {
  Autocomplete,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  IconButton,
  MenuItem,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import PersonRemoveIcon from '@mui/icons-material/PersonRemove';
import { Confirm, useLocale, useNotify } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { useHolds } from '../master/access';
import { developerApi, USER_SOURCES, type Role, type RoleUser, type UserSource } from './api';

/** The list a role's people usually come from: its user type's (super administrators are kept with the admins). */
export function defaultSource(role: Pick<Role, 'userType'>): UserSource {
  return role.userType === 'TEACHER' ? 'teachers' : role.userType === 'STUDENT' ? 'students' : 'admins';
}

/** Gives a user one more role, or takes one away, keeping their others (GET then PUT /v1/users/:id/roles). */
export async function changeUserRole(userId: number, roleId: number, hold: boolean): Promise<void> {
  const current = await developerApi.userRoles(userId);
  const next = hold ? [...new Set([...current, roleId])] : current.filter((r) => r !== roleId);
  if (next.length === current.length && next.every((r) => current.includes(r))) return;
  await developerApi.setUserRoles(userId, next);
}

function useSources() {
  const admins = useHolds('admin', 'view');
  const teachers = useHolds('teacher', 'view');
  const students = useHolds('student', 'view');
  const allowed = { admins, teachers, students };
  return USER_SOURCES.filter((s) => allowed[s.resource]);
}

/** Picks people from one of the master lists (the ones the user may read), searching as they type. */
function AddUsersDialog({ role, holders, open, onClose, onAdded }: { role: Role; holders: RoleUser[]; open: boolean; onClose: () => void; onAdded: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const en = useLocale() === 'en';
  const sources = useSources();
  const preferred = defaultSource(role);
  const [source, setSource] = useState<UserSource | ''>('');
  const [input, setInput] = useState('');
  const [options, setOptions] = useState<RoleUser[]>([]);
  const [loading, setLoading] = useState(false);
  const [picked, setPicked] = useState<RoleUser[]>([]);
  const [busy, setBusy] = useState(false);
  const current = source || (sources.some((s) => s.resource === preferred) ? preferred : sources[0]?.resource) || '';

  useEffect(() => {
    if (!open) {
      setPicked([]);
      setInput('');
    }
  }, [open]);

  useEffect(() => {
    if (!open || !current) return;
    let live = true;
    setLoading(true);
    const timer = setTimeout(() => {
      void developerApi.searchUsers(current, input).then((list) => {
        if (!live) return;
        setOptions(list);
        setLoading(false);
      });
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [open, current, input]);

  const label = (u: RoleUser) => `${u.code ?? ''} ${en ? u.nameEn : u.nameHk}`.trim();
  const holderIds = new Set(holders.map((h) => h.id));

  const add = async () => {
    setBusy(true);
    try {
      for (const u of picked) await changeUserRole(u.id, role.id, true);
      notify('qe.developer.users.added', { type: 'success', messageArgs: { smart_count: picked.length } });
      onAdded();
      onClose();
    } catch {
      // request() has shown the server's message
      onAdded();
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onClose={busy ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby="qe-add-users-title" data-testid="role-users-dialog">
      <DialogTitle id="qe-add-users-title">{translate('qe.developer.users.addTitle', { name: en ? role.nameEn : role.nameHk })}</DialogTitle>
      <DialogContent>
        {sources.length === 0 ? (
          <Typography sx={{ color: 'text.secondary' }}>{translate('qe.developer.users.noSource')}</Typography>
        ) : (
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField select label={translate('qe.developer.users.source')} value={current} onChange={(e) => setSource(e.target.value as UserSource)} slotProps={{ htmlInput: { 'data-testid': 'role-users-source' } }}>
              {sources.map((s) => (
                <MenuItem key={s.resource} value={s.resource}>
                  {translate(`qe.menu.${s.resource}`)}
                </MenuItem>
              ))}
            </TextField>
            <Autocomplete
              multiple
              filterSelectedOptions
              options={options}
              value={picked}
              loading={loading}
              filterOptions={(o) => o}
              getOptionLabel={label}
              getOptionDisabled={(u) => holderIds.has(u.id)}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              onChange={(_e, value) => setPicked(value)}
              inputValue={input}
              onInputChange={(_e, value, reason) => {
                if (reason !== 'reset') setInput(value);
              }}
              noOptionsText={translate('qe.common.noData')}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={translate('qe.developer.users.search')}
                  slotProps={{ ...params.slotProps, htmlInput: { ...params.slotProps.htmlInput, 'data-testid': 'role-users-search' } }}
                />
              )}
            />
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {translate('qe.common.cancel')}
        </Button>
        <Button variant="contained" onClick={add} disabled={busy || picked.length === 0} startIcon={busy ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined} data-testid="role-users-add">
          {translate('qe.developer.users.add')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * The users holding a role (GET /v1/roles/:id/users); with role.assign-roles, people can be
 * added from a searchable picker and removed — each change is PUT /v1/users/:id/roles,
 * effective on the user's next request.
 */
export function RoleUsers({ role }: { role: Role }) {
  const translate = useTranslate();
  const notify = useNotify();
  const en = useLocale() === 'en';
  const mayAssign = useHolds('role', 'assign-roles');
  const [users, setUsers] = useState<RoleUser[] | null>(null);
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<RoleUser | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    developerApi.roleUsers(role.id).then(setUsers, () => setUsers([]));
  }, [role.id]);
  useEffect(load, [load]);

  const remove = async () => {
    if (!removing) return;
    setBusy(true);
    try {
      await changeUserRole(removing.id, role.id, false);
      notify('qe.developer.users.removed', { type: 'success' });
    } catch {
      // request() has shown the server's message (709: own developer access)
    } finally {
      setBusy(false);
      setRemoving(null);
      load();
    }
  };

  return (
    <Paper variant="outlined" sx={{ mt: 2, p: 2 }} data-testid="role-users">
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography variant="h6" component="h2">
          {translate('qe.developer.users.title')} {users && <Chip size="small" label={users.length} />}
        </Typography>
        {mayAssign && (
          <Button startIcon={<PersonAddIcon />} onClick={() => setAdding(true)} data-testid="role-users-open">
            {translate('qe.developer.users.add')}
          </Button>
        )}
      </Stack>
      {!users ? (
        <Box sx={{ p: 2, display: 'flex', justifyContent: 'center' }}>
          <CircularProgress size={24} />
        </Box>
      ) : users.length === 0 ? (
        <Typography sx={{ color: 'text.secondary' }}>{translate('qe.developer.users.none')}</Typography>
      ) : (
        <Box sx={{ maxHeight: 420, overflow: 'auto' }}>
          <Table size="small" stickyHeader>
            <TableHead>
              <TableRow>
                <TableCell>{translate('qe.developer.users.code')}</TableCell>
                <TableCell>{translate('qe.developer.users.username')}</TableCell>
                <TableCell>{translate('qe.developer.users.name')}</TableCell>
                <TableCell>{translate('qe.developer.role.userType')}</TableCell>
                {mayAssign && <TableCell>{translate('qe.master.actions')}</TableCell>}
              </TableRow>
            </TableHead>
            <TableBody>
              {users.map((u) => (
                <TableRow key={u.id} data-testid={`role-user-${u.username ?? u.id}`}>
                  <TableCell>{u.code}</TableCell>
                  <TableCell>{u.username}</TableCell>
                  <TableCell>{en ? u.nameEn : u.nameHk}</TableCell>
                  <TableCell>{u.userType ? translate(`qe.userType.${u.userType}`) : ''}</TableCell>
                  {mayAssign && (
                    <TableCell align="right">
                      <Tooltip title={translate('qe.developer.users.remove')}>
                        <IconButton size="small" onClick={() => setRemoving(u)} aria-label={`${translate('qe.developer.users.remove')}: ${en ? u.nameEn : u.nameHk}`} data-testid="role-user-remove">
                          <PersonRemoveIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      {mayAssign && <AddUsersDialog role={role} holders={users ?? []} open={adding} onClose={() => setAdding(false)} onAdded={load} />}
      <Confirm
        isOpen={Boolean(removing)}
        loading={busy}
        title="qe.confirm.title"
        content={removing ? translate('qe.developer.users.removeConfirm', { name: en ? removing.nameEn : removing.nameHk, role: en ? role.nameEn : role.nameHk }) : ''}
        confirmColor="warning"
        onConfirm={remove}
        onClose={() => setRemoving(null)}
      />
    </Paper>
  );
}
