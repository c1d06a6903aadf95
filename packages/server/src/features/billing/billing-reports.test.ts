/**
 * Billing's reports (issue 15): the receivables aging agrees with the shared aging rule invoice by invoice, revenue
 * by account and month agrees with the invoices issued (a void one takes its revenue back), and the dashboard's
 * figures agree with the open invoices. Another association's books are not seen.
 */
import { agingBucket, calendarDay, DEFAULT_TIMEZONE } from '@guildhall/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
} from '../../../test/helpers.ts';
import { makeContact } from './billing.fixtures.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let staff: ReturnType<typeof client>;
let otherStaff: ReturnType<typeof client>;
const issued: { invoiceId: number; dueDate: string; balance: number; contactId: number }[] = [];

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  staff = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
  otherStaff = client(ctx.app, (await signIn(ctx.app, other.staff)).cookie);
  const ada = await makeContact(ctx.database, t.tenant.id, 'Ada Lovelace');
  const bob = await makeContact(ctx.database, t.tenant.id, 'Bob Brown');
  const issue = async (contactId: number, cents: number, issueDate: string, dueDate: string) => {
    const res = await staff.post('/api/billing/invoices/issue', {
      contactId,
      issueDate,
      dueDate,
      lines: [{ description: 'Dues', unitPriceCents: cents, quantity: 1 }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const inv = res.json() as { invoiceId: number };
    issued.push({ invoiceId: inv.invoiceId, dueDate, balance: cents, contactId });
    return inv.invoiceId;
  };
  // Due on the report's day (current), 1, 30, 31, 60, 61, 90, 91 and 200 days before it.
  await issue(ada, 1_000, '2026-12-01', '2026-12-31');
  await issue(ada, 2_000, '2026-11-01', '2026-12-30');
  await issue(bob, 3_000, '2026-11-01', '2026-12-01');
  await issue(bob, 4_000, '2026-10-01', '2026-11-30');
  await issue(ada, 5_000, '2026-10-01', '2026-11-01');
  await issue(bob, 6_000, '2026-10-01', '2026-10-31');
  await issue(ada, 7_000, '2026-09-01', '2026-10-02');
  await issue(bob, 8_000, '2026-09-01', '2026-10-01');
  const partly = await issue(ada, 9_000, '2026-06-01', '2026-06-14');
  // Part of the oldest is paid; one invoice is void (not owed, and its revenue is taken back).
  const pay = await staff.post('/api/billing/payments/record', {
    contactId: ada,
    amountCents: 2_500,
    method: 'cash',
    applications: [{ invoiceId: partly, amountCents: 2_500 }],
  });
  expect(pay.statusCode, pay.body).toBe(200);
  const last = issued.at(-1);
  if (last) last.balance -= 2_500;
  const voided = await issue(bob, 50_000, '2026-11-15', '2026-12-15');
  expect(
    (await staff.post(`/api/billing/invoices/${voided}/void`, { reason: 'Sent twice' })).statusCode,
  ).toBe(200);
  issued.pop();
}, 60_000);
afterAll(() => ctx?.close());

describe('billing reports', () => {
  it('ages what is owed exactly as the shared aging rule does, per bucket and per contact', async () => {
    const res = await staff.get('/api/billing/reports/aging?asOf=2026-12-31');
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json();
    const expected: Record<string, number> = { current: 0, '1-30': 0, '31-60': 0, '61-90': 0, '90+': 0 };
    for (const i of issued)
      expected[agingBucket(i.dueDate, '2026-12-31')] =
        (expected[agingBucket(i.dueDate, '2026-12-31')] ?? 0) + i.balance;
    expect(report.totals).toMatchObject({
      ...expected,
      totalCents: issued.reduce((s, i) => s + i.balance, 0),
      invoiceCount: issued.length,
      contactCount: 2,
    });
    expect(expected['90+']).toBe(8_000 + 6_500);
    expect(report.contacts).toHaveLength(2);
    const sum = (contactId: number) =>
      issued.filter((i) => i.contactId === contactId).reduce((s, i) => s + i.balance, 0);
    for (const c of report.contacts) expect(c.totalCents).toBe(sum(c.contactId));
    expect(report.contacts[0].totalCents).toBeGreaterThanOrEqual(report.contacts[1].totalCents);
    const elsewhere = (await otherStaff.get('/api/billing/reports/aging?asOf=2026-12-31')).json();
    expect(elsewhere.totals.totalCents).toBe(0);
  });

  it('gives revenue by account and month from the ledger; a void invoice gives it back', async () => {
    const res = await staff.get('/api/billing/reports/revenue?from=2026-06-01&to=2026-12-31');
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json();
    expect(report.months).toEqual([
      '2026-06',
      '2026-07',
      '2026-08',
      '2026-09',
      '2026-10',
      '2026-11',
      '2026-12',
    ]);
    expect(report.accounts).toHaveLength(1);
    expect(report.accounts[0].code).toBe('4000');
    // June 9,000; September 7,000 + 8,000; October 4,000 + 5,000 + 6,000; November 2,000 + 3,000 (+50,000 void: 0);
    // December 1,000. The void was issued in November and voided today, so its reversal is dated today.
    const byMonth = Object.fromEntries(
      report.months.map((m: string, i: number) => [m, report.totalsByMonth[i]]),
    );
    expect(byMonth['2026-06']).toBe(9_000);
    expect(byMonth['2026-09']).toBe(15_000);
    expect(byMonth['2026-10']).toBe(15_000);
    expect(byMonth['2026-12']).toBe(1_000);
    expect((await staff.get('/api/billing/reports/revenue?from=2026-12-01&to=2026-01-01')).statusCode).toBe(
      400,
    );
  });

  it("takes the period as a date-range option of the lists (0-37), resolved in the association's time zone", async () => {
    const today = calendarDay(new Date(), DEFAULT_TIMEZONE);
    const year = today.slice(0, 4);
    const thisYear = await staff.get('/api/billing/reports/revenue?range=10');
    expect(thisYear.statusCode, thisYear.body).toBe(200);
    expect(thisYear.json()).toMatchObject({ from: `${year}-01-01`, to: `${year}-12-31` });
    expect(thisYear.json().months).toHaveLength(12);
    // A preset wins over the days given; Custom (0) takes them.
    const todayOnly = await staff.get('/api/billing/reports/revenue?range=1&from=2020-01-01&to=2020-12-31');
    expect(todayOnly.json()).toMatchObject({ from: today, to: today });
    const custom = await staff.get('/api/billing/reports/revenue?range=0&from=2026-06-01&to=2026-06-30');
    expect(custom.json()).toMatchObject({ from: '2026-06-01', to: '2026-06-30' });
    expect(custom.json().totalCents).toBe(9_000);
    // The longest option, Last 3 Years, spans 37 months; an option that does not exist is refused.
    const threeYears = await staff.get('/api/billing/reports/revenue?range=27');
    expect(threeYears.statusCode, threeYears.body).toBe(200);
    expect(threeYears.json().months).toHaveLength(37);
    expect((await staff.get('/api/billing/reports/revenue?range=38')).statusCode).toBe(400);
    expect((await staff.get('/api/billing/reports/revenue?range=abc')).statusCode).toBe(400);
  });

  it('the dashboard shows open receivables and the overdue invoices', async () => {
    const res = await staff.get('/api/billing/dashboard');
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json();
    expect(d.openReceivablesCents).toBe(issued.reduce((s, i) => s + i.balance, 0));
    expect(d.openInvoiceCount).toBe(issued.length);
    expect(d.currency).toBe('USD');
    expect(d.overdueCount).toBeGreaterThanOrEqual(issued.filter((i) => i.dueDate < '2026-11-26').length);
    expect((await otherStaff.get('/api/billing/dashboard')).json().openReceivablesCents).toBe(0);
  });

  it('ships payments by method and deposits by month to the report builder', async () => {
    const check = await staff.post('/api/billing/payments/record', {
      contactId: issued[0]?.contactId,
      amountCents: 1_250,
      method: 'check',
      checkNumber: '501',
    });
    expect(check.statusCode, check.body).toBe(200);
    const deposit = await staff.post('/api/billing/deposits/make', {
      paymentIds: [(check.json() as { paymentId: number }).paymentId],
      depositDate: '2026-11-20',
    });
    expect(deposit.statusCode, deposit.body).toBe(200);
    type Run = {
      Grouping: { Rows: { Keys: unknown[]; Labels: string[]; Values: Record<string, number> }[] };
    };
    const byMethod = await staff.post('/api/reportExecution/run/payments.byMethod?format=json', {});
    expect(byMethod.statusCode, byMethod.body).toBe(200);
    const methods = (byMethod.json() as Run).Grouping.Rows;
    expect(methods.find((r) => r.Keys[0] === 'cash')?.Values).toMatchObject({
      count: 1,
      sum_AmountCents: 2_500,
    });
    expect(methods.find((r) => r.Keys[0] === 'check')?.Values).toMatchObject({
      count: 1,
      sum_AmountCents: 1_250,
    });
    const byMonth = await staff.post('/api/reportExecution/run/deposits.byMonth?format=json', {});
    expect(byMonth.statusCode, byMonth.body).toBe(200);
    const months = (byMonth.json() as Run).Grouping.Rows;
    expect(months.find((r) => r.Labels[0] === 'Nov 2026')?.Values).toMatchObject({
      count: 1,
      sum_PaymentCount: 1,
      sum_TotalCents: 1_250,
    });
  });
});
