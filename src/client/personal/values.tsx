import { Box } from '@mui/material';
import { useTranslate } from '../i18n/translate';
import { avatarUrl, type PersonalValues } from './api';
import { composedKey } from '../../shared/i18n/keys';

/** One personal-data value as shown: choices translated, the avatar as a small picture, the card masked as answered. */
export function PersonalValue({ values, field }: { values: PersonalValues; field: keyof PersonalValues }) {
  const translate = useTranslate();
  const v = values[field];
  if (v === null || v === undefined || v === '') return <>{translate('qe.personalData.none')}</>;
  if (field === 'avatar') return <Box component="img" src={avatarUrl(v)} alt={translate('qe.fields.common.avatar')} sx={{ width: 40, height: 40, borderRadius: '50%', objectFit: 'cover' }} />;
  if (field === 'gender' || field === 'identityCardType') return <>{translate(composedKey(`qe.enums.teacher.${field}.${v}`))}</>;
  return <>{v}</>;
}
