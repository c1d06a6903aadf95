/** The sign-up screens share one chunk: the minimal sign-up and the setup wizard are visited one after the other. */
export { SetupWizardPage } from './setup-wizard.tsx';
export { SignupPage } from './signup-page.tsx';
