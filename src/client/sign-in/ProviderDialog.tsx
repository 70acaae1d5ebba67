import { useState, type KeyboardEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormHelperText,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  Switch,
  TextField,
  useMediaQuery,
} from '@mui/material';
import { HttpError, useLocale } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { fieldMessage } from '../../shared/field-messages';
import { PROVIDER_KINDS, SIGN_IN_ROLES, type ProviderKind } from '../../shared/calls/sign-in';
import { ProviderMark } from '../auth/ProviderMark';
import { signInApi, type IdentityProvider, type IdentityProviderBody } from './api';
import type { SettingsText } from './texts';

type Role = (typeof SIGN_IN_ROLES)[number];
type SecretMode = 'stored' | 'environment';

/** The dialog's fields as typed. */
interface Draft {
  kind: ProviderKind;
  nameHk: string;
  nameEn: string;
  tenant: string;
  issuer: string;
  clientId: string;
  secretMode: SecretMode;
  secret: string;
  secretEnv: string;
  domains: string[];
  roles: Role[];
  enabled: boolean;
  seq: string;
}

type Field = 'nameHk' | 'nameEn' | 'tenant' | 'issuer' | 'clientId' | 'secret' | 'secretEnv' | 'domains' | 'roles' | 'seq';
type Errors = Partial<Record<Field, string>>;

/** The names a new provider of a kind starts with: Microsoft's and Google's own (their buttons name them anyway); another's the school types. */
const DEFAULT_NAMES: Record<ProviderKind, { nameHk: string; nameEn: string }> = {
  microsoft: { nameHk: 'Microsoft', nameEn: 'Microsoft' },
  google: { nameHk: 'Google', nameEn: 'Google' },
  oidc: { nameHk: '', nameEn: '' },
};

/** As the call's schema checks a domain (src/shared/calls/sign-in.ts), in lower case. */
const DOMAIN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/;
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;
/** https, or http on this machine (the server checks the rest). */
const ISSUER = /^https?:\/\/[^\s/]+/i;

function draftOf(provider: IdentityProvider | null): Draft {
  if (!provider) return { kind: 'microsoft', ...DEFAULT_NAMES.microsoft, tenant: '', issuer: '', clientId: '', secretMode: 'stored', secret: '', secretEnv: '', domains: [], roles: ['ADMIN', 'TEACHER', 'STUDENT'], enabled: true, seq: '' };
  return {
    kind: provider.kind,
    nameHk: provider.nameHk,
    nameEn: provider.nameEn,
    tenant: provider.tenant ?? '',
    issuer: provider.kind === 'oidc' ? provider.issuer : '',
    clientId: provider.clientId,
    secretMode: provider.secretSource === 'environment' ? 'environment' : 'stored',
    secret: '',
    secretEnv: provider.secretEnv ?? '',
    domains: provider.domains,
    roles: provider.roles.filter((r): r is Role => (SIGN_IN_ROLES as readonly string[]).includes(r)),
    enabled: provider.enabled,
    seq: String(provider.seq),
  };
}

/** What is sent: the kind's own fields, the secret only when one was typed (on an edit, none keeps the stored one). */
function bodyOf(d: Draft): IdentityProviderBody {
  const body: IdentityProviderBody = {
    kind: d.kind,
    nameHk: d.nameHk.trim(),
    nameEn: d.nameEn.trim(),
    tenant: d.kind === 'microsoft' ? d.tenant.trim() : null,
    issuer: d.kind === 'oidc' ? d.issuer.trim() : null,
    clientId: d.clientId.trim(),
    domains: d.domains,
    roles: d.roles,
    enabled: d.enabled,
  };
  if (d.secretMode === 'environment') body.secretEnv = d.secretEnv.trim();
  else {
    body.secretEnv = null;
    if (d.secret) body.secret = d.secret;
  }
  if (d.seq.trim() !== '') body.seq = Number(d.seq);
  return body;
}

/** The field a server's 422 message belongs to (`domains/1` → domains). */
const fieldOf = (key: string): Field | null => {
  const name = key.replace(/^\//, '').split(/[./[]/)[0];
  return (['nameHk', 'nameEn', 'tenant', 'issuer', 'clientId', 'secret', 'secretEnv', 'domains', 'roles', 'seq'] as string[]).includes(name) ? (name as Field) : null;
};

/**
 * Adds or edits an identity provider: the kind (Microsoft Entra ID with its tenant, Google
 * Workspace with its domains, another OpenID Connect service with its issuer), the button's names,
 * the client id and the secret — typed (kept sealed by the server, never shown again: left empty
 * on an edit, the stored one stays) or the name of an environment variable —, the e-mail domains
 * (chips), the roles that may sign in with it, and whether it is on. Checked as the server checks;
 * the server's refusals land on their fields or above them.
 */
export function ProviderDialog({ provider, onClose, onSaved }: { provider: IdentityProvider | null; onClose: () => void; onSaved: (saved: IdentityProvider) => void }) {
  const translate = useTranslate();
  const lang = useLocale() === 'en' ? 'en' : 'zh-hk';
  const phone = useMediaQuery('(max-width:599.95px)', { noSsr: true });
  const [draft, setDraft] = useState<Draft>(() => draftOf(provider));
  const [domainText, setDomainText] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const t = (key: SettingsText) => translate(`qe.signIn.settings.${key}`);

  const set = <K extends keyof Draft>(name: K, value: Draft[K]) => {
    setDraft((d) => ({ ...d, [name]: value }));
    if (name in errors) setErrors((e) => ({ ...e, [name]: undefined }));
  };
  const chooseKind = (kind: ProviderKind) =>
    setDraft((d) => {
      // names still the previous kind's own follow the kind
      const before = DEFAULT_NAMES[d.kind];
      const names = d.nameHk === before.nameHk && d.nameEn === before.nameEn ? DEFAULT_NAMES[kind] : { nameHk: d.nameHk, nameEn: d.nameEn };
      return { ...d, kind, ...names };
    });

  /** The typed domain becomes a chip (Enter, a comma, a space, or leaving the field); answers the list. */
  const addDomain = (): string[] | null => {
    const typed = domainText.trim().toLowerCase().replace(/^@/, '');
    if (!typed) return draft.domains;
    if (!DOMAIN.test(typed) || typed.length > 253) {
      setErrors((e) => ({ ...e, domains: translate('qe.signIn.settings.domainInvalid', { domain: typed }) }));
      return null;
    }
    const domains = draft.domains.includes(typed) ? draft.domains : [...draft.domains, typed];
    set('domains', domains);
    setDomainText('');
    return domains;
  };
  const onDomainKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' || e.key === ',' || e.key === ' ') {
      e.preventDefault();
      addDomain();
    } else if (e.key === 'Backspace' && !domainText && draft.domains.length) set('domains', draft.domains.slice(0, -1));
  };

  const check = (d: Draft): Errors => {
    const found: Errors = {};
    const required = fieldMessage('required', lang);
    if (!d.nameHk.trim()) found.nameHk = required;
    if (!d.nameEn.trim()) found.nameEn = required;
    if (d.kind === 'microsoft' && !d.tenant.trim()) found.tenant = required;
    if (d.kind === 'oidc' && !d.issuer.trim()) found.issuer = required;
    else if (d.kind === 'oidc' && !ISSUER.test(d.issuer.trim())) found.issuer = fieldMessage('pattern', lang);
    if (!d.clientId.trim()) found.clientId = required;
    if (d.secretMode === 'environment' && !d.secretEnv.trim()) found.secretEnv = required;
    else if (d.secretMode === 'environment' && !ENV_NAME.test(d.secretEnv.trim())) found.secretEnv = t('secretEnvInvalid');
    if (d.kind === 'google' && d.domains.length === 0) found.domains = t('domainsRequired');
    if (d.roles.length === 0) found.roles = t('rolesRequired');
    if (d.seq.trim() !== '' && !/^\d{1,3}$/.test(d.seq.trim())) found.seq = fieldMessage('pattern', lang);
    return found;
  };

  const save = async () => {
    const domains = addDomain();
    if (!domains) return;
    const d = { ...draft, domains };
    const found = check(d);
    setErrors(found);
    setRefusal(null);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    try {
      onSaved(provider ? await signInApi.update(provider.id, bodyOf(d)) : await signInApi.create(bodyOf(d)));
    } catch (e) {
      const error = e as HttpError;
      const fieldErrors = (error.body as { errors?: Record<string, string> } | undefined)?.errors;
      const onFields: Errors = {};
      let rest: string | null = null;
      if (fieldErrors && typeof fieldErrors === 'object') {
        for (const [key, message] of Object.entries(fieldErrors)) {
          const field = fieldOf(key);
          if (field) onFields[field] = message;
          else rest = message;
        }
      }
      setErrors(onFields);
      setRefusal(Object.keys(onFields).length && !rest ? null : (rest ?? (error.message || translate('qe.error.operationFailed'))));
    } finally {
      setBusy(false);
    }
  };

  const text = (name: 'nameHk' | 'nameEn' | 'tenant' | 'issuer' | 'clientId' | 'secretEnv', label: string, helper?: string, extra: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      value={draft[name]}
      onChange={(e) => set(name, e.target.value)}
      error={Boolean(errors[name])}
      helperText={errors[name] ?? helper ?? ' '}
      required
      fullWidth
      margin="dense"
      slotProps={{ htmlInput: { 'data-testid': `provider-${name}`, maxLength: name === 'issuer' ? 500 : name === 'clientId' ? 300 : name === 'nameHk' || name === 'nameEn' ? 60 : 100, spellCheck: false, ...extra } }}
    />
  );

  return (
    // a form's width (the theme's sm is 1027 px), the whole screen on a phone
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="sm" fullScreen={phone} slotProps={{ paper: { sx: { maxWidth: phone ? undefined : 680 } } }} aria-labelledby="qe-provider-title" data-testid="provider-dialog">
      <DialogTitle id="qe-provider-title">{provider ? translate('qe.signIn.settings.editTitle', { name: lang === 'en' ? provider.nameEn : provider.nameHk }) : t('addTitle')}</DialogTitle>
      <DialogContent>
        {refusal && (
          <Alert severity="error" sx={{ mb: 1 }} data-testid="provider-refusal">
            {refusal}
          </Alert>
        )}
        <FormControl sx={{ mt: 1, mb: 1 }}>
          <FormLabel id="qe-provider-kind">{t('kind')}</FormLabel>
          <RadioGroup aria-labelledby="qe-provider-kind" value={draft.kind} onChange={(e) => chooseKind(e.target.value as ProviderKind)}>
            {PROVIDER_KINDS.map((kind) => (
              <FormControlLabel
                key={kind}
                value={kind}
                control={<Radio slotProps={{ input: { 'data-testid': `provider-kind-${kind}` } as object }} />}
                label={
                  <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
                    <ProviderMark kind={kind} size={18} />
                    {translate(`qe.signIn.settings.kinds.${kind}`)}
                  </Box>
                }
              />
            ))}
          </RadioGroup>
        </FormControl>
        {text('nameHk', t('nameHk'), t('nameHelp'))}
        {text('nameEn', t('nameEn'))}
        {draft.kind === 'microsoft' && text('tenant', t('tenant'), t('tenantHelp'))}
        {draft.kind === 'oidc' && text('issuer', t('issuer'), t('issuerHelp'), { inputMode: 'url' })}
        {text('clientId', t('clientId'))}
        <FormControl sx={{ mt: 1 }}>
          <FormLabel id="qe-provider-secret">{t('secretFrom')}</FormLabel>
          <RadioGroup row aria-labelledby="qe-provider-secret" value={draft.secretMode} onChange={(e) => set('secretMode', e.target.value as SecretMode)}>
            <FormControlLabel value="stored" control={<Radio slotProps={{ input: { 'data-testid': 'provider-secret-stored' } as object }} />} label={t('secretStored')} />
            <FormControlLabel value="environment" control={<Radio slotProps={{ input: { 'data-testid': 'provider-secret-environment' } as object }} />} label={t('secretEnvironment')} />
          </RadioGroup>
        </FormControl>
        {draft.secretMode === 'stored' ? (
          <TextField
            type="password"
            label={t('secret')}
            value={draft.secret}
            onChange={(e) => set('secret', e.target.value)}
            error={Boolean(errors.secret)}
            helperText={errors.secret ?? (provider?.secretSource === 'stored' ? t('secretKept') : t('secretNew'))}
            autoComplete="new-password"
            fullWidth
            margin="dense"
            slotProps={{ htmlInput: { 'data-testid': 'provider-secret', maxLength: 1000 } }}
          />
        ) : (
          text('secretEnv', t('secretEnv'), t('secretEnvHelp'), { autoCapitalize: 'characters' })
        )}
        <TextField
          label={t('domains')}
          value={domainText}
          onChange={(e) => {
            setDomainText(e.target.value);
            if (errors.domains) setErrors((x) => ({ ...x, domains: undefined }));
          }}
          onKeyDown={onDomainKey}
          onBlur={() => void addDomain()}
          error={Boolean(errors.domains)}
          helperText={errors.domains ?? (draft.kind === 'google' ? t('domainsGoogleHelp') : t('domainsHelp'))}
          required={draft.kind === 'google'}
          fullWidth
          margin="dense"
          slotProps={{ htmlInput: { 'data-testid': 'provider-domain-input', inputMode: 'url', autoCapitalize: 'none', spellCheck: false, maxLength: 253 } }}
        />
        {draft.domains.length > 0 && (
          <Box component="ul" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, listStyle: 'none', p: 0, m: 0, mb: 1 }} data-testid="provider-domains" aria-label={t('domains')}>
            {draft.domains.map((domain) => (
              <li key={domain}>
                <Chip
                  label={domain}
                  onDelete={() => set('domains', draft.domains.filter((x) => x !== domain))}
                  onClick={() => set('domains', draft.domains.filter((x) => x !== domain))}
                  aria-label={translate('qe.signIn.settings.removeDomain', { domain })}
                  sx={{ maxWidth: '100%' }}
                />
              </li>
            ))}
          </Box>
        )}
        <FormControl component="fieldset" error={Boolean(errors.roles)} sx={{ mt: 1, display: 'block' }}>
          <FormLabel component="legend">{t('roles')}</FormLabel>
          <FormGroup row>
            {SIGN_IN_ROLES.map((role) => (
              <FormControlLabel
                key={role}
                control={
                  <Checkbox
                    checked={draft.roles.includes(role)}
                    onChange={(e) => set('roles', e.target.checked ? SIGN_IN_ROLES.filter((r) => r === role || draft.roles.includes(r)) : draft.roles.filter((r) => r !== role))}
                    slotProps={{ input: { 'data-testid': `provider-role-${role}` } as object }}
                  />
                }
                label={translate(`qe.userType.${role}`)}
              />
            ))}
          </FormGroup>
          {errors.roles && <FormHelperText>{errors.roles}</FormHelperText>}
        </FormControl>
        <Stack direction="row" sx={{ mt: 1, alignItems: 'flex-start', gap: 2, flexWrap: 'wrap' }}>
          <FormControlLabel control={<Switch checked={draft.enabled} onChange={(e) => set('enabled', e.target.checked)} slotProps={{ input: { 'data-testid': 'provider-enabled' } as object }} />} label={t('enabledSwitch')} sx={{ flex: '1 1 240px' }} />
          <TextField
            label={t('seq')}
            value={draft.seq}
            onChange={(e) => set('seq', e.target.value.replace(/\D/g, '').slice(0, 3))}
            error={Boolean(errors.seq)}
            helperText={errors.seq ?? ' '}
            size="small"
            sx={{ width: 180 }}
            slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'provider-seq' } }}
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {translate('qe.common.cancel')}
        </Button>
        <Button variant="contained" onClick={() => void save()} disabled={busy} data-testid="provider-save">
          {translate('qe.common.save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
