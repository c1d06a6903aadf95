import { TENANT_PROVISIONED } from '@guildhall/shared';
import { defineFeature } from '../../platform/feature-module.ts';
import { signupRoutes } from './signup.routes.ts';

/**
 * Trial sign-up: the minimal sign-up, the account setup wizard's calls (spec 001 sections 2 to 8) and the
 * provisioning of a new association, which publishes `tenant.provisioned` for the features that give it defaults.
 */
export const signupModule = defineFeature({
  name: 'signup',
  routes: signupRoutes,
  publishes: [TENANT_PROVISIONED],
});
