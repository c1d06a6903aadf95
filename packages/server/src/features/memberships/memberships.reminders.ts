/**
 * Renewal reminders: a membership whose term ends within its type's `reminder_days_before` days gets one mail
 * before it ends (per term: the `membership_reminders` key makes it sent once, however often the daily job runs or
 * is restarted). The daily job sends what is due, then queues itself for the next day. Mail goes to the outbox
 * (or SMTP) after the rows that claim it are committed.
 */
import { type Database, jobs, q, runFragment, type Tx, withTenantTx } from '@guildhall/db';
import { formatMoney, todayIn } from '@guildhall/shared';
import { and, eq } from 'drizzle-orm';
import type { ClaimedJob } from '../../platform/jobs.ts';
import type { Services } from '../../platform/services.ts';
import * as repo from './memberships.repo.ts';

export const REMINDER_JOB = 'memberships-reminders';
const BATCH = 200;

interface ClaimedReminder {
  membership_id: number | string;
  name: string;
  contact_name: string;
  first_name: string | null;
  email: string | null;
  term_end: string;
  term_total: number | string;
  auto_pay: boolean;
}

/**
 * Claims the reminders due today (at most one batch): a row per membership and term, inserted only once. Answers
 * the claimed ones with what their mail says.
 */
export async function claimReminders(tx: Tx, tenantId: string, today: string): Promise<ClaimedReminder[]> {
  return runFragment<ClaimedReminder>(
    tx,
    q`with due as (
        select m.membership_id, m.name, m.contact_name, c.first_name, c.email, m.term_end, m.term_total, m.auto_pay
        from memberships m
        join membership_types t on t.tenant_id = m.tenant_id and t.membership_type_id = m.membership_type_id
        join contacts c on c.tenant_id = m.tenant_id and c.contact_id = m.contact_id
        where m.tenant_id = ${tenantId} and not m.is_deleted and m.status = 'active'
          and t.reminder_days_before is not null and m.term_end is not null
          and m.term_end >= ${today}::date and m.term_end - t.reminder_days_before <= ${today}::date
          and not exists (select 1 from membership_reminders r where r.tenant_id = m.tenant_id
            and r.membership_id = m.membership_id and r.term_end = m.term_end and r.kind = 'before')
        order by m.membership_id limit ${BATCH}),
      claimed as (
        insert into membership_reminders (tenant_id, membership_id, term_end, kind, sent_on, email)
        select ${tenantId}, due.membership_id, due.term_end, 'before', ${today}::date, due.email from due
        on conflict do nothing
        returning membership_id)
      select due.membership_id, due.name, due.contact_name, due.first_name, due.email, due.term_end::text as term_end,
        due.term_total, due.auto_pay
      from due join claimed on claimed.membership_id = due.membership_id
      order by due.membership_id`,
  );
}

function reminderText(r: ClaimedReminder, association: string): { subject: string; text: string } {
  const hello = r.first_name ? `Hello ${r.first_name},` : `Hello ${r.contact_name},`;
  const amount = formatMoney(Number(r.term_total));
  const how = r.auto_pay
    ? `Autopay is on: your card on file will be charged ${amount} for the next term; nothing else is needed.`
    : `The renewal invoice of ${amount} for the next term will be in your member area; pay it there to stay a member without a gap.`;
  return {
    subject: `Your ${r.name} membership ends on ${r.term_end}`,
    text: `${hello}\n\nYour ${r.name} membership with ${association} ends on ${r.term_end}. ${how}\n\nThank you for being a member.\n`,
  };
}

/** Sends every reminder due today for an association, batch by batch. Answers how many were sent. */
export async function sendRenewalReminders(
  database: Database,
  services: Services,
  tenantId: string,
): Promise<number> {
  let sent = 0;
  for (;;) {
    const { claimed, association } = await withTenantTx(database.db, { tenantId }, async (tx) => {
      const today = todayIn(await repo.tenantTimezone(tx, tenantId));
      const [named] = await runFragment<{ name: string }>(
        tx,
        q`select name from tenants where id = ${tenantId}`,
      );
      return { claimed: await claimReminders(tx, tenantId, today), association: named?.name ?? '' };
    });
    // Claimed and committed first: a crash after this sends the batch's remaining mails never, not twice.
    for (const r of claimed) {
      if (!r.email) continue;
      await services.mailer.send(tenantId, { to: r.email, ...reminderText(r, association) });
      sent++;
    }
    if (claimed.length < BATCH) return sent;
  }
}

/** Queues the daily reminder job for an association unless one is already waiting. */
export async function ensureDailyReminders(
  tx: Tx,
  services: Services,
  tenantId: string,
  runAfter?: Date,
): Promise<void> {
  const [waiting] = await tx
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.tenantId, tenantId), eq(jobs.kind, REMINDER_JOB), eq(jobs.status, 'queued')))
    .limit(1);
  if (waiting) return;
  await services.jobs.enqueue(tx, {
    tenantId,
    kind: REMINDER_JOB,
    payload: {},
    userId: null,
    ...(runAfter ? { runAfter } : {}),
  });
}

/** The daily job: today's reminders, then the next run in a day. */
export const reminderJob = (services: Services) => async (database: Database, job: ClaimedJob) => {
  await sendRenewalReminders(database, services, job.tenantId);
  await withTenantTx(database.db, { tenantId: job.tenantId }, (tx) =>
    ensureDailyReminders(tx, services, job.tenantId, new Date(Date.now() + 86_400_000)),
  );
};
