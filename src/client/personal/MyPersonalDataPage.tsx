import { useCallback, useEffect, useState, type ChangeEvent } from 'react';
import { Alert, Avatar, Box, Button, Card, CardContent, MenuItem, Stack, Table, TableBody, TableCell, TableRow, TextField, Typography } from '@mui/material';
import { HttpError, useNotify } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { GENDERS, IDENTITY_CARD_TYPES } from '../../shared/personal';
import { DateTimeText, isDateTimeText } from '../common/DateTimeText';
import { STAFF_EDIT_PERSONAL_KEY } from '../providers/session';
import { formatDateTime } from '../common/schoolClock';
import { applyPersonalData, avatarUrl, myPersonalData, PERSONAL_FIELDS, uploadAvatar, type PersonalInput, type PersonalRequest, type PersonalValues } from './api';
import { ConfirmStatusTag } from './ConfirmStatusTag';
import { PersonalValue } from './values';
import { composedKey } from '../../shared/i18n/keys';
import { FileButton } from '../common/FileButton';

interface Draft {
  tel: string;
  gender: string;
  birthday: string;
  identityCardType: string;
  identityCardNo: string;
  avatar: string | null;
}

const draftOf = (v: PersonalValues): Draft => ({ tel: v.tel ?? '', gender: v.gender ?? '', birthday: v.birthday ?? '', identityCardType: v.identityCardType ?? '', identityCardNo: '', avatar: v.avatar });
const fieldLabel = (field: string) => composedKey(`qe.fields.common.${field === 'identityCardId' ? 'identityCardNo' : field}`);

/**
 * My personal data (the actions Personal and Apply): the data as confirmed, the latest request with its
 * status tag (and the reason of a rejection), and the form that asks for a change. The change
 * waits for an approver; the identity card number is never shown, only its masked form.
 */
export function MyPersonalDataPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const [current, setCurrent] = useState<PersonalValues | null>(null);
  const [latest, setLatest] = useState<PersonalRequest | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    const data = await myPersonalData();
    setCurrent(data.current);
    setLatest(data.request);
    // a request waiting or rejected is what the person meant last: the form starts from it (a
    // rejected one is corrected, not typed again); a confirmed one is the current data anyway
    setDraft(draftOf(data.request && data.request.status !== 'CONFIRM' ? data.request.values : data.current));
  }, []);
  useEffect(() => {
    load().catch(() => undefined);
  }, [load]);

  if (!current || !draft) return null;
  const set = (field: keyof Draft) => (e: ChangeEvent<HTMLInputElement>) => setDraft({ ...draft, [field]: e.target.value });
  const maskedNow = current.identityCardId;

  const pickAvatar = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const form = new FormData();
    form.append('file', file, file.name);
    try {
      const { path } = await uploadAvatar(form);
      setDraft({ ...draft, avatar: path });
      setErrors({ ...errors, avatar: '' });
    } catch (err) {
      if (err instanceof HttpError && err.message) setErrors({ ...errors, avatar: err.message });
    }
  };

  const submit = async () => {
    if (draft.birthday && !isDateTimeText('date', draft.birthday)) {
      setErrors({ birthday: translate('qe.common.dateFormat') });
      return;
    }
    setBusy(true);
    setErrors({});
    try {
      await applyPersonalData({
        tel: draft.tel || null,
        // the select offers the values the call accepts (GENDERS, IDENTITY_CARD_TYPES)
        gender: (draft.gender || null) as PersonalInput['gender'],
        birthday: draft.birthday || null,
        identityCardType: (draft.identityCardType || null) as PersonalInput['identityCardType'],
        ...(draft.identityCardNo ? { identityCardNo: draft.identityCardNo } : {}),
        avatar: draft.avatar,
      });
      localStorage.setItem(STAFF_EDIT_PERSONAL_KEY, '1');
      notify('qe.personalData.submitted', { type: 'success' });
      await load();
    } catch (err) {
      const failure = err as HttpError;
      const fieldErrors = (failure.body as { errors?: Record<string, string> } | undefined)?.errors;
      if (fieldErrors && typeof fieldErrors === 'object') setErrors(fieldErrors);
      else notify(failure.message || 'qe.error.operationFailed', { type: 'error', autoHideDuration: 6000 });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack spacing={2} sx={{ mt: 1, maxWidth: 900 }} data-testid="personal-data">
      <Card>
        <CardContent>
          <Typography variant="h6" component="h1" gutterBottom>
            {translate('qe.personalData.title')}
          </Typography>
          <Typography variant="body2" color="text.secondary" gutterBottom>
            {translate('qe.personalData.intro')}
          </Typography>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2, mt: 2 }}>
            <TextField label={translate('qe.fields.common.tel')} value={draft.tel} onChange={set('tel')} error={Boolean(errors.tel)} helperText={errors.tel || ' '} slotProps={{ htmlInput: { maxLength: 30, 'data-testid': 'personal-tel' } }} />
            <TextField select label={translate('qe.fields.common.gender')} value={draft.gender} onChange={set('gender')} error={Boolean(errors.gender)} helperText={errors.gender || ' '} data-testid="personal-gender">
              <MenuItem value="">{translate('qe.personalData.none')}</MenuItem>
              {GENDERS.map((g) => (
                <MenuItem key={g} value={g}>
                  {translate(`qe.enums.teacher.gender.${g}`)}
                </MenuItem>
              ))}
            </TextField>
            <DateTimeText kind="date" label={translate('qe.fields.common.birthday')} value={draft.birthday} onChange={(birthday) => setDraft({ ...draft, birthday })} error={Boolean(errors.birthday)} helperText={errors.birthday || ' '} htmlInput={{ 'data-testid': 'personal-birthday' }} />
            <TextField select label={translate('qe.fields.common.identityCardType')} value={draft.identityCardType} onChange={set('identityCardType')} error={Boolean(errors.identityCardType)} helperText={errors.identityCardType || ' '} data-testid="personal-card-type">
              <MenuItem value="">{translate('qe.personalData.none')}</MenuItem>
              {IDENTITY_CARD_TYPES.map((t) => (
                <MenuItem key={t} value={t}>
                  {translate(`qe.enums.teacher.identityCardType.${t}`)}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              label={translate('qe.fields.common.identityCardNo')}
              value={draft.identityCardNo}
              onChange={set('identityCardNo')}
              autoComplete="off"
              error={Boolean(errors.identityCardNo)}
              helperText={errors.identityCardNo || (maskedNow ? `${translate('qe.personalData.numberNow', { masked: maskedNow })} · ${translate('qe.personalData.keepNumber')}` : ' ')}
              slotProps={{ htmlInput: { maxLength: 30, 'data-testid': 'personal-card-no' } }}
            />
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
              <Avatar src={draft.avatar ? avatarUrl(draft.avatar) : undefined} alt={translate('qe.fields.common.avatar')} sx={{ width: 56, height: 56 }} data-testid="personal-avatar" />
              <FileButton size="small" variant="outlined" accept="image/png,image/jpeg,image/gif,image/webp" onChange={pickAvatar} inputTestId="personal-avatar-file">
                {translate('qe.personalData.uploadAvatar')}
              </FileButton>
              {draft.avatar && (
                <Button size="small" onClick={() => setDraft({ ...draft, avatar: null })}>
                  {translate('qe.personalData.removeAvatar')}
                </Button>
              )}
              {errors.avatar && (
                <Typography variant="caption" color="error">
                  {errors.avatar}
                </Typography>
              )}
            </Box>
          </Box>
          <Button variant="contained" onClick={submit} disabled={busy} sx={{ mt: 2 }} data-testid="personal-submit">
            {translate('qe.personalData.submit')}
          </Button>
        </CardContent>
      </Card>

      <Card>
        <CardContent>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 500, display: 'flex', gap: 1, alignItems: 'center' }}>
            {translate('qe.personalData.request')} <ConfirmStatusTag status={latest?.status} />
          </Typography>
          {!latest && <Typography color="text.secondary">{translate('qe.personalData.noRequest')}</Typography>}
          {latest?.status === 'REJECT' && (
            <Alert severity="error" sx={{ my: 1 }} data-testid="personal-reject-reason">
              {translate('qe.personalData.reason')}: {latest.reason}
            </Alert>
          )}
          {latest && (
            <Table size="small" data-testid="personal-request">
              <TableBody>
                <TableRow>
                  <TableCell />
                  <TableCell>{translate('qe.personalData.current')}</TableCell>
                  <TableCell>{translate('qe.personalData.requested')}</TableCell>
                </TableRow>
                {PERSONAL_FIELDS.map((field) => (
                  <TableRow key={field}>
                    <TableCell component="th">{translate(fieldLabel(field))}</TableCell>
                    <TableCell>
                      <PersonalValue values={current} field={field} />
                    </TableCell>
                    <TableCell>
                      <PersonalValue values={latest.values} field={field} />
                    </TableCell>
                  </TableRow>
                ))}
                <TableRow>
                  <TableCell component="th">{translate('qe.personalData.submittedAt')}</TableCell>
                  <TableCell colSpan={2}>{formatDateTime(latest.createdAt)}</TableCell>
                </TableRow>
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </Stack>
  );
}
