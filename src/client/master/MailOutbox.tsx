import { Accordion, AccordionDetails, AccordionSummary, Alert, Box, Button, Card, CardContent, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from '../i18n/translate';
import { request } from '../providers/http';
import { formatDateTime } from '../common/schoolClock';

interface OutboxMail {
  id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  sentAt: string;
}

/** The query of the development outbox: TestMail refreshes it after a mail went out. */
export const OUTBOX_QUERY = ['mail-outbox'] as const;

/**
 * The development outbox (QE_MAIL_OUTBOX, on for `npm run demo`): the mails QE kept instead of
 * sending them, the newest first, each opened to read. Shown only while the outbox is on.
 */
export function MailOutbox({ resource }: { resource: string }) {
  const translate = useTranslate();
  const { data, refetch, isFetching } = useQuery({
    queryKey: OUTBOX_QUERY,
    queryFn: () => request<{ enabled: boolean; total: number; list: OutboxMail[] }>(`/v1/${resource}/outbox`, { ignoreErr: true }),
  });
  if (!data?.enabled) return null;
  return (
    <Card sx={{ mt: 2 }} data-testid="mail-outbox">
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 1, flexWrap: 'wrap', mb: 1 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 500 }}>
            {translate('qe.master.mail.outboxTitle', { smart_count: data.total })}
          </Typography>
          <Button size="small" startIcon={<RefreshIcon />} onClick={() => void refetch()} disabled={isFetching} data-testid="mail-outbox-refresh">
            {translate('qe.master.mail.outboxRefresh')}
          </Button>
        </Box>
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate('qe.master.mail.outboxExplained')}
        </Alert>
        {data.list.length === 0 ? (
          <Typography color="text.secondary" data-testid="mail-outbox-empty">
            {translate('qe.master.mail.outboxEmpty')}
          </Typography>
        ) : (
          data.list.map((mail) => (
            <Accordion key={mail.id} disableGutters data-testid="mail-outbox-mail">
              <AccordionSummary expandIcon={<ExpandMoreIcon />} aria-controls={`outbox-${mail.id}`} id={`outbox-${mail.id}-summary`}>
                <Box sx={{ minWidth: 0 }}>
                  <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>{mail.subject}</Typography>
                  <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                    {translate('qe.master.mail.outboxTo', { to: mail.to, time: formatDateTime(mail.sentAt) })}
                  </Typography>
                </Box>
              </AccordionSummary>
              <AccordionDetails id={`outbox-${mail.id}`}>
                <Typography variant="body2" color="text.secondary">
                  {translate('qe.master.mail.outboxFrom', { from: mail.from })}
                </Typography>
                <Typography component="pre" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: 'inherit', mt: 1, mb: 0 }}>
                  {mail.text}
                </Typography>
              </AccordionDetails>
            </Accordion>
          ))
        )}
      </CardContent>
    </Card>
  );
}
