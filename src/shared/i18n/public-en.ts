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
    signIn: {
      // the login screen's buttons, one per identity provider the school has set up
      accounts: 'Sign in with a school account',
      or: 'or',
      withMicrosoft: 'Sign in with Microsoft',
      withGoogle: 'Sign in with Google',
      withProvider: 'Sign in with %{name}',
      // /sign-in-callback: where the provider sends the browser back
      callback: {
        title: 'Sign in with a school account',
        working: 'Signing you in…',
        failed: 'The sign-in did not succeed.',
        denied: 'The sign-in was cancelled, or the school’s account service refused it.',
        providerError: 'The school’s account service reported a problem (%{error}).',
        providerSaid: 'It said: %{description}',
        invalid: 'This sign-in address is incomplete. Please start again from the login page.',
        unknown: 'This sign-in was started in another window or tab, or long ago. Please start again from the login page.',
        toLogin: 'Back to login',
        retry: 'Try again',
        close: 'Close',
      },
      // the super administrator's test of a provider: each check, what the provider said, the account found
      report: {
        title: 'Sign-in test',
        passed: 'The test passed: this account can sign in through this provider.',
        failed: 'The test did not pass: see the checks below.',
        checks: 'Checks',
        ok: 'Passed',
        notOk: 'Failed',
        steps: {
          discovery: 'Provider settings (discovery)',
          keys: 'Signing keys',
          token: 'Code exchanged for tokens',
          idToken: 'ID token',
          email: 'E-mail address',
          domain: 'E-mail domain',
          account: 'QE account',
          role: 'Role allowed',
        },
        claims: 'What the provider said',
        subject: 'Subject (sub)',
        email: 'E-mail',
        emailVerified: 'E-mail verified',
        name: 'Name',
        yes: 'Yes',
        no: 'No',
        none: '(none)',
        account: 'QE account found',
        accountLine: '%{name} (%{userType})',
        noAccount: 'No QE account matches.',
        userType: {
          SUPER_ADMIN: 'Super administrator',
          ADMIN: 'Administrator',
          TEACHER: 'Teacher',
          STUDENT: 'Student',
        },
      },
    },
    error: {
      operationFailed: 'Operation failed',
      tryLater: 'An error occurred, try again later',
    },
  },
};

export default publicEn;
export type PublicMessages = typeof publicEn;
