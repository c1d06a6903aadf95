import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditRoutes } from './audit/audit.routes.ts';
import { authRoutes } from './auth/auth.routes.ts';
import { contactsRoutes } from './contacts/contacts.routes.ts';
import { mailRoutes } from './mail/mail.routes.ts';
import { searchRoutes } from './search/search.routes.ts';
import { settingsRoutes } from './settings/settings.routes.ts';
import { shellRoutes } from './shell/shell.routes.ts';
import { termsRoutes } from './terms/terms.routes.ts';
import { usersRoutes } from './users/users.routes.ts';
import { utilsRoutes } from './utils/utils.routes.ts';

/** Every feature's routes; each registers inside the API scope, which enforces permissions. */
export const features: FastifyPluginAsyncZod[] = [
  authRoutes,
  termsRoutes,
  shellRoutes,
  settingsRoutes,
  usersRoutes,
  mailRoutes,
  auditRoutes,
  utilsRoutes,
  contactsRoutes,
  searchRoutes,
];
