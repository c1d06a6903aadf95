import { page, screen } from '../../platform/modules/routing.tsx';
import type { WebModule } from '../../platform/modules/web-module.ts';

const signup = () => import('./signup-screens.ts');

/** Trial sign-up: the minimal sign-up form and the account setup wizard of its mailed link (spec 001). */
export const signupModule: WebModule = {
  name: 'signup',
  public: [
    page(
      'signup',
      { title: 'Start your free trial' },
      screen(signup, (m) => m.SignupPage),
    ),
    page(
      'signup/setup',
      { title: 'Set up your association' },
      screen(signup, (m) => m.SetupWizardPage),
    ),
  ],
};
