import { passwordResetMail } from '@guildhall/shared';
import { defineFeature } from '../../platform/feature-module.ts';
import { authRoutes } from './auth.routes.ts';

export { privacyPolicyVersion } from './auth.repo.ts';

export const authModule = defineFeature({
  name: 'auth',
  routes: authRoutes,
  mailTemplates: [passwordResetMail],
});
