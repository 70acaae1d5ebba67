import { useEffect, useState } from 'react';
import { Alert, Box, Button, FormControlLabel, FormGroup, Switch, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { PASSWORD_POLICY_ROLES } from '../../shared/calls/sign-in';
import { Loading } from '../common/Loading';
import { signInApi, type PasswordPolicy } from './api';

export const PASSWORD_POLICY_KEY = ['sign-in-password-policy'];

/**
 * Whether administrators, teachers and students may still log in with a password (the super
 * administrator always may: a provider's outage never locks the school out), saved with its own
 * button; the server refuses what would lock a role out, and its message shows above the switches.
 */
export function PasswordPolicySettings({ mayEdit }: { mayEdit: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const client = useQueryClient();
  const { data, isPending, isError } = useQuery({ queryKey: PASSWORD_POLICY_KEY, queryFn: signInApi.passwordPolicy, retry: false });
  const [policy, setPolicy] = useState<PasswordPolicy | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (data) setPolicy(data);
  }, [data]);

  const save = async () => {
    if (!policy) return;
    setBusy(true);
    setRefusal(null);
    try {
      const saved = await signInApi.savePasswordPolicy(policy);
      client.setQueryData(PASSWORD_POLICY_KEY, saved);
      setPolicy(saved);
      notify('qe.signIn.policy.saved', { type: 'success' });
    } catch (e) {
      setRefusal((e as Error).message || translate('qe.error.operationFailed'));
    } finally {
      setBusy(false);
    }
  };
  const changed = Boolean(policy && data && PASSWORD_POLICY_ROLES.some((r) => policy[r] !== data[r]));

  return (
    <Box component="section" aria-labelledby="qe-password-policy-title" data-testid="password-policy">
      <Typography variant="subtitle1" component="h3" id="qe-password-policy-title" sx={{ fontWeight: 500 }}>
        {translate('qe.signIn.policy.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5, mb: 1 }} id="qe-password-policy-help">
        {translate('qe.signIn.policy.help')}
      </Typography>
      {refusal && (
        <Alert severity="error" sx={{ mb: 1 }} data-testid="password-policy-refusal">
          {refusal}
        </Alert>
      )}
      {isPending ? (
        <Loading />
      ) : isError || !policy ? (
        <Alert severity="warning">{translate('qe.error.tryLater')}</Alert>
      ) : (
        <>
          <FormGroup aria-describedby="qe-password-policy-help">
            {PASSWORD_POLICY_ROLES.map((role) => (
              <FormControlLabel
                key={role}
                control={
                  <Switch
                    checked={policy[role]}
                    disabled={!mayEdit || busy}
                    onChange={(e) => setPolicy({ ...policy, [role]: e.target.checked })}
                    slotProps={{ input: { 'data-testid': `password-policy-${role}` } as object }}
                  />
                }
                label={translate('qe.signIn.policy.allowed', { role: translate(`qe.userType.${role}`) })}
              />
            ))}
          </FormGroup>
          {mayEdit && (
            <Button variant="contained" sx={{ mt: 1 }} onClick={() => void save()} disabled={busy || !changed} data-testid="password-policy-save">
              {translate('qe.signIn.policy.save')}
            </Button>
          )}
        </>
      )}
    </Box>
  );
}
