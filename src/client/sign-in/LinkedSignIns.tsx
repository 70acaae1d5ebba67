import { useState } from 'react';
import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import LinkOffIcon from '@mui/icons-material/LinkOff';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Confirm, useLocale, useNotify, useRecordContext } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import type { EntityMeta } from '../../shared/master/entity';
import { formatDateTime } from '../common/schoolClock';
import { ProviderMark } from '../auth/ProviderMark';
import { useHolds } from '../master/access';
import { PROVIDERS_KEY, signInApi, type SignInLinkList, type SignInLinkRow } from './api';

export const linksKey = (userId: unknown) => ['sign-in-links', String(userId)];

/**
 * The links of one account to provider accounts: the provider (its mark and name in this
 * language), the address it asserted, when it was linked and last used (on the school's clock).
 * `onUnlink`: a button per link (the caller has asked for a confirmation's way to it).
 */
export function SignInLinkItems({ links, onUnlink }: { links: SignInLinkList; onUnlink?: (link: SignInLinkRow) => void }) {
  const translate = useTranslate();
  const en = useLocale() === 'en';
  if (links.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary" data-testid="sign-in-links-none">
        {translate('qe.signIn.links.none')}
      </Typography>
    );
  }
  return (
    <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }} data-testid="sign-in-links">
      {links.map((link) => {
        const provider = en ? link.nameEn : link.nameHk;
        const email = link.email ?? '';
        return (
          <Box component="li" key={link.id} sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start', flexWrap: 'wrap', border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, minWidth: 0 }} data-testid={`sign-in-link-${link.id}`}>
            <Box sx={{ pt: 0.25, lineHeight: 0 }}>
              <ProviderMark kind={link.kind} />
            </Box>
            <Box sx={{ flex: '1 1 200px', minWidth: 0, overflowWrap: 'anywhere' }}>
              <Typography sx={{ fontWeight: 500 }}>{provider}</Typography>
              {email && (
                <Typography variant="body2" data-testid="sign-in-link-email">
                  {email}
                </Typography>
              )}
              <Typography variant="body2" color="text.secondary">
                {translate('qe.common.line', { label: translate('qe.signIn.links.linkedAt'), value: formatDateTime(link.linkedAt) })}
              </Typography>
              <Typography variant="body2" color="text.secondary" data-testid="sign-in-link-used">
                {translate('qe.common.line', { label: translate('qe.signIn.links.lastUsedAt'), value: link.lastUsedAt ? formatDateTime(link.lastUsedAt) : translate('qe.signIn.links.never') })}
              </Typography>
            </Box>
            {onUnlink && (
              <Button size="small" color="error" startIcon={<LinkOffIcon />} onClick={() => onUnlink(link)} aria-label={translate('qe.signIn.links.unlinkLabel', { provider, email })} data-testid="sign-in-unlink">
                {translate('qe.signIn.links.unlink')}
              </Button>
            )}
          </Box>
        );
      })}
    </Stack>
  );
}

/**
 * "Linked sign-ins" on the screen of an account (admins, teachers, students: the master screens of
 * entities that are accounts): shown with the entity's view permission, each link unlinked with
 * its edit permission after a confirmation. The record's id is the user's.
 */
export function LinkedSignIns({ meta }: { meta: EntityMeta }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const notify = useNotify();
  const client = useQueryClient();
  const en = useLocale() === 'en';
  const mayView = useHolds(meta.permission, 'view', true);
  const mayUnlink = useHolds(meta.permission, 'edit', meta.page.actions.includes('edit'));
  const userId = record?.id;
  const { data, isPending, isError } = useQuery({ queryKey: linksKey(userId), queryFn: () => signInApi.userLinks(userId as number), enabled: mayView && userId !== undefined && userId !== null, retry: false });
  const [unlinking, setUnlinking] = useState<SignInLinkRow | null>(null);
  const [busy, setBusy] = useState(false);
  if (!mayView || !record) return null;

  const unlink = async () => {
    if (!unlinking) return;
    setBusy(true);
    try {
      await signInApi.unlink(record.id as number, unlinking.id);
      notify('qe.signIn.links.unlinked', { type: 'success' });
      setUnlinking(null);
    } catch {
      // request() has shown the refusal
    } finally {
      setBusy(false);
      void client.invalidateQueries({ queryKey: linksKey(userId) });
      // the providers' counts of linked accounts
      void client.invalidateQueries({ queryKey: PROVIDERS_KEY });
    }
  };

  return (
    <Box component="section" aria-labelledby="qe-linked-sign-ins" sx={{ px: 2, pb: 2, maxWidth: 760 }} data-testid="linked-sign-ins">
      <Typography variant="subtitle1" component="h2" id="qe-linked-sign-ins" sx={{ fontWeight: 500, mb: 1 }}>
        {translate('qe.signIn.links.title')}
      </Typography>
      {isPending ? (
        <Typography variant="body2" color="text.secondary">
          {translate('qe.app.loading')}
        </Typography>
      ) : isError || !data ? (
        <Alert severity="warning">{translate('qe.signIn.links.loadFailed')}</Alert>
      ) : (
        <SignInLinkItems links={data} onUnlink={mayUnlink ? setUnlinking : undefined} />
      )}
      <Confirm
        isOpen={unlinking !== null}
        loading={busy}
        title="qe.signIn.links.unlinkTitle"
        content={unlinking ? translate('qe.signIn.links.unlinkBody', { provider: en ? unlinking.nameEn : unlinking.nameHk, email: unlinking.email ?? '' }) : ''}
        confirm="qe.signIn.links.unlink"
        confirmColor="warning"
        onConfirm={() => void unlink()}
        onClose={() => setUnlinking(null)}
      />
    </Box>
  );
}
