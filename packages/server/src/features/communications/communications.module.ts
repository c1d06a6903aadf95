/**
 * Communications: merge fields, signatures, email templates and newsletters, and (later) mailings delivered through
 * the platform mailer. Its routes, and the server hooks of the templates resource (sanitize and check merge fields).
 */
import { defineFeature } from '../../platform/feature-module.ts';
import { bouncesRoutes } from './bounces.routes.ts';
import { communicationsRoutes } from './communications.routes.ts';
import { designerRoutes } from './designer.routes.ts';
import { mailingsRoutes } from './mailings.routes.ts';
import { MAILING_JOB, mailingHandler } from './mailings.service.ts';
import { systemTemplatesRoutes } from './system-templates.routes.ts';
import { sendSystemMail } from './system-templates.service.ts';
import { templateHooks } from './templates.service.ts';

/** What other features use of communications: their system messages sent in the association's wording. */
export const communicationsApi = { sendSystemMail };
export type { SystemMail } from './system-templates.service.ts';

export const communicationsModule = defineFeature({
  name: 'communications',
  routes: async (app, options) => {
    await communicationsRoutes(app, options);
    await mailingsRoutes(app, options);
    await designerRoutes(app, options);
    await bouncesRoutes(app, options);
    await systemTemplatesRoutes(app, options);
  },
  jobs: { [MAILING_JOB]: (services) => mailingHandler(services) },
  resourceHooks: () => ({ emailTemplates: templateHooks }),
});
