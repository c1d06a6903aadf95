/** The auth screens share one chunk: sign-in, recovery and the prompts are small and visited together. */

export { ChangePasswordPage } from './change-password-page.tsx';
export { ChooseAssociationPage } from './choose-association-page.tsx';
export { ForgotPasswordPage } from './forgot-password-page.tsx';
export { PromptLayout } from './prompt-layout.tsx';
export { ChangePasswordPrompt, ChangeUsernamePrompt, SecurityQuestionPrompt } from './prompt-pages.tsx';
export { ResetPasswordPage } from './reset-password-page.tsx';
export { SignInPage } from './sign-in-page.tsx';
export { TimeZonePage } from './time-zone-page.tsx';
