/**
 * Upgrades and downgrades mid-term through billing: the preview and the change agree to the cent, the credit note
 * for the unused old term is applied to the invoice for the days left at the new price (a downgrade leaves the
 * rest as the member's credit), the ledger stays balanced, the fees, name, history and audit follow, and every
 * refusal names its reason. A renewal invoice already made for the next term is voided and re-issued at the new
 * price, or, with money on it, the change is refused.
 */
import { memberships, q, runFragment, withTenantTx } from '@guildhall/db';
import { addDays, ratioOf, todayIn } from '@guildhall/shared';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
} from '../../../test/helpers.ts';
import { recordPayment } from '../billing/billing.service.ts';
import { renewBatch } from './memberships.billing.ts';
import { CHANGE_MESSAGES } from './memberships.change.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let api: ReturnType<typeof client>;
type Model = Record<string, unknown>;
let individual: number;
let premium: number;
let today: string;

async function save(path: string, view: string, model: Model): Promise<Model> {
  const res = await api.post(`/api/memberships/${path}/${view}Save`, model);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { Data: Model }).Data;
}
const tx = <T>(fn: Parameters<typeof withTenantTx<T>>[2]) =>
  withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, fn);
const one = async (f: ReturnType<typeof q>) =>
  (await tx((x) => runFragment<Record<string, unknown>>(x, f)))[0] ?? {};

/** An active member of `typeId` whose 365-day term started 100 days ago (265 days left, today included). */
async function activeMember(last: string, typeId: number, status = 'active'): Promise<number> {
  const res = await api.post('/api/contacts/contacts/contactSave', {
    ContactType: 'individual',
    Status: 'active',
    FirstName: 'Chris',
    LastName: last,
  });
  const contactId = (res.json() as { Data: Model }).Data.ContactId as number;
  const joined = await api.post('/api/memberships/join', { ContactId: contactId, MembershipTypeId: typeId });
  expect(joined.statusCode, joined.body).toBe(200);
  const id = joined.json().MembershipId as number;
  const start = addDays(today, -100);
  await tx((x) =>
    x
      .update(memberships)
      .set({ status, termStart: start, termEnd: addDays(start, 364) })
      .where(and(eq(memberships.tenantId, t.tenant.id), eq(memberships.membershipId, id))),
  );
  return id;
}

async function ledgerBalanced() {
  const totals = await one(
    q`select coalesce(sum(debit_cents), 0) as d, coalesce(sum(credit_cents), 0) as c from ledger_lines where tenant_id = ${t.tenant.id}`,
  );
  expect(Number(totals.d)).toBe(Number(totals.c));
  const unbalanced = await tx((x) =>
    runFragment(
      x,
      q`select entry_id from ledger_lines where tenant_id = ${t.tenant.id} group by entry_id having sum(debit_cents) <> sum(credit_cents)`,
    ),
  );
  expect(unbalanced).toEqual([]);
}

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  api = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
  today = todayIn('America/Chicago');
  const base = { TermKind: 'anniversary', DurationMonths: 12, IsActive: true, GraceDays: 30 };
  individual = (await save('types', 'type', { ...base, Name: 'Individual' })).MembershipTypeId as number;
  await save('fees', 'fee', {
    MembershipTypeId: individual,
    FeeId: 1,
    Name: 'Dues',
    OriginalPrice: 20_000,
    BillFrequencyTypeId: 12,
  });
  await save('fees', 'fee', {
    MembershipTypeId: individual,
    FeeId: 2,
    Name: 'Application',
    OriginalPrice: 1_000,
    BillFrequencyTypeId: 0,
  });
  premium = (await save('types', 'type', { ...base, Name: 'Premium' })).MembershipTypeId as number;
  await save('fees', 'fee', {
    MembershipTypeId: premium,
    FeeId: 1,
    Name: 'Premium dues',
    OriginalPrice: 36_500,
    BillFrequencyTypeId: 12,
  });
});
afterAll(async () => {
  await ctx?.close();
});

// 265 of 365 days are left: the old price's share comes back, the new price's share is invoiced.
const credit20k = ratioOf(20_000, 265, 365);
const charge36k = 26_500;

describe('upgrade mid-term', () => {
  it('previews the exact amounts, then bills them: the credit note is applied to the new invoice', async () => {
    const id = await activeMember('Upgrader', individual);
    const invoicesBefore = Number((await one(q`select count(*) as n from invoices`)).n);
    const preview = await api.post(`/api/memberships/memberships/${id}/change/preview`, {
      MembershipTypeId: premium,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({
      FromName: 'Individual',
      ToName: 'Premium',
      Direction: 'upgrade',
      OldTermTotal: 20_000,
      NewTermTotal: 36_500,
      DaysLeft: 265,
      DaysInTerm: 365,
      CreditCents: credit20k,
      ChargeCents: charge36k,
      NetCents: charge36k - credit20k,
      CreditId: null,
      InvoiceId: null,
    });
    expect(credit20k).toBe(14_521);
    // The preview wrote nothing.
    expect(Number((await one(q`select count(*) as n from invoices`)).n)).toBe(invoicesBefore);

    const res = await api.post(`/api/memberships/memberships/${id}/change`, { MembershipTypeId: premium });
    expect(res.statusCode, res.body).toBe(200);
    const done = res.json();
    expect(done).toMatchObject({ CreditCents: 14_521, ChargeCents: 26_500, NetCents: 11_979 });
    const invoice = await one(
      q`select total_cents, balance_cents, source_kind, source_id, status from invoices where invoice_id = ${done.InvoiceId}`,
    );
    expect(invoice).toMatchObject({ source_kind: 'membership' });
    expect(Number(invoice.source_id)).toBe(id);
    expect(Number(invoice.total_cents)).toBe(26_500);
    expect(Number(invoice.balance_cents)).toBe(11_979);
    const credit = await one(
      q`select amount_cents, applied_cents from credits where credit_id = ${done.CreditId}`,
    );
    expect(Number(credit.amount_cents)).toBe(14_521);
    expect(Number(credit.applied_cents)).toBe(14_521);
    await ledgerBalanced();

    const record = await api.get(`/api/memberships/memberships/${id}`);
    const m = await tx((x) =>
      x
        .select()
        .from(memberships)
        .where(and(eq(memberships.tenantId, t.tenant.id), eq(memberships.membershipId, id))),
    );
    void record;
    expect(m[0]).toMatchObject({
      name: 'Premium',
      membershipTypeId: premium,
      termTotal: 36_500,
      status: 'active',
      termEnd: addDays(addDays(today, -100), 364),
    });
    const fees = await tx((x) =>
      runFragment<{ name: string; price: number | string }>(
        x,
        q`select name, price from membership_fee_items where tenant_id = ${t.tenant.id} and membership_id = ${id}`,
      ),
    );
    expect(fees.map((f) => [f.name, Number(f.price)])).toEqual([['Premium dues', 36_500]]);
    const history = await one(
      q`select event, reason from membership_history where membership_id = ${id} order by history_id desc limit 1`,
    );
    expect(history.event).toBe('Changed (upgrade) from Individual to Premium');
    const audited = await one(
      q`select after from audit_log where action = 'change' and entity = 'memberships' and entity_id = ${String(id)}`,
    );
    expect(audited.after).toMatchObject({
      CreditCents: 14_521,
      ChargeCents: 26_500,
      InvoiceId: done.InvoiceId,
    });
  });
});

describe('downgrade mid-term', () => {
  it('pays the smaller invoice from the credit and leaves the rest as the member’s credit', async () => {
    const id = await activeMember('Downgrader', premium);
    const res = await api.post(`/api/memberships/memberships/${id}/change`, { MembershipTypeId: individual });
    expect(res.statusCode, res.body).toBe(200);
    const done = res.json();
    expect(done).toMatchObject({
      Direction: 'downgrade',
      CreditCents: 26_500,
      ChargeCents: 14_521,
      NetCents: 14_521 - 26_500,
    });
    const invoice = await one(
      q`select total_cents, balance_cents, status from invoices where invoice_id = ${done.InvoiceId}`,
    );
    expect(Number(invoice.total_cents)).toBe(14_521);
    expect(Number(invoice.balance_cents)).toBe(0);
    expect(invoice.status).toBe('paid');
    const credit = await one(
      q`select amount_cents, applied_cents from credits where credit_id = ${done.CreditId}`,
    );
    expect(Number(credit.amount_cents) - Number(credit.applied_cents)).toBe(11_979);
    // The change's own invoice, paid by the credit, leaves the membership as it is.
    const m = await one(q`select status, name from memberships where membership_id = ${id}`);
    expect(m).toMatchObject({ status: 'active', name: 'Individual' });
    await ledgerBalanced();
  });
});

describe('refusals', () => {
  it('refuses a pending membership, the same membership, an ended term and an unknown type', async () => {
    const pending = await activeMember('Pending', individual, 'pending');
    const refused = await api.post(`/api/memberships/memberships/${pending}/change/preview`, {
      MembershipTypeId: premium,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(CHANGE_MESSAGES.notActive);

    const active = await activeMember('Same', individual);
    const same = await api.post(`/api/memberships/memberships/${active}/change`, {
      MembershipTypeId: individual,
    });
    expect(same.statusCode).toBe(409);
    expect(same.json().message).toBe(CHANGE_MESSAGES.same);

    const unknown = await api.post(`/api/memberships/memberships/${active}/change`, {
      MembershipTypeId: 999_999,
    });
    expect(unknown.statusCode).toBe(400);

    await tx((x) =>
      x
        .update(memberships)
        .set({ termStart: addDays(today, -400), termEnd: addDays(today, -36) })
        .where(and(eq(memberships.tenantId, t.tenant.id), eq(memberships.membershipId, active))),
    );
    const ended = await api.post(`/api/memberships/memberships/${active}/change`, {
      MembershipTypeId: premium,
    });
    expect(ended.statusCode).toBe(409);
    expect(ended.json().message).toBe(CHANGE_MESSAGES.termEnded);

    expect(
      (await api.post('/api/memberships/memberships/987654/change', { MembershipTypeId: premium }))
        .statusCode,
    ).toBe(404);
    // Nothing was billed by a refusal.
    const billed = await one(
      q`select count(*) as n from invoices where source_kind = 'membership' and source_id in (${pending}, ${active})
          and memo like '%changed to%'`,
    );
    expect(Number(billed.n)).toBe(0);
    await ledgerBalanced();
  });
});

describe('a renewal invoice already made for the next term', () => {
  /** The renewal run as of the days before the term ends: every due member gets the next term's invoice. */
  async function runRenewalsAhead() {
    const ahead = addDays(today, 300);
    while ((await tx((x) => renewBatch(x, ctx.app.services, t.tenant.id, ahead))) > 0);
  }
  const renewalOf = (id: number) =>
    one(
      q`select r.invoice_id, r.amount, r.state, i.number, i.total_cents, i.status from membership_invoices r
        join invoices i on i.tenant_id = r.tenant_id and i.invoice_id = r.invoice_id
        where r.tenant_id = ${t.tenant.id} and r.membership_id = ${id} and r.kind = 'renewal'`,
    );

  it('is voided and re-issued at the new price for the same term; a re-run makes nothing more', async () => {
    const id = await activeMember('Renewed', individual);
    await runRenewalsAhead();
    const before = await renewalOf(id);
    expect(Number(before.total_cents)).toBe(20_000);
    expect(before.status).toBe('open');

    const res = await api.post(`/api/memberships/memberships/${id}/change`, { MembershipTypeId: premium });
    expect(res.statusCode, res.body).toBe(200);
    const after = await renewalOf(id);
    expect(Number(after.invoice_id)).not.toBe(Number(before.invoice_id));
    expect(Number(after.total_cents)).toBe(36_500);
    expect(Number(after.amount)).toBe(36_500);
    expect(after).toMatchObject({ state: 'open', status: 'open' });
    expect(res.json().message).toBe(
      `Changed to Premium. Renewal invoice ${before.number} voided and ${after.number} issued at the new price ($365.00).`,
    );
    const old = await one(
      q`select status, balance_cents, void_reason from invoices where tenant_id = ${t.tenant.id} and invoice_id = ${before.invoice_id}`,
    );
    expect(old).toMatchObject({
      status: 'void',
      void_reason: 'Membership changed to Premium: re-issued at the new price',
    });
    expect(Number(old.balance_cents)).toBe(0);
    const history = await one(
      q`select reason from membership_history where membership_id = ${id} order by history_id desc limit 1`,
    );
    expect(String(history.reason)).toContain(
      `Renewal invoice ${before.number} voided and ${after.number} issued`,
    );

    await runRenewalsAhead();
    const rows = await one(
      q`select count(*) as n from membership_invoices where tenant_id = ${t.tenant.id} and membership_id = ${id} and kind = 'renewal'`,
    );
    expect(Number(rows.n)).toBe(1);
    expect(Number((await renewalOf(id)).invoice_id)).toBe(Number(after.invoice_id));
    await ledgerBalanced();
  });

  it('refuses the change while money is on it, in the preview and the change, billing nothing', async () => {
    const id = await activeMember('Prepaid', individual);
    await runRenewalsAhead();
    const renewal = await renewalOf(id);
    const contact = await one(q`select contact_id from memberships where membership_id = ${id}`);
    await tx((x) =>
      recordPayment(x, ctx.app.services, t.tenant.id, {
        contactId: Number(contact.contact_id),
        amountCents: 5_000,
        method: 'cash',
        applications: [{ invoiceId: Number(renewal.invoice_id), amountCents: 5_000 }],
      }),
    );
    const invoicesBefore = Number((await one(q`select count(*) as n from invoices`)).n);
    for (const path of ['change/preview', 'change']) {
      const res = await api.post(`/api/memberships/memberships/${id}/${path}`, { MembershipTypeId: premium });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(CHANGE_MESSAGES.renewalPaid(String(renewal.number)));
    }
    expect(Number((await one(q`select count(*) as n from invoices`)).n)).toBe(invoicesBefore);
    expect((await one(q`select name from memberships where membership_id = ${id}`)).name).toBe('Individual');
    await ledgerBalanced();
  });
});
