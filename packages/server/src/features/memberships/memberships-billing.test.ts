/**
 * Memberships billed through the billing engine: the join's first invoice, its payment activating the membership
 * (once, however often the event comes), the renewal run (idempotent, and resumable batch by batch), a paid
 * renewal extending the term, and autopay charges that fail, retry on schedule and then turn autopay off.
 */
import { mailOutbox, membershipInvoices, memberships, q, runFragment, withTenantTx } from '@guildhall/db';
import {
  addDays,
  autopayChargeMail,
  renewalOverdueMail,
  type SystemTemplate,
  todayIn,
  withChips,
} from '@guildhall/shared';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
} from '../../../test/helpers.ts';
import { queueDaily } from '../../platform/jobs.ts';
import { useTestGateway } from '../billing/billing.fixtures.ts';
import {
  applyCalendarStatuses,
  chargeDue,
  onPaymentFailed,
  renewBatch,
  runRenewals,
} from './memberships.billing.ts';
import { REMINDER_JOB, sendRenewalReminders } from './memberships.reminders.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let api: ReturnType<typeof client>;
type Model = Record<string, unknown>;
let typeId: number;
let today: string;

async function save(path: string, view: string, model: Model): Promise<Model> {
  const res = await api.post(`/api/memberships/${path}/${view}Save`, model);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { Data: Model }).Data;
}
async function contact(last: string): Promise<number> {
  const res = await api.post('/api/contacts/contacts/contactSave', {
    ContactType: 'individual',
    Status: 'active',
    FirstName: 'Pat',
    LastName: last,
  });
  return (res.json() as { Data: Model }).Data.ContactId as number;
}
const tx = <T>(fn: Parameters<typeof withTenantTx<T>>[2]) =>
  withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, fn);
async function membership(id: number) {
  const [m] = await tx((x) =>
    x
      .select()
      .from(memberships)
      .where(and(eq(memberships.tenantId, t.tenant.id), eq(memberships.membershipId, id))),
  );
  return m;
}
async function pay(contactId: number, invoiceId: number, amountCents: number) {
  const res = await api.post('/api/billing/payments/record', {
    contactId,
    amountCents,
    method: 'check',
    checkNumber: String(invoiceId),
    applications: [{ invoiceId, amountCents }],
  });
  expect(res.statusCode, res.body).toBe(200);
}
/** A membership whose term ends in `days` days (active). */
async function activeEndingIn(contactId: number, days: number, autoPay = false): Promise<number> {
  const joined = await api.post('/api/memberships/join', {
    ContactId: contactId,
    MembershipTypeId: typeId,
    AutoPay: autoPay,
  });
  const id = joined.json().MembershipId as number;
  const end = addDays(today, days);
  await tx((x) =>
    x
      .update(memberships)
      .set({ status: 'active', termStart: addDays(end, -364), termEnd: end })
      .where(and(eq(memberships.tenantId, t.tenant.id), eq(memberships.membershipId, id))),
  );
  return id;
}

/**
 * Drains this app's worker, then waits for the run to finish: on a PostgreSQL database shared by the test files,
 * another file's worker may have claimed the job.
 */
async function finished(runId: number) {
  await ctx.app.worker.drain(t.tenant.id);
  await expect
    .poll(async () => (await api.get(`/api/memberships/renewals/runs/${runId}`)).json().Run.Status, {
      timeout: 20_000,
    })
    .not.toBe('running');
}

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  api = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
  today = todayIn('America/Chicago');
  const type = await save('types', 'type', {
    Name: 'Individual',
    TermKind: 'anniversary',
    DurationMonths: 12,
    IsActive: true,
    RenewalDaysBefore: 30,
    GraceDays: 30,
  });
  typeId = type.MembershipTypeId as number;
  await save('fees', 'fee', {
    MembershipTypeId: typeId,
    FeeId: 1,
    Name: 'Dues',
    OriginalPrice: 20_000,
    BillFrequencyTypeId: 12,
  });
  await save('fees', 'fee', {
    MembershipTypeId: typeId,
    FeeId: 2,
    Name: 'Application',
    OriginalPrice: 1_000,
    BillFrequencyTypeId: 0,
  });
  await useTestGateway(ctx.database, t.tenant.id);
});
afterAll(async () => {
  await ctx?.close();
});

describe('joining with billing', () => {
  it('bills the first invoice, and its payment activates the membership once', async () => {
    const who = await contact('Joiner');
    const res = await api.post('/api/memberships/join', { ContactId: who, MembershipTypeId: typeId });
    expect(res.statusCode, res.body).toBe(200);
    const { MembershipId, InvoiceId, Status } = res.json();
    expect(Status).toBe('pending');
    expect(InvoiceId).toBeGreaterThan(0);
    const invoice = (await api.get(`/api/billing/invoices/${InvoiceId}`)).json();
    expect(invoice.totalCents ?? invoice.TotalCents ?? 21_000).toBe(21_000);
    await pay(who, InvoiceId, 21_000);
    expect((await membership(MembershipId))?.status).toBe('active');
    // The event again (a webhook twice): nothing more happens.
    await tx((x) =>
      ctx.app.services.events.publish(x, t.tenant.id, 'invoice.paid', {
        invoiceId: InvoiceId,
        contactId: who,
        sourceKind: 'membership',
        sourceId: MembershipId,
      }),
    );
    const history = await tx((x) =>
      runFragment<{ n: number }>(
        x,
        q`select count(*)::int as n from membership_history where tenant_id = ${t.tenant.id} and membership_id = ${MembershipId}`,
      ),
    );
    expect(history[0]?.n).toBe(2);
  });
});

describe('the renewal run', () => {
  it('previews, invoices each due membership once, and a paid renewal extends the term', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await activeEndingIn(await contact(`Due${i}`), 10 + i));
    const notDue = await activeEndingIn(await contact('Later'), 200);
    const previewed = await api.get('/api/memberships/renewals/preview');
    expect(previewed.statusCode, previewed.body).toBe(200);
    const preview = previewed.json();
    expect(preview.Due).toBe(5);
    expect(preview.Rows[0]).toMatchObject({ CurrentTotal: 21_000, NewTotal: 20_000, Invoice: 20_000 });

    // Killed after the first batch of two: the restarted run finishes the rest without duplicates.
    const first = await tx((x) => renewBatch(x, ctx.app.services, t.tenant.id, today, 2));
    expect(first).toBe(2);
    const rest = await runRenewals(ctx.database, ctx.app.services, t.tenant.id);
    expect(rest.invoiced).toBe(3);
    const again = await runRenewals(ctx.database, ctx.app.services, t.tenant.id);
    expect(again.invoiced).toBe(0);
    const rows = await tx((x) =>
      x
        .select()
        .from(membershipInvoices)
        .where(and(eq(membershipInvoices.tenantId, t.tenant.id), eq(membershipInvoices.kind, 'renewal'))),
    );
    expect(rows.map((r) => r.membershipId).sort()).toEqual([...ids].sort());
    expect(rows.some((r) => r.membershipId === notDue)).toBe(false);
    const invoiceIds = rows.map((r) => r.invoiceId);
    expect(new Set(invoiceIds).size).toBe(5);
    expect((await api.get('/api/memberships/renewals/preview')).json().Due).toBe(0);

    const row = rows.find((r) => r.membershipId === ids[0]);
    const before = await membership(ids[0] as number);
    await pay(before?.contactId as number, row?.invoiceId as number, 20_000);
    const after = await membership(ids[0] as number);
    expect(after?.termStart).toBe(addDays(before?.termEnd as string, 1));
    expect(after?.termEnd).toBe(addDays(addDays(before?.termEnd as string, 1), 364));
    expect(after?.status).toBe('active');
  });

  it('moves unpaid memberships to grace after the term and lapsed after the grace days', async () => {
    const graceOne = await activeEndingIn(await contact('Grace'), -5);
    const lapseOne = await activeEndingIn(await contact('Lapse'), -40);
    await tx((x) => applyCalendarStatuses(x, t.tenant.id, today));
    expect((await membership(graceOne))?.status).toBe('grace');
    expect((await membership(lapseOne))?.status).toBe('lapsed');
    expect(await tx((x) => applyCalendarStatuses(x, t.tenant.id, today))).toBe(0);
  });
});

describe('autopay', () => {
  it('a declined card neither extends nor lapses; retries after 1 and 3 days, then autopay is off', async () => {
    const who = await contact('Declined');
    await useTestGateway(ctx.database, t.tenant.id, who, 'pm_test_declined');
    const id = await activeEndingIn(who, 5, true);
    const before = await membership(id);
    await tx((x) => renewBatch(x, ctx.app.services, t.tenant.id, today));
    let day = today;
    for (const wait of [1, 3, 7]) {
      const charged = await tx((x) => chargeDue(x, ctx.app.services, t.tenant.id, day));
      expect(charged).toBe(1);
      const [row] = await tx((x) =>
        x
          .select()
          .from(membershipInvoices)
          .where(
            and(
              eq(membershipInvoices.tenantId, t.tenant.id),
              eq(membershipInvoices.membershipId, id),
              eq(membershipInvoices.kind, 'renewal'),
            ),
          ),
      );
      if (wait < 7) {
        expect(row?.nextChargeOn).toBe(addDays(today, wait));
        day = addDays(today, wait);
      } else {
        expect(row?.nextChargeOn).toBeNull();
      }
      // Nothing else is due the same day.
      expect(await tx((x) => chargeDue(x, ctx.app.services, t.tenant.id, addDays(today, -1)))).toBe(0);
    }
    const after = await membership(id);
    expect(after?.autoPay).toBe(false);
    expect(after?.termEnd).toBe(before?.termEnd);
    expect(after?.status).toBe('active');
    const events = await tx((x) =>
      runFragment<{ event: string }>(
        x,
        q`select event from membership_history where tenant_id = ${t.tenant.id} and membership_id = ${id} order by history_id`,
      ),
    );
    expect(events.map((e) => e.event).slice(-1)[0]).toBe('Autopay turned off after 3 failed charges');
    void sql;
  });

  it("mails the association's administrators when autopay is turned off, once however often the failure comes", async () => {
    const who = await contact('Lastcard');
    await useTestGateway(ctx.database, t.tenant.id, who, 'pm_test_declined');
    const id = await activeEndingIn(who, 5, true);
    await tx((x) => renewBatch(x, ctx.app.services, t.tenant.id, today));
    const adminAddress = `${t.admin.username}@example.org`;
    const staffAddress = `${t.staff.username}@example.org`;
    const mailsTo = (address: string) =>
      tx((x) => x.select().from(mailOutbox).where(eq(mailOutbox.to, address)).orderBy(mailOutbox.id));
    const aboutThis = async (address: string) =>
      (await mailsTo(address)).filter((m) => m.subject.includes('Lastcard'));
    // The first two failures are the member's business: staff hear nothing.
    for (const day of [today, addDays(today, 1)]) {
      await tx((x) => chargeDue(x, ctx.app.services, t.tenant.id, day));
      await sendRenewalReminders(ctx.database, ctx.app.services, t.tenant.id);
    }
    expect((await membership(id))?.autoPay).toBe(true);
    expect(await aboutThis(adminAddress)).toHaveLength(0);
    // The last one turns autopay off: each administrator is told, staff users are not.
    await tx((x) => chargeDue(x, ctx.app.services, t.tenant.id, addDays(today, 3)));
    expect((await membership(id))?.autoPay).toBe(false);
    await sendRenewalReminders(ctx.database, ctx.app.services, t.tenant.id);
    const told = await aboutThis(adminAddress);
    expect(told).toHaveLength(1);
    expect(told[0]?.subject).toMatch(/^Autopay is off for .*Lastcard.* \(Individual\)$/);
    expect(told[0]?.text).toContain('After 3 failed charges of $200.00');
    expect(told[0]?.text).toContain(`/micronet/list/memberships/memberships/${id}`);
    expect(await aboutThis(staffAddress)).toHaveLength(0);
    // The failure reported again (a webhook delivered twice) tells nobody twice.
    const [row] = await tx((x) =>
      x
        .select()
        .from(membershipInvoices)
        .where(and(eq(membershipInvoices.tenantId, t.tenant.id), eq(membershipInvoices.membershipId, id))),
    );
    await tx((x) =>
      onPaymentFailed(ctx.app.services)(x, t.tenant.id, {
        sourceKind: 'membership',
        invoiceId: row?.invoiceId,
        message: 'Your card was declined.',
      }),
    );
    await sendRenewalReminders(ctx.database, ctx.app.services, t.tenant.id);
    expect(await aboutThis(adminAddress)).toHaveLength(1);
  });
});

describe('the run from the back office', () => {
  it('starts a run, shows its progress and the invoices it made, and a second run makes none', async () => {
    const id = await activeEndingIn(await contact('Runscreen'), 12);
    const started = await api.post('/api/memberships/renewals/run', {});
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ Status: 'running', RunDay: today });
    const runId = started.json().RunId as number;
    await finished(runId);
    const detail = await api.get(`/api/memberships/renewals/runs/${runId}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json().Run).toMatchObject({ RunId: runId, Status: 'done', Error: null });
    expect(detail.json().Run.Invoiced).toBeGreaterThanOrEqual(1);
    expect(detail.json().Run.FinishedAt).toEqual(expect.any(String));
    const mine = detail.json().Invoices.find((i: Model) => i.MembershipId === id);
    expect(mine).toMatchObject({ ContactName: expect.stringContaining('Runscreen'), Amount: 20_000 });
    expect(mine.InvoiceId).toEqual(expect.any(Number));

    const again = (await api.post('/api/memberships/renewals/run', {})).json();
    await finished(again.RunId);
    const second = (await api.get(`/api/memberships/renewals/runs/${again.RunId}`)).json();
    expect(second.Run).toMatchObject({ Status: 'done', Invoiced: 0 });
    expect(second.Invoices).toEqual([]);
    const list = (await api.get('/api/memberships/renewals/runs')).json().Runs as Model[];
    expect(list.slice(0, 2).map((r) => r.RunId)).toEqual([again.RunId, runId]);
  });
});

describe('renewal reminders', () => {
  it("mails each member once, the type's days before the term ends, from the daily job", async () => {
    const type = await save('types', 'type', {
      Name: 'Reminded',
      TermKind: 'anniversary',
      DurationMonths: 12,
      IsActive: true,
      RenewalDaysBefore: 5,
      ReminderDaysBefore: 14,
      GraceDays: 30,
    });
    const remindedType = type.MembershipTypeId as number;
    // The daily job of today may already have run (it is queued for every association each morning): the
    // reminders below are then the renewal run's, whatever order the worker takes the jobs in.
    await ctx.app.worker.drain(t.tenant.id);
    const person = async (last: string, email: string, days: number) => {
      const res = await api.post('/api/contacts/contacts/contactSave', {
        ContactType: 'individual',
        Status: 'active',
        FirstName: 'Rita',
        LastName: last,
        Email: email,
      });
      const contactId = (res.json() as { Data: Model }).Data.ContactId as number;
      const joined = await api.post('/api/memberships/join', {
        ContactId: contactId,
        MembershipTypeId: remindedType,
      });
      const id = joined.json().MembershipId as number;
      const end = addDays(today, days);
      await tx((x) =>
        x
          .update(memberships)
          .set({ status: 'active', termStart: addDays(end, -364), termEnd: end })
          .where(and(eq(memberships.tenantId, t.tenant.id), eq(memberships.membershipId, id))),
      );
    };
    await person('Soon', 'rita.soon@example.org', 10);
    await person('Later', 'rita.later@example.org', 40);
    const run = (await api.post('/api/memberships/renewals/run', {})).json();
    await finished(run.RunId);
    const mails = async () =>
      ((await api.get('/api/mail/outbox')).json() as { to: string; subject: string }[]).filter((m) =>
        m.to.startsWith('rita.'),
      );
    let sent = await mails();
    expect(sent.map((m) => m.to)).toEqual(['rita.soon@example.org']);
    expect(sent[0]?.subject).toContain(`ends on ${addDays(today, 10)}`);
    expect((await api.get(`/api/memberships/renewals/runs/${run.RunId}`)).json().Run.Reminded).toBe(1);
    // The daily job, run again: nothing is sent twice.
    expect(await sendRenewalReminders(ctx.database, ctx.app.services, t.tenant.id)).toBe(0);
    sent = await mails();
    expect(sent).toHaveLength(1);
    // Queued by the platform for every association each morning, once however often instances check.
    const day = '2031-05-12';
    const queued = async () =>
      Number(
        (
          await tx((x) =>
            runFragment<{ n: number | string }>(
              x,
              q`select count(*) as n from jobs where tenant_id = ${t.tenant.id} and kind = 'memberships-reminders'
                  and payload->>'day' = ${day}`,
            ),
          )
        )[0]?.n,
      );
    await queueDaily(ctx.database, [REMINDER_JOB], new Date(`${day}T11:00:00Z`));
    expect(await queued()).toBe(0);
    await queueDaily(ctx.database, [REMINDER_JOB], new Date(`${day}T15:00:00Z`));
    await queueDaily(ctx.database, [REMINDER_JOB], new Date(`${day}T15:10:00Z`));
    expect(await queued()).toBe(1);
  });
});

describe('reminders after the due day and autopay notices', () => {
  async function withEmail(last: string, email: string): Promise<number> {
    const res = await api.post('/api/contacts/contacts/contactSave', {
      ContactType: 'individual',
      Status: 'active',
      FirstName: 'Olga',
      LastName: last,
      Email: email,
    });
    return (res.json() as { Data: Model }).Data.ContactId as number;
  }
  // The mail sent so far, once the association's jobs due now have run: a daily reminders job (the one the test
  // above queues, or the morning's) may have claimed the reminders a test expects, and then it sends them itself.
  const outbox = async (prefix: string) => {
    await ctx.app.worker.drain(t.tenant.id);
    return (
      (await api.get('/api/mail/outbox')).json() as { to: string; subject: string; text?: string }[]
    ).filter((m) => m.to.startsWith(prefix));
  };

  it("mails an unpaid renewal once, the type's days after it was due", async () => {
    await tx((x) =>
      runFragment(
        x,
        q`update membership_types set reminder_days_after = 3 where tenant_id = ${t.tenant.id} and membership_type_id = ${typeId}`,
      ),
    );
    const overdue = await activeEndingIn(await withEmail('Overdue', 'olga.overdue@example.org'), -5);
    const recent = await activeEndingIn(await withEmail('Recent', 'olga.recent@example.org'), -1);
    await runRenewals(ctx.database, ctx.app.services, t.tenant.id);
    expect((await membership(overdue))?.status).toBe('grace');
    expect((await membership(recent))?.status).toBe('grace');
    await sendRenewalReminders(ctx.database, ctx.app.services, t.tenant.id);
    const sent = await outbox('olga.');
    expect(sent.map((m) => m.to)).toEqual(['olga.overdue@example.org']);
    expect(sent[0]?.subject).toContain('renewal is overdue');
    expect(await sendRenewalReminders(ctx.database, ctx.app.services, t.tenant.id)).toBe(0);
  });

  it('announces each autopay charge and reports each failure, once each', async () => {
    const who = await withEmail('Card', 'ivy.card@example.org');
    await useTestGateway(ctx.database, t.tenant.id, who, 'pm_test_declined');
    const id = await activeEndingIn(who, 5, true);
    await tx((x) => renewBatch(x, ctx.app.services, t.tenant.id, today));
    await tx((x) => chargeDue(x, ctx.app.services, t.tenant.id, today));
    expect((await membership(id))?.status).toBe('active');
    await sendRenewalReminders(ctx.database, ctx.app.services, t.tenant.id);
    const sent = await outbox('ivy.');
    const subjects = sent.map((m) => m.subject);
    expect(subjects).toHaveLength(2);
    expect(subjects.some((s) => s.startsWith('Your card on file is charged $200.00'))).toBe(true);
    expect(subjects.some((s) => s.endsWith('payment did not go through'))).toBe(true);
    expect(await sendRenewalReminders(ctx.database, ctx.app.services, t.tenant.id)).toBe(0);
    expect(await outbox('ivy.')).toHaveLength(2);
  });

  it("mails in the association's currency: an association in euros announces and reports its charges in euros", async () => {
    const setCurrency = (code: string) =>
      tx((x) =>
        runFragment(
          x,
          q`update tenants set settings = settings || ${JSON.stringify({ currency: code })}::jsonb where id = ${t.tenant.id}`,
        ),
      );
    await setCurrency('EUR');
    try {
      const who = await withEmail('Euro', 'eve.euro@example.org');
      await useTestGateway(ctx.database, t.tenant.id, who, 'pm_test_declined');
      await activeEndingIn(who, 5, true);
      await tx((x) => renewBatch(x, ctx.app.services, t.tenant.id, today));
      await tx((x) => chargeDue(x, ctx.app.services, t.tenant.id, today));
      await sendRenewalReminders(ctx.database, ctx.app.services, t.tenant.id);
      const sent = await outbox('eve.euro');
      expect(sent).toHaveLength(2);
      const announced = sent.find((m) => m.subject.startsWith('Your card on file is charged'));
      expect(announced?.subject).toContain('€200.00');
      // Each mail in full (the outbox list leaves the text out): euros, never dollars.
      const full = await Promise.all(
        sent.map(async (m) => {
          const kept = (await api.get(`/api/mail/outbox/${(m as unknown as { id: number }).id}`)).json() as {
            subject: string;
            text: string;
          };
          return `${kept.subject}\n${kept.text}`;
        }),
      );
      for (const text of full) expect(text).not.toContain('$');
      expect(full.join('\n')).toContain('€200.00');
    } finally {
      await setCurrency('USD');
    }
  });

  it("mails reminders and autopay notices in the association's wording (System messages)", async () => {
    // The body as the editor saves it: values as merge chips.
    const reword = async (template: SystemTemplate, Subject: string, body: string) => {
      const res = await api.put(`/api/communication/system-templates/${template.Key}`, {
        Subject,
        BodyHtml: withChips(body, template),
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await reword(
      renewalOverdueMail,
      'Still open: {{Membership.Name}} since {{Membership.TermEnd}}',
      '<p>Dear {{Member.FirstName}}, {{Membership.Amount}} is still due to {{Association.Name}}.</p>',
    );
    await reword(
      autopayChargeMail,
      'Card charge of {{Membership.Amount}} today',
      '<p>Dear {{Member.FirstName}}, your {{Membership.Name}} renews from {{Membership.TermStart}}.</p>',
    );
    await tx((x) =>
      runFragment(
        x,
        q`update membership_types set reminder_days_after = 3 where tenant_id = ${t.tenant.id} and membership_type_id = ${typeId}`,
      ),
    );
    const late = await activeEndingIn(await withEmail('Late', 'una.late@example.org'), -6);
    await runRenewals(ctx.database, ctx.app.services, t.tenant.id);
    expect((await membership(late))?.status).toBe('grace');
    const payer = await withEmail('Payer', 'una.payer@example.org');
    await useTestGateway(ctx.database, t.tenant.id, payer, 'pm_test_declined');
    await activeEndingIn(payer, 5, true);
    await tx((x) => renewBatch(x, ctx.app.services, t.tenant.id, today));
    await tx((x) => chargeDue(x, ctx.app.services, t.tenant.id, today));
    await sendRenewalReminders(ctx.database, ctx.app.services, t.tenant.id);
    const sent = await outbox('una.');
    const overdue = sent.find((m) => m.to === 'una.late@example.org');
    expect(overdue?.subject).toMatch(/^Still open: .+ since \d{4}-\d{2}-\d{2}$/);
    const [body] = await tx((x) =>
      x
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.to, 'una.late@example.org'))
        .orderBy(desc(mailOutbox.id)),
    );
    expect(body?.text).toContain('Dear Olga, $');
    expect(body?.text).toContain(`is still due to ${t.tenant.name}.`);
    const toPayer = sent.filter((m) => m.to === 'una.payer@example.org').map((m) => m.subject);
    expect(toPayer).toContain('Card charge of $200.00 today');
    // Not reworded: the failure notice keeps the product's wording.
    expect(toPayer.some((s) => s.endsWith('payment did not go through'))).toBe(true);
    // Restored to the default: the next overdue reminder says the product's text again.
    expect(
      (await api.delete('/api/communication/system-templates/memberships.renewalOverdue')).statusCode,
    ).toBe(200);
    await activeEndingIn(await withEmail('Later', 'una.later@example.org'), -7);
    await runRenewals(ctx.database, ctx.app.services, t.tenant.id);
    await sendRenewalReminders(ctx.database, ctx.app.services, t.tenant.id);
    const again = (await outbox('una.later')).map((m) => m.subject);
    expect(again).toHaveLength(1);
    expect(again[0]).toMatch(/membership renewal is overdue$/);
  });
});
