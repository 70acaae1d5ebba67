import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Typography, useMediaQuery } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useLocale } from 'react-admin';
import { definitionIn } from '../../../shared/questionnaire/languages';
import { useTranslate } from '../../i18n/translate';
import { QuestionnaireView } from '../../questionnaires/respondent/QuestionnaireView';
import { formatWhen } from '../labels';
import { fetchReply, STATISTICS } from '../api';
import { Loading } from '../../common/Loading';

const noChange = () => undefined;

/**
 * One reply, read only, as the respondent's screen shows it (QuestionnaireView in its read-only
 * mode: back and next through the sections the reply went through), in the reader's language
 * where the questionnaire has it. `who` is the person's name, or 'anonymous N'.
 */
export function ReplyDialog({ id, replyId, who, title, onClose }: { id: number; replyId: string; who: string; title: string; onClose: () => void }) {
  const translate = useTranslate();
  const phone = useMediaQuery('(max-width:599.95px)', { noSsr: true });
  const reader = useLocale() === 'en' ? 'en' : 'zh-hk';
  const query = useQuery({ queryKey: [STATISTICS, 'reply', id, replyId], queryFn: () => fetchReply(id, replyId), retry: false, refetchOnWindowFocus: false });
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" fullScreen={phone} aria-labelledby="reply-dialog-title" data-testid="reply-dialog">
      <DialogTitle id="reply-dialog-title" sx={{ overflowWrap: 'anywhere' }}>
        {translate('qe.statistics.reply.title', { who })}
      </DialogTitle>
      <DialogContent sx={{ px: { xs: 1, sm: 3 } }}>
        {query.isError ? (
          <Alert severity="error">{(query.error as Error)?.message || translate('qe.error.tryLater')}</Alert>
        ) : query.isPending ? (
          <Loading />
        ) : (
          <QuestionnaireView
            definition={definitionIn(query.data.definition, reader)}
            value={query.data.answers}
            onChange={noChange}
            readOnly
            title={title}
            header={
              <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }} data-testid="reply-submitted-on">
                {translate('qe.statistics.reply.submittedOn', { time: formatWhen(query.data.submittedOn) })}
              </Typography>
            }
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate('qe.common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
