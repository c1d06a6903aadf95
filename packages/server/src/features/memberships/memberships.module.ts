/**
 * The memberships feature (decision 0130): its routes (join wizard options, live price, join, lifecycle, counts).
 * The setup, the list, the record with its fees and history are the generic layer's, from the resource files.
 */
import { q, runFragment, type Tx } from '@guildhall/db';
import { membershipMailTemplates, TENANT_PROVISIONED } from '@guildhall/shared';
import { defineFeature } from '../../platform/feature-module.ts';
import { onInvoicePaid, onInvoiceVoided, onPaymentFailed, RENEWAL_JOB } from './memberships.billing.ts';
import { provisionDefaultMembership } from './memberships.defaults.ts';
import { REMINDER_JOB, reminderJob } from './memberships.reminders.ts';
import { membershipsRoutes } from './memberships.routes.ts';
import { renewalJob } from './memberships.runs.ts';

/**
 * What other features may ask of memberships: the membership status of contacts (their current membership's: an
 * active or grace one first, else the latest), for the global search's contact hits.
 */
export const membershipsApi = {
  async statusesOf(tx: Tx, tenantId: string, contactIds: readonly number[]): Promise<Map<number, string>> {
    if (contactIds.length === 0) return new Map();
    const rows = await runFragment<{ contact_id: number | string; status: string }>(
      tx,
      q`select distinct on (contact_id) contact_id, status from memberships
        where tenant_id = ${tenantId} and contact_id = any(${[...contactIds]}::bigint[]) and not is_deleted
        order by contact_id, case status when 'active' then 0 when 'grace' then 1 when 'pending' then 2 else 3 end,
          term_end desc nulls last, membership_id desc`,
    );
    return new Map(rows.map((r) => [Number(r.contact_id), r.status]));
  },
};

export const membershipsModule = defineFeature({
  name: 'memberships',
  routes: membershipsRoutes,
  jobs: { [RENEWAL_JOB]: renewalJob, [REMINDER_JOB]: reminderJob },
  mailTemplates: [...membershipMailTemplates],
  // Reminders before and after the due day, and autopay notices: every association, every morning (decision 0181).
  daily: [REMINDER_JOB],
  subscribes: {
    [TENANT_PROVISIONED]: () => provisionDefaultMembership,
    'invoice.paid': onInvoicePaid,
    'invoice.voided': onInvoiceVoided,
    'payment.failed': onPaymentFailed,
  },
});
