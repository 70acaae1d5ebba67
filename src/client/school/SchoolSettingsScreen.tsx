import { useState, type ChangeEvent } from 'react';
import { Alert, Box, Button, Card, CardContent, FormHelperText, LinearProgress, Typography } from '@mui/material';
import AddPhotoAlternateIcon from '@mui/icons-material/AddPhotoAlternate';
import DeleteIcon from '@mui/icons-material/DeleteOutlined';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AutocompleteInput, BooleanInput, HttpError, SelectInput, SimpleForm, TextInput, Title, Toolbar, useLocale, useNotify } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { fieldMessage } from '../../shared/field-messages';
import { isValidEmail } from '../../shared/validation';
import type { SchoolSettings } from '../../shared/calls/school';
import { SCHOOL_INFO_KEY } from '../auth/useSchoolInfo';
import { useHolds } from '../master/access';
import { STORAGE_PATH } from '../layout/SchoolBrand';
import { request } from '../providers/http';
import { upload } from '../providers/upload';
import { imageFileProblem } from '../questionnaires/designer/ImageField';
import { setSchoolTimeZone } from '../common/schoolClock';
import { isTimeZone, timeZoneChoices } from '../../shared/school-clock';
import { QeSaveButton } from '../common/QeSaveButton';
import { FileButton } from '../common/FileButton';
import { Loading } from '../common/Loading';
import { SignInSettings } from '../sign-in/SignInSettings';

/** GET /v1/school: the school info and the grades the graduating grade is chosen from (src/shared/calls/school.ts). */
export type { SchoolSettings };

/** The form's values: the language list shown as one "required" switch per language. */
interface FormValues {
  nameHk: string;
  nameEn: string;
  addressHk: string | null;
  addressEn: string | null;
  tel: string | null;
  fax: string | null;
  email: string | null;
  graduateGrade: string | null;
  requiredChinese: boolean;
  requiredEnglish: boolean;
  googleRequired: boolean;
  timeZone: string;
}

export const SCHOOL_SETTINGS_KEY = ['school-settings'];
const PHONE = /^[0-9 +()-]*$/;

/** The time zones offered: the browser's list (IANA names, which read the same in both languages), the current one always among them. */
const zoneChoices = (current: string) => [...new Set([current, ...timeZoneChoices()])].sort().map((z) => ({ id: z, name: z }));

const toForm = (s: SchoolSettings): FormValues => ({
  nameHk: s.nameHk,
  nameEn: s.nameEn,
  addressHk: s.addressHk,
  addressEn: s.addressEn,
  tel: s.tel,
  fax: s.fax,
  email: s.email,
  graduateGrade: s.graduate_grade,
  requiredChinese: s.languageList.some((l) => l.code === 'zh-hk' && l.required === '1'),
  requiredEnglish: s.languageList.some((l) => l.code === 'en' && l.required === '1'),
  googleRequired: Boolean(s.googleRequired),
  timeZone: s.timeZone,
});

/** The logo: upload (checked before sending, and by the server by its content), see it, remove it. */
function LogoField({ logo, mayEdit, onSaved }: { logo: string | null; mayEdit: boolean; onSaved: (s: SchoolSettings) => void }) {
  const translate = useTranslate();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const pick = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const refused = imageFileProblem(file);
    if (refused) return setError(translate(refused));
    setError(null);
    setBusy(true);
    const form = new FormData();
    form.append('file', file, file.name);
    try {
      onSaved(await upload<SchoolSettings>('/v1/school/logo', form));
    } catch (err) {
      if (err instanceof HttpError && err.status >= 400 && err.status < 500 && err.message) setError(err.message);
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setBusy(true);
    try {
      onSaved(await request<SchoolSettings>('/v1/school/logo', { method: 'DELETE' }));
    } catch {
      // the request's own message is on screen
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box data-testid="school-logo-field" sx={{ mb: 3 }}>
      <Typography variant="subtitle2" component="h2" sx={{ mb: 1 }}>
        {translate('qe.school.logo')}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        {logo ? (
          <Box component="img" src={`${STORAGE_PATH}${logo}`} alt={translate('qe.school.logo')} data-testid="school-logo-preview" sx={{ width: 64, height: 64, objectFit: 'contain', border: 1, borderColor: 'divider', borderRadius: 1 }} />
        ) : (
          <Typography variant="body2" color="text.secondary">
            {translate('qe.school.noLogo')}
          </Typography>
        )}
        {mayEdit && (
          <>
            <FileButton variant="outlined" startIcon={<AddPhotoAlternateIcon />} disabled={busy} accept="image/png,image/jpeg,image/gif,image/webp" onChange={pick} inputTestId="school-logo-input">
              {translate(logo ? 'qe.school.replaceLogo' : 'qe.school.uploadLogo')}
            </FileButton>
            {logo && (
              <Button color="error" startIcon={<DeleteIcon />} onClick={remove} disabled={busy} data-testid="school-logo-remove">
                {translate('qe.school.removeLogo')}
              </Button>
            )}
          </>
        )}
      </Box>
      {busy && <LinearProgress sx={{ mt: 1, maxWidth: 320 }} />}
      <FormHelperText error={Boolean(error)}>{error ?? translate('qe.school.logoHelp')}</FormHelperText>
    </Box>
  );
}

/**
 * The school settings (/master/school, school.view; saving needs school.edit): names,
 * addresses, contacts, graduating grade, which languages' names are required, whether
 * creators must bind a Google account, the time zone (the school's clock), and the logo; below,
 * for the super administrator (sign-in.view), sign-in with the school's own accounts.
 * After a save the school info is read again, so the top bar shows the new name and logo at
 * once and this page's dates follow the new zone (other users' pages read it again when they
 * come back to the window).
 */
export function SchoolSettingsScreen() {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const locale = useLocale();
  const lang = locale === 'en' ? 'en' : 'zh-hk';
  const mayEdit = useHolds('school', 'edit');
  const { data: settings, isPending, isError } = useQuery({ queryKey: SCHOOL_SETTINGS_KEY, queryFn: () => request<SchoolSettings>('/v1/school') });

  const saved = (next: SchoolSettings) => {
    queryClient.setQueryData(SCHOOL_SETTINGS_KEY, next);
    setSchoolTimeZone(next.timeZone);
    void queryClient.invalidateQueries({ queryKey: SCHOOL_INFO_KEY });
  };

  const validate = (values: Record<string, unknown>) => {
    const v = values as unknown as FormValues;
    const errors: Record<string, string> = {};
    for (const name of ['nameHk', 'nameEn'] as const) if (!v[name]?.trim()) errors[name] = fieldMessage('required', lang);
    for (const name of ['tel', 'fax'] as const) if (v[name] && !PHONE.test(v[name]!)) errors[name] = fieldMessage('pattern', lang);
    if (v.email?.trim() && !isValidEmail(v.email.trim())) errors.email = fieldMessage('email', lang);
    if (!v.requiredChinese && !v.requiredEnglish) errors.requiredEnglish = translate('qe.school.oneLanguage');
    if (!isTimeZone(v.timeZone)) errors.timeZone = fieldMessage('timeZone', lang);
    return errors;
  };

  const save = async (values: Record<string, unknown>) => {
    const v = values as unknown as FormValues;
    try {
      const next = await request<SchoolSettings>('/v1/school', {
        method: 'PUT',
        ignoreErr: true,
        body: {
          nameHk: v.nameHk,
          nameEn: v.nameEn,
          addressHk: v.addressHk ?? '',
          addressEn: v.addressEn ?? '',
          tel: v.tel ?? '',
          fax: v.fax ?? '',
          email: v.email ?? '',
          graduateGrade: v.graduateGrade ?? '',
          languageList: [
            { code: 'zh-hk', required: v.requiredChinese ? '1' : '0' },
            { code: 'en', required: v.requiredEnglish ? '1' : '0' },
          ],
          googleRequired: Boolean(v.googleRequired),
          timeZone: v.timeZone,
        },
      });
      saved(next);
      notify('qe.school.saved', { type: 'success' });
    } catch (e) {
      const error = e as HttpError;
      const fieldErrors = (error.body as { errors?: Record<string, string> } | undefined)?.errors;
      if (fieldErrors && typeof fieldErrors === 'object') return fieldErrors;
      notify(error.message || 'qe.error.operationFailed', { type: 'error', autoHideDuration: 6000 });
    }
  };

  const gradeName = (g: SchoolSettings['grades'][number]) => `${g.code} ${locale === 'en' ? g.nameEn : g.nameHk}`;

  return (
    <>
      <Title title={translate('qe.menu.school')} />
      <Card sx={{ mt: 2 }} data-testid="school-settings">
        {isPending ? (
          <Loading />
        ) : isError || !settings ? (
          <CardContent>{translate('qe.error.tryLater')}</CardContent>
        ) : (
          <SimpleForm
            record={toForm(settings)}
            onSubmit={save}
            validate={validate}
            mode="onBlur"
            warnWhenUnsavedChanges={mayEdit}
            disabled={!mayEdit}
            toolbar={mayEdit ? <Toolbar><QeSaveButton data-testid="school-save" /></Toolbar> : false}
            sx={{ maxWidth: 760 }}
          >
            <LogoField logo={settings.schoolLogo} mayEdit={mayEdit} onSaved={saved} />
            <TextInput source="nameHk" label="qe.school.nameHk" isRequired fullWidth />
            <TextInput source="nameEn" label="qe.school.nameEn" isRequired fullWidth />
            <TextInput source="addressHk" label="qe.school.addressHk" fullWidth multiline />
            <TextInput source="addressEn" label="qe.school.addressEn" fullWidth multiline />
            <Box sx={{ display: 'flex', gap: 2, width: '100%', flexWrap: 'wrap' }}>
              <TextInput source="tel" label="qe.school.tel" sx={{ flex: 1, minWidth: 200 }} />
              <TextInput source="fax" label="qe.school.fax" sx={{ flex: 1, minWidth: 200 }} />
            </Box>
            <TextInput source="email" label="qe.school.email" type="email" fullWidth />
            <SelectInput source="graduateGrade" label="qe.school.graduateGrade" helperText="qe.school.graduateGradeHelp" choices={settings.grades.map((g) => ({ id: g.code, name: gradeName(g) }))} emptyText="qe.school.noGraduateGrade" fullWidth />
            <AutocompleteInput source="timeZone" label="qe.school.timeZone" helperText="qe.school.timeZoneHelp" choices={zoneChoices(settings.timeZone)} disableClearable isRequired fullWidth />
            <Typography variant="subtitle2" component="h2" sx={{ mt: 2 }}>
              {translate('qe.school.languages')}
            </Typography>
            <FormHelperText sx={{ mt: 0, mb: 1 }}>{translate('qe.school.languagesHelp')}</FormHelperText>
            <BooleanInput source="requiredChinese" label="qe.school.requiredChinese" helperText={false} />
            <BooleanInput source="requiredEnglish" label="qe.school.requiredEnglish" helperText={false} />
            <Typography variant="subtitle2" component="h2" sx={{ mt: 2 }}>
              {translate('qe.school.google')}
            </Typography>
            {!settings.googleConfigured && (
              <Alert severity="info" sx={{ my: 1, width: '100%' }} data-testid="google-not-configured">
                {translate('qe.school.googleNotConfigured')}
              </Alert>
            )}
            <BooleanInput source="googleRequired" label="qe.school.googleRequired" helperText="qe.school.googleRequiredHelp" disabled={!mayEdit || (!settings.googleConfigured && !settings.googleRequired)} />
          </SimpleForm>
        )}
      </Card>
      <SignInSettings />
    </>
  );
}
