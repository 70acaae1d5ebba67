import { useId, useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Chip, Divider, IconButton, Stack, Tooltip, Typography } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import EditIcon from '@mui/icons-material/EditOutlined';
import ScienceIcon from '@mui/icons-material/ScienceOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Confirm, useLocale, useNotify } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { useHolds } from '../master/access';
import { Loading } from '../common/Loading';
import { ProviderMark } from '../auth/ProviderMark';
import { forgetSignIn, isProviderLink, leave, newBrowserKey, rememberSignIn } from '../auth/signInFlow';
import { PROVIDERS_KEY, signInApi, type IdentityProvider } from './api';
import { PasswordPolicySettings } from './PasswordPolicySettings';
import { ProviderDialog } from './ProviderDialog';

/** The page of these settings (the super administrator's): PAGES lists it with the server's half; asked for here whether listed yet or not. */
const PAGE = 'sign-in';

/** Copies a text: the clipboard where the page may use it, else the selection's copy command (an http address of the school's own network). */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    } finally {
      area.remove();
    }
  }
}

/**
 * The super administrator's test of a provider: a new window opens at once (a window opened after
 * the call would be a blocked pop-up), with a copy of this tab's session storage, so the browser
 * key kept before it opened is there when the provider sends it back to /sign-in-callback, which
 * shows the report. Without a window (pop-ups blocked), this tab goes.
 */
async function testProvider(provider: IdentityProvider): Promise<void> {
  const browserKey = newBrowserKey();
  rememberSignIn({ browserKey, providerId: provider.id, purpose: 'test' });
  const win = window.open('', '_blank');
  // the provider's page may not reach back into QE's
  if (win) win.opener = null;
  try {
    const { link } = await signInApi.test(provider.id, browserKey);
    if (!isProviderLink(link)) throw new Error('not a web address');
    if (win) {
      win.location.href = link;
      // the new window has its own copy: this tab's is of no use any more
      forgetSignIn();
    } else leave.to(link);
  } catch {
    // request() has shown the refusal
    win?.close();
    forgetSignIn();
  }
}

/** One provider: its mark, names, kind and state; what it checks; how many accounts it links; the redirect address to register; the actions. */
function ProviderItem({ provider, mayEdit, onEdit, onDelete }: { provider: IdentityProvider; mayEdit: boolean; onEdit: () => void; onDelete: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const en = useLocale() === 'en';
  const name = en ? provider.nameEn : provider.nameHk;
  const uriId = useId();
  const copy = async () => {
    if (await copyText(provider.redirectUri)) notify('qe.success.copied', { type: 'success' });
    else notify('qe.error.operationFailed', { type: 'error' });
  };
  const roles = provider.roles.map((r) => (['SUPER_ADMIN', 'ADMIN', 'TEACHER', 'STUDENT'].includes(r) ? translate(`qe.userType.${r as 'ADMIN'}`) : r)).join(en ? ', ' : '、');
  const secret =
    provider.secretSource === 'environment'
      ? translate('qe.signIn.settings.secretSources.environment', { name: provider.secretEnv ?? '' })
      : translate(provider.secretSource === 'stored' ? 'qe.signIn.settings.secretSources.stored' : 'qe.signIn.settings.secretSources.none');
  return (
    <Box component="li" sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 2, minWidth: 0 }} data-testid={`provider-${provider.id}`}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <ProviderMark kind={provider.kind} />
        <Typography component="h4" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }} data-testid="provider-name">
          {name}
        </Typography>
        <Chip size="small" label={translate(`qe.signIn.settings.kinds.${provider.kind}`)} />
        <Chip size="small" color={provider.enabled ? 'success' : 'default'} variant={provider.enabled ? 'filled' : 'outlined'} label={translate(provider.enabled ? 'qe.signIn.settings.enabled' : 'qe.signIn.settings.disabled')} data-testid="provider-state" />
      </Box>
      <Stack spacing={0.5} sx={{ mt: 1, color: 'text.secondary', typography: 'body2', overflowWrap: 'anywhere' }}>
        <span>{translate('qe.signIn.settings.issuerShown', { issuer: provider.issuer })}</span>
        <span>{translate('qe.signIn.settings.domainsShown', { domains: provider.domains.length ? provider.domains.join(', ') : translate('qe.signIn.settings.domainsAny') })}</span>
        <span>{translate('qe.signIn.settings.rolesShown', { roles })}</span>
        <span>{secret}</span>
        <span data-testid="provider-links">{translate('qe.signIn.settings.links', { count: provider.links })}</span>
      </Stack>
      <Typography variant="body2" id={uriId} sx={{ mt: 1.5, fontWeight: 500 }}>
        {translate('qe.signIn.settings.redirectUri')}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, minWidth: 0 }}>
        <Typography variant="body2" component="code" aria-labelledby={uriId} sx={{ fontFamily: 'monospace', wordBreak: 'break-all', bgcolor: 'action.hover', px: 1, py: 0.5, borderRadius: 0.5, minWidth: 0 }} data-testid="provider-redirect-uri">
          {provider.redirectUri}
        </Typography>
        <Tooltip title={translate('qe.signIn.settings.copy')}>
          <IconButton size="small" aria-label={translate('qe.signIn.settings.copyLabel', { name })} onClick={() => void copy()} data-testid="provider-copy">
            <ContentCopyIcon fontSize="small" />
          </IconButton>
        </Tooltip>
      </Box>
      {mayEdit && (
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 1.5 }}>
          <Button size="small" variant="outlined" startIcon={<ScienceIcon />} onClick={() => void testProvider(provider)} aria-label={translate('qe.signIn.settings.testLabel', { name })} data-testid="provider-test">
            {translate('qe.signIn.settings.test')}
          </Button>
          <Button size="small" startIcon={<EditIcon />} onClick={onEdit} aria-label={translate('qe.signIn.settings.editLabel', { name })} data-testid="provider-edit">
            {translate('qe.signIn.settings.edit')}
          </Button>
          <Button size="small" color="error" startIcon={<DeleteIcon />} onClick={onDelete} aria-label={translate('qe.signIn.settings.deleteLabel', { name })} data-testid="provider-delete">
            {translate('qe.signIn.settings.delete')}
          </Button>
        </Box>
      )}
    </Box>
  );
}

/** The providers: listed for holders of sign-in.view; added, edited, tested and deleted with sign-in.edit. */
function Providers({ mayEdit }: { mayEdit: boolean }) {
  const translate = useTranslate();
  const notify = useNotify();
  const client = useQueryClient();
  const en = useLocale() === 'en';
  const { data, isPending, isError } = useQuery({ queryKey: PROVIDERS_KEY, queryFn: signInApi.providers, retry: false });
  const [editing, setEditing] = useState<IdentityProvider | 'new' | null>(null);
  const [deleting, setDeleting] = useState<IdentityProvider | null>(null);
  const [busy, setBusy] = useState(false);

  const remove = async () => {
    if (!deleting) return;
    setBusy(true);
    try {
      await signInApi.remove(deleting.id);
      notify('qe.signIn.settings.deleted', { type: 'success' });
      setDeleting(null);
    } catch {
      // request() has shown the refusal
    } finally {
      setBusy(false);
      void client.invalidateQueries({ queryKey: PROVIDERS_KEY });
    }
  };
  const deletingName = deleting ? (en ? deleting.nameEn : deleting.nameHk) : '';

  return (
    <Box component="section" aria-labelledby="qe-providers-title">
      <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap', mt: 2, mb: 1 }}>
        <Typography variant="subtitle1" component="h3" id="qe-providers-title" sx={{ fontWeight: 500 }}>
          {translate('qe.signIn.settings.providers')}
        </Typography>
        {mayEdit && (
          <Button variant="outlined" startIcon={<AddIcon />} onClick={() => setEditing('new')} data-testid="provider-add">
            {translate('qe.signIn.settings.add')}
          </Button>
        )}
      </Box>
      {isPending ? (
        <Loading />
      ) : isError || !data ? (
        <Alert severity="warning">{translate('qe.signIn.settings.loadFailed')}</Alert>
      ) : data.length === 0 ? (
        <Typography variant="body2" color="text.secondary" data-testid="providers-none">
          {translate('qe.signIn.settings.none')}
        </Typography>
      ) : (
        <>
          <Stack component="ul" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="providers">
            {data.map((p) => (
              <ProviderItem key={p.id} provider={p} mayEdit={mayEdit} onEdit={() => setEditing(p)} onDelete={() => setDeleting(p)} />
            ))}
          </Stack>
          {mayEdit && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              {translate('qe.signIn.settings.testHelp')}
            </Typography>
          )}
        </>
      )}
      {editing && (
        <ProviderDialog
          provider={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            notify('qe.signIn.settings.saved', { type: 'success' });
            void client.invalidateQueries({ queryKey: PROVIDERS_KEY });
          }}
        />
      )}
      <Confirm
        isOpen={deleting !== null}
        loading={busy}
        title="qe.signIn.settings.deleteTitle"
        titleTranslateOptions={{ name: deletingName }}
        content={
          <>
            <Typography>{translate('qe.signIn.settings.deleteBody')}</Typography>
            {deleting && deleting.links > 0 && (
              <Typography sx={{ mt: 1 }} data-testid="provider-delete-links">
                {translate('qe.signIn.settings.deleteLinks', { count: deleting.links })}
              </Typography>
            )}
          </>
        }
        confirm="qe.signIn.settings.delete"
        confirmColor="warning"
        onConfirm={() => void remove()}
        onClose={() => setDeleting(null)}
      />
    </Box>
  );
}

/**
 * The school settings' section of sign-in with the school's own accounts (src/shared/calls/sign-in.ts):
 * shown to holders of sign-in.view (the super administrator's), changed with sign-in.edit — the
 * identity providers, and below them whether each role may still log in with a password.
 */
export function SignInSettings() {
  const translate = useTranslate();
  const mayView = useHolds(PAGE, 'view', true);
  const mayEdit = useHolds(PAGE, 'edit', true);
  if (!mayView) return null;
  return (
    <Card sx={{ mt: 2 }} component="section" aria-labelledby="qe-sign-in-title" data-testid="sign-in-settings">
      <CardContent sx={{ maxWidth: 792 }}>
        <Typography variant="h6" component="h2" id="qe-sign-in-title">
          {translate('qe.signIn.settings.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {translate('qe.signIn.settings.intro')}
        </Typography>
        <Providers mayEdit={mayEdit} />
        <Divider sx={{ my: 3 }} />
        <PasswordPolicySettings mayEdit={mayEdit} />
      </CardContent>
    </Card>
  );
}
