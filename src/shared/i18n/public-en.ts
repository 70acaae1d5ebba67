/**
 * QE's English texts of the screens outside the app (login, quick login: auth/PublicApp.tsx),
 * which a page load draws before react-admin and MUI arrive. app-en.ts includes them where they
 * belong (qe.login, qe.nav.language…); they live in this small file of their own so that the
 * first script carries these few texts, not the whole message file. A test checks that the
 * public screens name no other key.
 */
const publicEn = {
  qe: {
    quick: { title: 'Opening your questionnaire', invalid: 'This link is not valid any more. Please log in to answer.', toLogin: 'Go to login' },
    app: { title: 'Questionnaire system', loading: 'Loading…' },
    nav: {
      language: 'Language',
      languageNow: 'Language: %{name}',
    },
    login: {
      title: 'Log in',
      username: 'User name',
      password: 'Password',
      submit: 'Log in',
      usernameRequired: 'Please enter user name',
      passwordRequired: 'Please enter password',
      autoLoginFailed: 'Automatic login failed, please log in.',
    },
    error: {
      operationFailed: 'Operation failed',
      tryLater: 'An error occurred, try again later',
    },
  },
};

export default publicEn;
export type PublicMessages = typeof publicEn;
