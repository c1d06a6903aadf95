/**
 * Renewal reminders and autopay notices: a membership whose term ends within its type's `reminder_days_before`
 * days gets one mail before it ends; one whose renewal invoice is still open `reminder_days_after` days after its
 * due day (the term's end) gets one after; an autopay charge is announced before each attempt and each failure is
 * reported (notices written where they arise and mailed once that commits). The `membership_reminders` key makes
 * each sent once per membership, term and kind, however often the daily job (decision 0181: queued for every
 * association each morning) or a run sends them. Mail goes to the outbox (or SMTP) after the rows that claim it
 * are committed. Each is a system message (decision 0154) in the association's wording: a notice's row keeps its
 * message's key (`subject`) and values (`body`, JSON), rendered when it is mailed.
 */
import { type Database, membershipReminders, q, runFragment, type Tx, withTenantTx } from '@guildhall/db';
import {
  membershipNoticeMail,
  renewalOverdueMail,
  renewalReminderMail,
  type SystemTemplate,
  todayIn,
} from '@guildhall/shared';
import type { ClaimedJob } from '../../platform/jobs.ts';
import { tenantMoney } from '../../platform/money.ts';
import type { Services } from '../../platform/services.ts';
import { communicationsApi } from '../communications/communications.module.ts';
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
        insert into membership_reminders (tenant_id, membership_id, term_end, kind, sent_on, email, mailed_at)
        select ${tenantId}, due.membership_id, due.term_end, 'before', ${today}::date, due.email, now() from due
        on conflict do nothing
        returning membership_id)
      select due.membership_id, due.name, due.contact_name, due.first_name, due.email, due.term_end::text as term_end,
        due.term_total, due.auto_pay
      from due join claimed on claimed.membership_id = due.membership_id
      order by due.membership_id`,
  );
}

/** Claims the reminders due after the due day: the renewal invoice of the term still open N days after it. */
export async function claimOverdueReminders(
  tx: Tx,
  tenantId: string,
  today: string,
): Promise<(ClaimedReminder & { amount: number | string })[]> {
  return runFragment<ClaimedReminder & { amount: number | string }>(
    tx,
    q`with due as (
        select m.membership_id, m.name, m.contact_name, c.first_name, c.email, m.term_end, m.term_total, m.auto_pay,
          i.amount
        from memberships m
        join membership_types t on t.tenant_id = m.tenant_id and t.membership_type_id = m.membership_type_id
        join contacts c on c.tenant_id = m.tenant_id and c.contact_id = m.contact_id
        join membership_invoices i on i.tenant_id = m.tenant_id and i.membership_id = m.membership_id
          and i.kind = 'renewal' and i.term_start = m.term_end + 1 and i.state = 'open'
        where m.tenant_id = ${tenantId} and not m.is_deleted and m.status in ('active', 'grace')
          and t.reminder_days_after is not null and m.term_end is not null
          and m.term_end + t.reminder_days_after <= ${today}::date
          and not exists (select 1 from membership_reminders r where r.tenant_id = m.tenant_id
            and r.membership_id = m.membership_id and r.term_end = m.term_end and r.kind = 'after')
        order by m.membership_id limit ${BATCH}),
      claimed as (
        insert into membership_reminders (tenant_id, membership_id, term_end, kind, sent_on, email, mailed_at)
        select ${tenantId}, due.membership_id, due.term_end, 'after', ${today}::date, due.email, now() from due
        on conflict do nothing
        returning membership_id)
      select due.membership_id, due.name, due.contact_name, due.first_name, due.email, due.term_end::text as term_end,
        due.term_total, due.auto_pay, due.amount
      from due join claimed on claimed.membership_id = due.membership_id
      order by due.membership_id`,
  );
}

function overdueMail(
  r: ClaimedReminder & { amount: number | string },
  money: (cents: number) => string,
): NoticeMail {
  return {
    template: renewalOverdueMail,
    values: {
      'Member.FirstName': r.first_name || r.contact_name,
      'Membership.Name': r.name,
      'Membership.TermEnd': r.term_end,
      'Membership.Amount': money(Number(r.amount)),
    },
  };
}

interface NoticeMail {
  template: SystemTemplate;
  values: Record<string, string>;
}

/**
 * Writes a notice (autopay: before a charge, after a failure) in the caller's transaction, once per membership,
 * term and kind; it is mailed after that commits (`flushNotices`).
 */
export async function queueNotice(
  tx: Tx,
  tenantId: string,
  notice: {
    membershipId: number;
    termEnd: string;
    kind: string;
    today: string;
    template: SystemTemplate;
    /** The message's values but the member's name, filled here. */
    values: Record<string, string>;
  },
): Promise<void> {
  const [who] = await runFragment<{ email: string | null; first_name: string | null; contact_name: string }>(
    tx,
    q`select c.email, c.first_name, m.contact_name from memberships m
      join contacts c on c.tenant_id = m.tenant_id and c.contact_id = m.contact_id
      where m.tenant_id = ${tenantId} and m.membership_id = ${notice.membershipId}`,
  );
  if (!who) return;
  await tx
    .insert(membershipReminders)
    .values({
      tenantId,
      membershipId: notice.membershipId,
      termEnd: notice.termEnd,
      kind: notice.kind,
      sentOn: notice.today,
      email: who.email,
      subject: notice.template.Key,
      body: JSON.stringify({ 'Member.FirstName': who.first_name || who.contact_name, ...notice.values }),
      // Nobody to mail: nothing waits.
      mailedAt: who.email ? null : new Date(),
    })
    .onConflictDoNothing();
}

/**
 * Writes a notice to the association's administrators (active staff users with the administrator role and an
 * address) in the caller's transaction, one row each (kind `<kind>:staff:<user id>`): mailed with the member
 * notices once that commits, each once. Answers how many were written.
 */
export async function queueStaffNotice(
  tx: Tx,
  tenantId: string,
  notice: {
    membershipId: number;
    termEnd: string;
    kind: string;
    today: string;
    template: SystemTemplate;
    /** The message's values but the administrator's name, filled here. */
    values: Record<string, string>;
  },
): Promise<number> {
  const staff = await runFragment<{ user_id: number | string; email: string; display_name: string }>(
    tx,
    q`select user_id, email, display_name from user_directory
      where tenant_id = ${tenantId} and role = 'admin' and login_type = 'staff' and is_active
        and coalesce(email, '') <> ''
      order by user_id`,
  );
  if (staff.length === 0) return 0;
  await tx
    .insert(membershipReminders)
    .values(
      staff.map((s) => ({
        tenantId,
        membershipId: notice.membershipId,
        termEnd: notice.termEnd,
        kind: `${notice.kind}:staff:${s.user_id}`,
        sentOn: notice.today,
        email: s.email,
        subject: notice.template.Key,
        body: JSON.stringify({ 'Staff.Name': s.display_name, ...notice.values }),
      })),
    )
    .onConflictDoNothing();
  return staff.length;
}

/** Claims the notices waiting to be mailed (one batch) and marks them mailed: each goes out at most once. */
async function claimNotices(tx: Tx, tenantId: string) {
  return runFragment<{ email: string; subject: string; body: string }>(
    tx,
    q`update membership_reminders r set mailed_at = now()
      from (select membership_id, term_end, kind from membership_reminders
        where tenant_id = ${tenantId} and mailed_at is null and subject is not null
        order by created_at limit ${BATCH} for update skip locked) w
      where r.tenant_id = ${tenantId} and r.membership_id = w.membership_id and r.term_end = w.term_end
        and r.kind = w.kind
      returning r.email, r.subject, r.body`,
  );
}

function reminderMail(r: ClaimedReminder, money: (cents: number) => string): NoticeMail {
  const amount = money(Number(r.term_total));
  return {
    template: renewalReminderMail,
    values: {
      'Member.FirstName': r.first_name || r.contact_name,
      'Membership.Name': r.name,
      'Membership.TermEnd': r.term_end,
      'Membership.Amount': amount,
      'Membership.HowToRenew': r.auto_pay
        ? `Autopay is on: your card on file will be charged ${amount} for the next term; nothing else is needed.`
        : `The renewal invoice of ${amount} for the next term will be in your member area; pay it there to stay a member without a gap.`,
    },
  };
}

/**
 * A waiting notice's message: its key and values as written by `queueNotice`. A notice written before notices were
 * system messages holds its finished subject and text: it goes out as written, in the earlier-wording message.
 */
function noticeMail(templates: readonly SystemTemplate[], n: { subject: string; body: string }): NoticeMail {
  const template = templates.find((t) => t.Key === n.subject);
  if (template) return { template, values: JSON.parse(n.body) as Record<string, string> };
  return { template: membershipNoticeMail, values: { 'Notice.Subject': n.subject, 'Notice.Text': n.body } };
}

/**
 * Sends every reminder due today for an association (before the term ends, after an unpaid renewal's due day) and
 * the autopay notices waiting, batch by batch. Answers how many mails were sent.
 */
export async function sendRenewalReminders(
  database: Database,
  services: Services,
  tenantId: string,
): Promise<number> {
  let sent = 0;
  for (;;) {
    const { before, after, notices, money } = await withTenantTx(database.db, { tenantId }, async (tx) => {
      const today = todayIn(await repo.tenantTimezone(tx, tenantId));
      return {
        money: await tenantMoney(tx, tenantId),
        before: await claimReminders(tx, tenantId, today),
        after: await claimOverdueReminders(tx, tenantId, today),
        notices: await claimNotices(tx, tenantId),
      };
    });
    // Claimed and committed first: a crash after this sends the batch's remaining mails never, not twice.
    const mails = [
      ...before.map((r) => (r.email ? { to: r.email, ...reminderMail(r, money) } : null)),
      ...after.map((r) => (r.email ? { to: r.email, ...overdueMail(r, money) } : null)),
      ...notices.map((n) => {
        const mail = n.email ? noticeMail(services.mailTemplates, n) : null;
        return mail && n.email ? { to: n.email, ...mail } : null;
      }),
    ];
    for (const mail of mails) {
      if (!mail) continue;
      await communicationsApi.sendSystemMail(services, tenantId, mail.template, {
        to: mail.to,
        values: mail.values,
      });
      sent++;
    }
    if (before.length < BATCH && after.length < BATCH && notices.length < BATCH) return sent;
  }
}

/** The daily job (queued each morning for every association, decision 0181): today's reminders and notices. */
export const reminderJob = (services: Services) => async (database: Database, job: ClaimedJob) => {
  await sendRenewalReminders(database, services, job.tenantId);
};
