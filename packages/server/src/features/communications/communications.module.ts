/**
 * Communications: merge fields, signatures, email templates and newsletters, and (later) mailings delivered through
 * the platform mailer. Its routes, and the server hooks of the templates resource (sanitize and check merge fields).
 */
import { defineFeature } from '../../platform/feature-module.ts';
import { communicationsRoutes } from './communications.routes.ts';
import { templateHooks } from './templates.service.ts';

export const communicationsModule = defineFeature({
  name: 'communications',
  routes: communicationsRoutes,
  resourceHooks: () => ({ emailTemplates: templateHooks }),
});
