import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { i18nProvider } from '../../../src/client/providers/i18nProvider';
import { MailSettingScreen } from '../../../src/client/master/MailSettingScreen';
import { masterEntities } from '../../../src/shared/generated/master-entities';
import { fakeData, fakeFetch, renderAt } from '../questionnaires/support';

// The mail setting screen: the switch that stops TLS certificates being checked, and the
// warning shown while it is on (saved so, or just switched on in the form); the reminder
// template in Chinese and in English.
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

  it('shows the Chinese and the English reminder template, each labelled, and saves both; the server’s refusal of half an English template lands on its field', async () => {
    const calls = fakeFetch((call) => {
      if (call.method === 'PUT') return { status: 422, code: 422, msg: '驗證失敗', data: { reminderContentEn: '必填' } };
      return call.path === '/v1/mail-settings' ? { ...SAVED, reminderSubjectEn: 'Reminder: {title}', reminderContentEn: 'Dear {name}, please answer {title} by {deadline}.' } : null;
    });
    renderAt('/master/mails', <MailSettingScreen entity={masterEntities.mailSetting} />, fakeData([]), ['mail.view', 'mail.edit']);
    const subjectHk = await screen.findByRole('textbox', { name: /^提示郵件主旨（中文）/ });
    expect(subjectHk).toHaveProperty('value', '提示：{title}');
    expect(screen.getByRole('textbox', { name: /^提示郵件內容（中文）/ })).toHaveProperty('value', SAVED.reminderContent);
    const subjectEn = screen.getByRole('textbox', { name: /^提示郵件主旨（英文）/ });
    await waitFor(() => expect(subjectEn).toHaveProperty('value', 'Reminder: {title}'));
    const contentEn = screen.getByRole('textbox', { name: /^提示郵件內容（英文）/ });
    // the English template is optional, and says what an English reader gets without it
    expect(subjectEn).toHaveProperty('required', false);
    expect(screen.getByText(/留空則寄出中文範本/)).toBeTruthy();
    // the test mail says which template it sends
    expect(screen.getByText('測試郵件使用目前介面語言的範本。')).toBeTruthy();

    fireEvent.change(contentEn, { target: { value: '' } });
    fireEvent.click(screen.getByTestId('master-save'));
    expect(await screen.findByText('必填')).toBeTruthy();
    expect(contentEn.getAttribute('aria-invalid')).toBe('true');
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.body).toMatchObject({ reminderSubject: '提示：{title}', reminderSubjectEn: 'Reminder: {title}' });
  });

  it('labels the two templates in English too', async () => {
    await i18nProvider.changeLocale('en');
    open(SAVED);
    expect(await screen.findByRole('textbox', { name: /^Reminder subject \(Chinese\)/ })).toHaveProperty('value', '提示：{title}');
    expect(screen.getByRole('textbox', { name: /^Reminder subject \(English\)/ })).toHaveProperty('value', '');
    expect(screen.getByRole('textbox', { name: /^Reminder content \(English\)/ })).toBeTruthy();
    expect(screen.getByText(/left empty, they get the Chinese template/)).toBeTruthy();
  });

  it('warns a reader without mail.edit too', async () => {
    open(SAVED, ['mail.view']);
    expect(await screen.findByTestId('untrusted-certificate-warning')).toBeTruthy();
  });
});
