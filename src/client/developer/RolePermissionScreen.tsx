import { useCallback, useEffect, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import SaveIcon from '@mui/icons-material/Save';
import ListIcon from '@mui/icons-material/List';
import UndoIcon from '@mui/icons-material/Undo';
import { Title, useLocale, useNotify } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { useHolds } from '../master/access';
import { developerApi, type MenuNode, type Role } from './api';
import { PermissionGrid } from './PermissionGrid';
import { ROLE_LIST } from './paths';
import { RecordNotFound } from '../common/RecordNotFound';

interface Loaded {
  role: Role;
  tree: MenuNode[];
  held: number[];
}

const same = (a: ReadonlySet<number>, b: number[]) => a.size === b.length && b.every((id) => a.has(id));

/**
 * rolePermission: the role's actions on every page of system QE as a checkbox grid, saved as a
 * whole through select-action. A refusal (709: the change would lock the user out of the
 * developer area) shows the server's message and keeps the grid as it was edited.
 */
export function RolePermissionScreen() {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const en = useLocale() === 'en';
  const [params] = useSearchParams();
  const roleId = Number(params.get('id'));
  const mayEdit = useHolds('role', 'edit');
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [failed, setFailed] = useState(false);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [saving, setSaving] = useState(false);

  const load = useCallback(async () => {
    if (!Number.isInteger(roleId) || roleId < 1) return setFailed(true);
    try {
      const [role, tree, held] = await Promise.all([
        developerApi.role(roleId),
        developerApi.tree(),
        developerApi.roleActions(roleId).then((r) => r.actions),
      ]);
      setLoaded({ role, tree, held });
      setSelected(new Set(held));
    } catch {
      setFailed(true);
    }
  }, [roleId]);

  useEffect(() => {
    void load();
  }, [load]);

  const title = translate('qe.menu.rolePermission');
  if (failed) {
    return <RecordNotFound title={title} />;
  }
  if (!loaded) {
    return (
      <Box sx={{ p: 4, display: 'flex', justifyContent: 'center' }}>
        <Title title={title} />
        <CircularProgress />
      </Box>
    );
  }

  const { role, tree, held } = loaded;
  const dirty = !same(selected, held);
  const save = async () => {
    setSaving(true);
    try {
      const ids = [...selected].sort((a, b) => a - b);
      await developerApi.selectActions(role.id, ids);
      setLoaded({ ...loaded, held: ids });
      notify('qe.developer.permission.saved', { type: 'success' });
    } catch {
      // request() has shown the server's message (709: own developer access)
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card sx={{ mt: 2 }} data-testid="role-permission">
      <Title title={`${title} — ${en ? role.nameEn : role.nameHk}`} />
      <CardContent>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { sm: 'center' }, justifyContent: 'space-between' }}>
          <Box>
            <Typography variant="h6" component="h1">
              {en ? role.nameEn : role.nameHk}{' '}
              <Typography component="span" sx={{ color: 'text.secondary' }}>
                {role.roleCode} · {translate(`qe.userType.${role.userType}`)}
              </Typography>
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {translate('qe.developer.permission.count', { n: selected.size, total: tree.reduce((n, m) => n + m.actions.length, 0) })}
            </Typography>
          </Box>
          <Stack direction="row" spacing={1}>
            <Button startIcon={<ListIcon />} onClick={() => navigate(ROLE_LIST)}>
              {translate('qe.master.backToList')}
            </Button>
            {mayEdit && (
              <>
                <Button startIcon={<UndoIcon />} disabled={!dirty || saving} onClick={() => setSelected(new Set(held))} data-testid="permission-reset">
                  {translate('qe.developer.permission.reset')}
                </Button>
                <Button variant="contained" startIcon={saving ? <CircularProgress size={18} color="inherit" aria-hidden /> : <SaveIcon />} disabled={!dirty || saving} onClick={save} data-testid="permission-save">
                  {translate('qe.common.save')}
                </Button>
              </>
            )}
          </Stack>
        </Stack>
        {!mayEdit && (
          <Alert severity="info" sx={{ mb: 2 }}>
            {translate('qe.developer.permission.readOnly')}
          </Alert>
        )}
        <PermissionGrid tree={tree} selected={selected} onChange={setSelected} disabled={!mayEdit || saving} />
        <Typography variant="body2" sx={{ mt: 2, color: 'text.secondary' }}>
          {translate('qe.developer.permission.effect')}
        </Typography>
      </CardContent>
    </Card>
  );
}
