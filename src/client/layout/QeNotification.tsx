import { Notification } from 'react-admin';

/**
 * Messages at the top, over the top bar. At the bottom they covered what they were about: a form's
 * toolbar (fixed at the foot of a phone's screen, its save button under the message) and the last
 * fields, where a failed check points. The top bar only says where one is.
 */
export const QeNotification = () => <Notification anchorOrigin={{ vertical: 'top', horizontal: 'center' }} sx={{ top: { xs: 4, sm: 4 } }} />;
