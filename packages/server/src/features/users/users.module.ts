import { staffInvitationMail } from '@guildhall/shared';
import { defineFeature } from '../../platform/feature-module.ts';
import { invitationsRoutes } from './invitations.routes.ts';
import { usersRoutes } from './users.routes.ts';

/** Users of the association: the list and record, feature flags, and staff invitations with Resend and Revoke. */
export const usersModule = defineFeature({
  name: 'users',
  routes: async (app, options) => {
    await usersRoutes(app, options);
    await invitationsRoutes(app, options);
  },
  mailTemplates: [staffInvitationMail],
});
