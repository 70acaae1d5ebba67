import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, CircularProgress, TextField } from '@mui/material';
import { useAuthProvider, useTranslate } from 'react-admin';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router-dom';

/** Where to go after login: the `redirect` parameter when it is a path of ours, else home. */
export function safeRedirect(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/login') ? value : '/';
}

/** User name and password, with the spec's messages; the user name is trimmed. */
export function LoginForm() {
  const translate = useTranslate();
  const authProvider = useAuthProvider();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState({ username: false, password: false });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const usernameError = touched.username && !username.trim() ? translate('qe.login.usernameRequired') : '';
  const passwordError = touched.password && !password ? translate('qe.login.passwordRequired') : '';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched({ username: true, password: true });
    if (!username.trim() || !password) return;
    setBusy(true);
    setError(null);
    try {
      await authProvider!.login({ username: username.trim(), password });
      // react-admin's useLogin keeps the failed pre-login checkAuth in its cache, and the
      // layout would log the new session out on that stale answer: forget every auth answer
      queryClient.removeQueries({ queryKey: ['auth'] });
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch (err) {
      setError((err as Error)?.message || translate('qe.error.tryLater'));
      setBusy(false);
    }
  };

  return (
    <Box component="form" onSubmit={submit} noValidate sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {error && (
        <Alert severity="error" data-testid="login-error">
          {error}
        </Alert>
      )}
      <TextField
        name="username"
        label={translate('qe.login.username')}
        value={username}
        onChange={(e) => setUsername(e.target.value)}
        onBlur={() => setTouched((t) => ({ ...t, username: true }))}
        error={Boolean(usernameError)}
        helperText={usernameError || ' '}
        autoComplete="username"
        autoFocus
        fullWidth
        slotProps={{ htmlInput: { 'data-testid': 'login-username', maxLength: 100 } }}
      />
      <TextField
        name="password"
        type="password"
        label={translate('qe.login.password')}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        onBlur={() => setTouched((t) => ({ ...t, password: true }))}
        error={Boolean(passwordError)}
        helperText={passwordError || ' '}
        autoComplete="current-password"
        fullWidth
        slotProps={{ htmlInput: { 'data-testid': 'login-password', maxLength: 100 } }}
      />
      <Button type="submit" variant="contained" size="large" disabled={busy} data-testid="login-submit" startIcon={busy ? <CircularProgress size={18} color="inherit" /> : null}>
        {translate('qe.login.submit')}
      </Button>
    </Box>
  );
}
