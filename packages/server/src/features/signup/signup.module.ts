import { TENANT_PROVISIONED } from '@guildhall/shared';
import { defineFeature } from '../../platform/feature-module.ts';

/**
 * Trial sign-up: the minimal sign-up, the account setup wizard's calls (spec 001 sections 2 to 8) and the
 * provisioning of a new association, which publishes `tenant.provisioned` for the features that give it defaults.
 */
export const signupModule = defineFeature({
  name: 'signup',
  publishes: [TENANT_PROVISIONED],
});
