/**
 * The memberships feature (decision 0130): its routes (join wizard options, live price, join, lifecycle, counts).
 * The setup, the list, the record with its fees and history are the generic layer's, from the resource files.
 */
import { TENANT_PROVISIONED } from '@guildhall/shared';
import { defineFeature } from '../../platform/feature-module.ts';
import { onInvoicePaid, onInvoiceVoided, onPaymentFailed, RENEWAL_JOB } from './memberships.billing.ts';
import { provisionDefaultMembership } from './memberships.defaults.ts';
import { REMINDER_JOB, reminderJob } from './memberships.reminders.ts';
import { membershipsRoutes } from './memberships.routes.ts';
import { renewalJob } from './memberships.runs.ts';

export const membershipsModule = defineFeature({
  name: 'memberships',
  routes: membershipsRoutes,
  jobs: { [RENEWAL_JOB]: renewalJob, [REMINDER_JOB]: reminderJob },
  // Reminders before and after the due day, and autopay notices: every association, every morning (decision 0181).
  daily: [REMINDER_JOB],
  subscribes: {
    [TENANT_PROVISIONED]: () => provisionDefaultMembership,
    'invoice.paid': onInvoicePaid,
    'invoice.voided': onInvoiceVoided,
    'payment.failed': onPaymentFailed,
  },
});
