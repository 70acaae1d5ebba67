import { useState } from 'react';
import { Confirm, useNotify } from 'react-admin';
import { questionnaireApi } from './api';

/**
 * "Send notice": the confirmation, POST /v1/questionnaires/:id/notice and its outcome — how
 * many mails were sent and failed, and apart those respondents without an e-mail address (no
 * mail failed for them). A refusal (no public address, a notice already running…) is shown by
 * request() itself. Used by the questionnaire's actions and by the home screen's running card.
 */
export function NoticeConfirm({ id, isOpen, onClose, onSent }: { id: number; isOpen: boolean; onClose: () => void; onSent?: () => void }) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const send = async () => {
    setBusy(true);
    try {
      const { sent, failed, noAddress = 0 } = await questionnaireApi.notice(id);
      onClose();
      notify(noAddress > 0 ? 'qe.questionnaire.message.noticeSentNoAddress' : 'qe.questionnaire.message.noticeSent', {
        type: failed > 0 || noAddress > 0 ? 'warning' : 'success',
        messageArgs: { sent, failed, noAddress },
      });
      onSent?.();
    } catch {
      onClose(); // request() has shown the server's message
    } finally {
      setBusy(false);
    }
  };
  return (
    <Confirm
      isOpen={isOpen}
      loading={busy}
      title="qe.confirm.title"
      content="qe.questionnaire.message.noticeConfirm"
      confirm="qe.questionnaire.action.notice"
      onConfirm={send}
      onClose={onClose}
    />
  );
}
