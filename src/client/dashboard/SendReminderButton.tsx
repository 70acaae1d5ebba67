import { useState } from 'react';
import { Button } from '@mui/material';
import SendIcon from '@mui/icons-material/Send';
import { useRefresh } from 'react-admin';
import { useTranslate } from '../i18n/translate';
import { NoticeConfirm } from '../questionnaires/form/NoticeConfirm';

/** "Send notice" for one running questionnaire: the questionnaire screens' own confirmation, call and outcome. */
export function SendReminderButton({ id, title }: { id: number; title: string }) {
  const translate = useTranslate();
  const refresh = useRefresh();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size="small"
        startIcon={<SendIcon fontSize="small" />}
        onClick={() => setOpen(true)}
        aria-label={translate('qe.dashboard.running.remindLabel', { title })}
        data-testid="running-remind"
      >
        {translate('qe.questionnaire.action.notice')}
      </Button>
      <NoticeConfirm id={id} isOpen={open} onClose={() => setOpen(false)} onSent={refresh} />
    </>
  );
}
