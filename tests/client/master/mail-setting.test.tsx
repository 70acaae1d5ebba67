import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { MailSettingScreen } from '../../../src/client/master/MailSettingScreen';
import { masterEntities } from '../../../src/shared/generated/master-entities';
import { fakeData, fakeFetch, renderAt } from '../questionnaires/support';

// The mail setting screen: the switch that stops TLS certificates being checked, and the
// warning shown while it is on (saved so, or just switched on in the form).
const SAVED = {
  id: 1,
  host: 'relay.school.edu.hk',
  port: 587,
  secure: false,
  allowUntrustedCertificate: true,
  username: 'mailer',
  fromAddress: 'qe@school.edu.hk',
  fromName: null,
  reminderSubject: '提示：{title}',
  reminderContent: '{name} 你好，請於 {deadline} 前填寫 {title}。',
};
const warning = () => screen.queryByTestId('untrusted-certificate-warning');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the mail setting screen', () => {
  beforeEach(async () => {
    await i18nProvider.changeLocale('zh-hk');
  });

  const open = (saved: object | null, permissions = ['mail.view', 'mail.edit']) => {
    fakeFetch((call) => (call.path === '/v1/mail-settings' ? saved : null));
    renderAt('/master/mails', <MailSettingScreen entity={masterEntities.mailSetting} />, fakeData([]), permissions);
  };

  it('warns while an untrusted certificate is allowed, and not once it is switched off', async () => {
    open(SAVED);
    const toggle = await screen.findByRole('switch', { name: '允許不受信任的證書' });
    expect(toggle).toHaveProperty('checked', true);
    expect(warning()?.textContent).toContain('系統不會核實 SMTP 伺服器的證書');
    expect(warning()?.className).toMatch(/MuiAlert-.*[Ww]arning/);
    fireEvent.click(toggle);
    await waitFor(() => expect(warning()).toBeNull());
    fireEvent.click(toggle);
    expect(await screen.findByTestId('untrusted-certificate-warning')).toBeTruthy();
  });

  it('shows no warning by default (certificates checked), and the warning in English', async () => {
    open(null);
    const toggle = await screen.findByRole('switch', { name: '允許不受信任的證書' });
    expect(toggle).toHaveProperty('checked', false);
    expect(warning()).toBeNull();
    cleanup();
    await i18nProvider.changeLocale('en');
    open(SAVED);
    await screen.findByRole('switch', { name: 'Allow an untrusted certificate' });
    expect(warning()?.textContent).toMatch(/^The SMTP server’s certificate is not checked/);
  });

  it('warns a reader without mail.edit too', async () => {
    open(SAVED, ['mail.view']);
    expect(await screen.findByTestId('untrusted-certificate-warning')).toBeTruthy();
  });
});
