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
 * What other features may ask of memberships: the membership status of contacts, for the global search's contact
 * hits. A contact's memberships are their own and the organisations' that name them as secondary members (the
 * member access they have through them); the current one counts: active first, then grace, then pending, else the
 * latest, their own before an organisation's when both say the same.
 */
export const membershipsApi = {
  async statusesOf(tx: Tx, tenantId: string, contactIds: readonly number[]): Promise<Map<number, string>> {
    if (contactIds.length === 0) return new Map();
    const ids = [...contactIds];
    const rows = await runFragment<{ contact_id: number | string; status: string }>(
      tx,
      q`select distinct on (contact_id) contact_id, status from (
          select m.contact_id, m.status, m.term_end, m.membership_id, 0 as covered from memberships m
          where m.tenant_id = ${tenantId} and m.contact_id = any(${ids}::bigint[]) and not m.is_deleted
          union all
          select s.contact_id, m.status, m.term_end, m.membership_id, 1 as covered from membership_members s
          join memberships m on m.tenant_id = s.tenant_id and m.membership_id = s.membership_id and not m.is_deleted
          where s.tenant_id = ${tenantId} and s.contact_id = any(${ids}::bigint[])
        ) held
        order by contact_id, case status when 'active' then 0 when 'grace' then 1 when 'pending' then 2 else 3 end,
          covered, term_end desc nulls last, membership_id desc`,
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
