import type { FeatureModule } from '../platform/feature-module.ts';
import { auditModule } from './audit/audit.module.ts';
import { authModule } from './auth/auth.module.ts';
import { billingModule } from './billing/billing.module.ts';
import { communicationsModule } from './communications/communications.module.ts';
import { contactsModule } from './contacts/contacts.module.ts';
import { customFieldsModule } from './custom-fields/custom-fields.module.ts';
import { eventsModule } from './events/events.module.ts';
import { filesModule } from './files/files.module.ts';
import { mailModule } from './mail/mail.module.ts';
import { membershipsModule } from './memberships/memberships.module.ts';
import { queryToolModule } from './query-tool/query-tool.module.ts';
import { searchModule } from './search/search.module.ts';
import { settingsModule } from './settings/settings.module.ts';
import { shellModule } from './shell/shell.module.ts';
import { signupModule } from './signup/signup.module.ts';
import { tasksModule } from './tasks/tasks.module.ts';
import { termsModule } from './terms/terms.module.ts';
import { usersModule } from './users/users.module.ts';
import { utilsModule } from './utils/utils.module.ts';

/**
 * The server's features, one module each (platform/feature-module.ts): the app assembles exactly these. A feature
 * that is not listed here is absent, routes, hooks, jobs and all.
 */
export const features: readonly FeatureModule[] = [
  authModule,
  termsModule,
  shellModule,
  settingsModule,
  usersModule,
  mailModule,
  auditModule,
  utilsModule,
  contactsModule,
  searchModule,
  filesModule,
  signupModule,
  membershipsModule,
  billingModule,
  customFieldsModule,
  communicationsModule,
  queryToolModule,
  tasksModule,
  eventsModule,
];
