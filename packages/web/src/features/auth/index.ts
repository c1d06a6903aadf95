import { IconKey } from '@tabler/icons-react';
import { page, screen } from '../../platform/modules/routing.tsx';
import type { WebModule } from '../../platform/modules/web-module.ts';

/** The auth screens share one chunk: sign-in, recovery and the prompts are small and visited together. */
const auth = () => import('./auth-screens.ts');

const changePassword = page(
  'account/password',
  { stateName: 'Account.ChangePassword', title: 'Change password' },
  screen(auth, (m) => m.ChangePasswordPage),
);

const timeZone = page(
  'account/time-zone',
  { stateName: 'Account.TimeZone', title: 'Time zone' },
  screen(auth, (m) => m.TimeZonePage),
);

export const authModule: WebModule = {
  name: 'auth',
  memberShortcuts: [
    {
      to: '/m/account/password',
      title: 'Sign-in and security',
      description: 'Change the password you use to sign in.',
      action: 'Change password',
      icon: IconKey,
      order: 90,
    },
  ],
  public: [
    page(
      'sign-in',
      { title: 'Sign in' },
      screen(auth, (m) => m.SignInPage),
    ),
    page(
      'forgot-password',
      { title: 'Forgot your password?' },
      screen(auth, (m) => m.ForgotPasswordPage),
    ),
    page(
      'reset-password',
      { title: 'Choose a new password' },
      screen(auth, (m) => m.ResetPasswordPage),
    ),
  ],
  promptLayout: screen(auth, (m) => m.PromptLayout),
  prompts: [
    page(
      'choose-association',
      { title: 'Choose an association' },
      screen(auth, (m) => m.ChooseAssociationPage),
    ),
    page(
      'security-question',
      { title: 'Set a security question' },
      screen(auth, (m) => m.SecurityQuestionPrompt),
    ),
    page(
      'change-password',
      { title: 'Choose a new password' },
      screen(auth, (m) => m.ChangePasswordPrompt),
    ),
    page(
      'change-username',
      { title: 'Choose a new username' },
      screen(auth, (m) => m.ChangeUsernamePrompt),
    ),
  ],
  backOffice: [changePassword, timeZone],
  memberArea: [changePassword, timeZone],
};
