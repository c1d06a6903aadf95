import { auditModule } from '../features/audit/index.ts';
import { authModule } from '../features/auth/index.ts';
import { billingModule } from '../features/billing/index.ts';
import { communicationsModule } from '../features/communications/index.ts';
import { contactsModule } from '../features/contacts/index.ts';
import { customFieldsModule } from '../features/custom-fields/index.ts';
import { directoryModule } from '../features/directory/index.ts';
import { eventsModule } from '../features/events/index.ts';
import { filesModule } from '../features/files/index.ts';
import { homeModule } from '../features/home/index.ts';
import { mailModule } from '../features/mail/index.ts';
import { membershipsModule } from '../features/memberships/index.ts';
import { queryToolModule } from '../features/query-tool/index.ts';
import { settingsModule } from '../features/settings/index.ts';
import { signupModule } from '../features/signup/index.ts';
import { statusModule } from '../features/status/index.ts';
import { tasksModule } from '../features/tasks/index.ts';
import { termsModule } from '../features/terms/index.ts';
import { usersModule } from '../features/users/index.ts';
import type { WebModule } from '../platform/modules/web-module.ts';
import { screensModule } from '../platform/screens/screens-module.ts';

/**
 * The web app's modules, in the order their navigation entries, record actions and dashboard widgets show.
 * A feature not in this list is absent: no route, no entry, no widget.
 */
export const WEB_MODULES: readonly WebModule[] = [
  homeModule,
  screensModule,
  contactsModule,
  membershipsModule,
  billingModule,
  eventsModule,
  usersModule,
  communicationsModule,
  mailModule,
  filesModule,
  customFieldsModule,
  tasksModule,
  settingsModule,
  termsModule,
  statusModule,
  auditModule,
  queryToolModule,
  directoryModule,
  authModule,
  signupModule,
];
