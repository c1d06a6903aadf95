/**
 * The billing engine through its API and its module (issue 15): invoices numbered per tenant without gaps,
 * payments applied to several invoices, overpayments kept as credit, unapply, refunds within the refund rule,
 * bounced checks, credits and credit notes, write-offs, voids, deposits, card charges through the test gateway,
 * the events sellers subscribe to, and a ledger whose debits equal its credits after all of it.
 */
import { withTenantTx } from '@guildhall/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
} from '../../../test/helpers.ts';
import { defineFeature } from '../../platform/feature-module.ts';
import { features } from '../index.ts';
import { makeContact, makeTaxSet, useTestGateway } from './billing.fixtures.ts';
import { billingApi } from './billing.module.ts';

const heard: { name: string; payload: Record<string, unknown> }[] = [];
const listener = defineFeature({
  name: 'listener',
  subscribes: Object.fromEntries(
    ['invoice.paid', 'invoice.voided', 'invoice.reopened', 'payment.failed'].map((name) => [
      name,
      () => async (_tx: unknown, _tenant: string, payload: Record<string, unknown>) => {
        heard.push({ name, payload });
      },
    ]),
  ),
});

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let staff: ReturnType<typeof client>;
let member: ReturnType<typeof client>;
let ada: number;
let bob: number;

beforeAll(async () => {
  ctx = await testApp({}, 4, { modules: [...features, listener] });
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  staff = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
  member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
  ada = await makeContact(ctx.database, t.tenant.id, 'Ada Łukasiewicz');
  bob = await makeContact(ctx.database, t.tenant.id, 'Bob Brown');
});
afterAll(() => ctx.close());

const invoice = async (contactId: number, cents: number, extra: Record<string, unknown> = {}) => {
  const res = await staff.post('/api/billing/invoices/issue', {
    contactId,
    lines: [{ description: 'Annual dues', unitPriceCents: cents, quantity: 1 }],
    issueDate: '2026-11-01',
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as {
    invoiceId: number;
    number: string;
    status: string;
    totalCents: number;
    balanceCents: number;
  };
};

const balanced = async () => {
  const res = await staff.get('/api/billing/ledger/trial-balance');
  const tb = res.json() as {
    debits: number;
    credits: number;
    accounts: { role: string | null; debits: number; credits: number }[];
  };
  expect(tb.debits).toBe(tb.credits);
  return tb;
};

const accountOf = (tb: Awaited<ReturnType<typeof balanced>>, role: string) => {
  const a = tb.accounts.find((x) => x.role === role);
  return (a?.debits ?? 0) - (a?.credits ?? 0);
};

describe('invoices', () => {
  it('numbers invoices per tenant in order, totals them by the shared rules, and posts them', async () => {
    const tax = await makeTaxSet(ctx.database, t.tenant.id, 'Sales tax 8.25%', '8.25');
    const res = await staff.post('/api/billing/invoices/issue', {
      contactId: ada,
      issueDate: '2026-11-02',
      lines: [
        {
          description: 'Gala dinner ticket',
          unitPriceCents: 5000,
          quantity: 2,
          discountCents: 1000,
          taxSetId: tax,
        },
        { description: 'Annual dues', unitPriceCents: 12000, quantity: 1 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const first = res.json();
    // 2 x 50.00 - 10.00 = 90.00, tax 8.25% = 7.43 (rounded once), dues 120.00.
    expect(first).toMatchObject({
      status: 'open',
      totalCents: 9000 + 743 + 12000,
      paidCents: 0,
      balanceCents: 21743,
    });
    expect(first.number).toMatch(/^INV-\d{6}$/);
    const second = await invoice(ada, 1000);
    expect(Number(second.number.slice(4))).toBe(Number(first.number.slice(4)) + 1);

    const detail = (await staff.get(`/api/billing/invoices/${first.invoiceId}`)).json();
    expect(detail).toMatchObject({
      contactName: 'Łukasiewicz, Ada',
      taxCents: 743,
      discountCents: 1000,
      dueDate: '2026-12-02',
    });
    expect(detail.lines.map((l: { totalCents: number }) => l.totalCents)).toEqual([9743, 12000]);

    const tb = await balanced();
    expect(accountOf(tb, 'tax_payable')).toBe(-743 - 0);
  });

  it('another association numbers its invoices from its own counter', async () => {
    const theirs = await makeContact(ctx.database, other.tenant.id, 'Cleo Other');
    const summary = await withTenantTx(ctx.database.db, { tenantId: other.tenant.id }, (tx) =>
      billingApi.createInvoice(tx, ctx.app.services, other.tenant.id, {
        contactId: theirs,
        lines: [{ description: 'Dues', unitPriceCents: 100, quantity: 1 }],
      }),
    );
    expect(summary.number).toBe('INV-000001');
    // Ids are numbered per association: the same id names the first association's own invoice, never this one.
    const seen = await staff.get(`/api/billing/invoices/${summary.invoiceId}`);
    expect(seen.json().contactName).not.toBe('Other, Cleo');
    expect((await staff.get('/api/billing/invoices/999999')).statusCode).toBe(404);
  });

  it('refuses an invoice without lines, for an unknown contact, or with a due date before its date', async () => {
    const none = await staff.post('/api/billing/invoices/issue', { contactId: ada, lines: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('Add at least one line to the invoice.');
    const nobody = await staff.post('/api/billing/invoices/issue', {
      contactId: 999999,
      lines: [{ description: 'x', unitPriceCents: 1, quantity: 1 }],
    });
    expect(nobody.json().message).toBe('We could not find that contact.');
    const early = await staff.post('/api/billing/invoices/issue', {
      contactId: ada,
      issueDate: '2026-11-10',
      dueDate: '2026-11-01',
      lines: [{ description: 'x', unitPriceCents: 1, quantity: 1 }],
    });
    expect(early.json().message).toBe('The due date cannot be before the invoice date.');
    const blank = await staff.post('/api/billing/invoices/issue', {
      contactId: ada,
      lines: [{ description: ' ', unitPriceCents: 1, quantity: 1 }],
    });
    expect(blank.json().errors['lines.0.description']).toEqual(['Enter a description.']);
  });

  it('members cannot reach the back office billing routes', async () => {
    expect((await member.post('/api/billing/invoices/issue', { contactId: ada, lines: [] })).statusCode).toBe(
      403,
    );
  });

  it('the same idempotency key makes one invoice (billingApi, as sellers call it)', async () => {
    const input = {
      contactId: bob,
      lines: [{ description: 'Registration: Spring Conference', unitPriceCents: 25000, quantity: 1 }],
      source: { kind: 'registration', id: 77 },
      idempotencyKey: 'registration-77',
    };
    const a = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      billingApi.createInvoice(tx, ctx.app.services, t.tenant.id, input),
    );
    const b = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      billingApi.createInvoice(tx, ctx.app.services, t.tenant.id, input),
    );
    expect(b).toEqual(a);
    expect(a.source).toEqual({ kind: 'registration', id: 77 });
    const summary = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      billingApi.invoiceSummary(tx, t.tenant.id, a.invoiceId),
    );
    expect(summary).toEqual(a);
  });

  it('a free invoice is paid at once and says so', async () => {
    heard.length = 0;
    const free = await invoice(bob, 0);
    expect(free.status).toBe('paid');
    expect(heard.map((h) => h.name)).toEqual(['invoice.paid']);
  });
});

describe('payments', () => {
  it('a check pays two invoices; each becomes paid and invoice.paid names its source', async () => {
    const a = await invoice(ada, 10000, { idempotencyKey: 'two-a' });
    const b = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      billingApi.createInvoice(tx, ctx.app.services, t.tenant.id, {
        contactId: ada,
        lines: [{ description: 'Membership renewal', unitPriceCents: 5000, quantity: 1 }],
        source: { kind: 'membership', id: 12 },
      }),
    );
    heard.length = 0;
    const res = await staff.post('/api/billing/payments/record', {
      contactId: ada,
      amountCents: 15000,
      method: 'check',
      checkNumber: '1042',
      applications: [
        { invoiceId: a.invoiceId, amountCents: 10000 },
        { invoiceId: b.invoiceId, amountCents: 5000 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      amountCents: 15000,
      appliedCents: 15000,
      unappliedCents: 0,
      status: 'completed',
    });
    expect((await staff.get(`/api/billing/invoices/${a.invoiceId}`)).json().status).toBe('paid');
    expect(heard).toEqual([
      {
        name: 'invoice.paid',
        payload: { invoiceId: a.invoiceId, contactId: ada, sourceKind: null, sourceId: null },
      },
      {
        name: 'invoice.paid',
        payload: { invoiceId: b.invoiceId, contactId: ada, sourceKind: 'membership', sourceId: 12 },
      },
    ]);
    await balanced();
  });

  it('refuses a check without its number, a payment of nothing, and applications beyond the payment', async () => {
    const a = await invoice(ada, 1000);
    const noNumber = await staff.post('/api/billing/payments/record', {
      contactId: ada,
      amountCents: 100,
      method: 'check',
    });
    expect(noNumber.json()).toMatchObject({ message: 'Enter the check number.' });
    const zero = await staff.post('/api/billing/payments/record', {
      contactId: ada,
      amountCents: 0,
      method: 'cash',
    });
    expect(zero.json().message).toBe('The payment amount must be more than zero.');
    const over = await staff.post('/api/billing/payments/record', {
      contactId: ada,
      amountCents: 500,
      method: 'cash',
      applications: [{ invoiceId: a.invoiceId, amountCents: 600 }],
    });
    expect(over.json().message).toBe('The amounts applied ($6.00) are more than the payment ($5.00).');
    const beyond = await staff.post('/api/billing/payments/record', {
      contactId: ada,
      amountCents: 5000,
      method: 'cash',
      applications: [{ invoiceId: a.invoiceId, amountCents: 2000 }],
    });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json().message).toMatch(
      /^Invoice INV-\d{6} owes only \$10\.00; \$20\.00 cannot be applied to it\.$/,
    );
  });

  it('an overpayment stays a credit on the account and is applied later; unapply reopens a paid invoice', async () => {
    const cid = await makeContact(ctx.database, t.tenant.id, 'Cara Credit');
    const first = await invoice(cid, 3000);
    const pay = (
      await staff.post('/api/billing/payments/record', {
        contactId: cid,
        amountCents: 5000,
        method: 'bank_transfer',
        applications: [{ invoiceId: first.invoiceId, amountCents: 3000 }],
      })
    ).json();
    expect(pay.unappliedCents).toBe(2000);
    let account = (await staff.get(`/api/billing/contacts/${cid}/account`)).json();
    expect(account).toMatchObject({
      openBalanceCents: 0,
      availableCreditCents: 2000,
      accountBalanceCents: -2000,
    });

    const second = await invoice(cid, 2500);
    const applied = await staff.post(`/api/billing/payments/${pay.paymentId}/apply`, {
      applications: [{ invoiceId: second.invoiceId, amountCents: 2000 }],
    });
    expect(applied.json().unappliedCents).toBe(0);
    expect((await staff.get(`/api/billing/invoices/${second.invoiceId}`)).json()).toMatchObject({
      status: 'partially_paid',
      balanceCents: 500,
    });
    const again = await staff.post(`/api/billing/payments/${pay.paymentId}/apply`, {
      applications: [{ invoiceId: second.invoiceId, amountCents: 1 }],
    });
    expect(again.json().message).toBe(
      'Only $0.00 of this payment is left to apply; $0.01 cannot be applied.',
    );

    heard.length = 0;
    const firstApplication = applied.json().applications[0].applicationId as number;
    expect((await staff.post(`/api/billing/applications/${firstApplication}/unapply`)).statusCode).toBe(200);
    expect(heard.map((h) => h.name)).toEqual(['invoice.reopened']);
    expect((await staff.get(`/api/billing/invoices/${first.invoiceId}`)).json()).toMatchObject({
      status: 'open',
      balanceCents: 3000,
    });
    const twice = await staff.post(`/api/billing/applications/${firstApplication}/unapply`);
    expect(twice.statusCode).toBe(404);
    account = (await staff.get(`/api/billing/contacts/${cid}/account`)).json();
    expect(account).toMatchObject({
      openBalanceCents: 3500,
      availableCreditCents: 3000,
      accountBalanceCents: 500,
    });
    await balanced();
  });

  it('the same idempotency key twice records one payment', async () => {
    const body = { contactId: bob, amountCents: 700, method: 'cash', idempotencyKey: 'counter-receipt-9' };
    const a = (await staff.post('/api/billing/payments/record', body)).json();
    const b = (await staff.post('/api/billing/payments/record', body)).json();
    expect(b.paymentId).toBe(a.paymentId);
    const account = (await staff.get(`/api/billing/contacts/${bob}/account`)).json();
    expect(account.payments.filter((p: { paymentId: number }) => p.paymentId === a.paymentId)).toHaveLength(
      1,
    );
  });

  it('parallel applications of one payment never apply more than it has', async () => {
    const cid = await makeContact(ctx.database, t.tenant.id, 'Dana Race');
    const invoices = [];
    for (let i = 0; i < 20; i++) invoices.push(await invoice(cid, 1000));
    const pay = (
      await staff.post('/api/billing/payments/record', { contactId: cid, amountCents: 5000, method: 'cash' })
    ).json();
    const results = await Promise.all(
      invoices.map((inv) =>
        staff.post(`/api/billing/payments/${pay.paymentId}/apply`, {
          applications: [{ invoiceId: inv.invoiceId, amountCents: 1000 }],
        }),
      ),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(5);
    expect(results.filter((r) => r.statusCode === 400)).toHaveLength(15);
    const after = (await staff.get(`/api/billing/payments/${pay.paymentId}`)).json();
    expect(after).toMatchObject({ appliedCents: 5000, unappliedCents: 0 });
    expect(after.applications).toHaveLength(5);
    await balanced();
  });
});

describe('refunds, bounced checks, credits, write-offs and voids', () => {
  it('refunds part of a payment, then refuses more than is left, with the refund rule’s message', async () => {
    const cid = await makeContact(ctx.database, t.tenant.id, 'Eve Refund');
    const a = await invoice(cid, 4000);
    const b = await invoice(cid, 6000);
    const pay = (
      await staff.post('/api/billing/payments/record', {
        contactId: cid,
        amountCents: 10000,
        method: 'check',
        checkNumber: '5001',
        applications: [
          { invoiceId: a.invoiceId, amountCents: 4000 },
          { invoiceId: b.invoiceId, amountCents: 6000 },
        ],
      })
    ).json();
    const validated = await staff.post('/api/utils/refund/validate', {
      PaymentId: pay.paymentId,
      Amount: '25.00',
    });
    expect(validated.json()).toMatchObject({ Data: { Valid: true } });
    heard.length = 0;
    const part = await staff.post(`/api/billing/payments/${pay.paymentId}/refund`, {
      amount: '25.00',
      reason: 'Could not attend',
    });
    expect(part.statusCode, part.body).toBe(200);
    expect(part.json()).toMatchObject({ refundedCents: 2500, appliedCents: 4000, unappliedCents: 3500 });
    // The newest application (invoice b) was taken back to free the refund; b owes again.
    expect(heard.map((h) => h.name)).toEqual(['invoice.reopened']);
    expect((await staff.get(`/api/billing/invoices/${b.invoiceId}`)).json()).toMatchObject({
      status: 'open',
      balanceCents: 6000,
    });
    const tooMuch = await staff.post(`/api/billing/payments/${pay.paymentId}/refund`, { amount: '80.00' });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().message).toBe(
      'The refund of $80.00 is more than the $75.00 left to refund on this payment ($100.00 paid, $25.00 already refunded).',
    );
    const checked = await staff.post('/api/utils/refund/validate', {
      PaymentId: pay.paymentId,
      Amount: '80.00',
    });
    expect(checked.json().ErrorMessages).toEqual([tooMuch.json().message]);
    await balanced();
  });

  it('a bounced check reopens the invoices it paid and takes its money back out', async () => {
    const cid = await makeContact(ctx.database, t.tenant.id, 'Finn Bounce');
    const a = await invoice(cid, 3000);
    const pay = (
      await staff.post('/api/billing/payments/record', {
        contactId: cid,
        amountCents: 3000,
        method: 'check',
        checkNumber: '777',
        applications: [{ invoiceId: a.invoiceId, amountCents: 3000 }],
      })
    ).json();
    const before = accountOf(await balanced(), 'undeposited');
    heard.length = 0;
    const res = await staff.post(`/api/billing/payments/${pay.paymentId}/bounce`);
    expect(res.json()).toMatchObject({ status: 'bounced', appliedCents: 0, unappliedCents: 0 });
    expect(heard.map((h) => h.name)).toEqual(['invoice.reopened']);
    expect((await staff.get(`/api/billing/invoices/${a.invoiceId}`)).json().status).toBe('open');
    expect(accountOf(await balanced(), 'undeposited')).toBe(before - 3000);
    expect((await staff.post(`/api/billing/payments/${pay.paymentId}/bounce`)).json().message).toBe(
      'This check is already marked bounced.',
    );
    const cash = (
      await staff.post('/api/billing/payments/record', { contactId: cid, amountCents: 100, method: 'cash' })
    ).json();
    expect((await staff.post(`/api/billing/payments/${cash.paymentId}/bounce`)).json().message).toBe(
      'Only a check can bounce.',
    );
  });

  it('credits: issued through billingApi, a credit note applied to its invoice, then the rest applied elsewhere', async () => {
    const cid = await makeContact(ctx.database, t.tenant.id, 'Gus Credit');
    const a = await invoice(cid, 2000);
    const note = await staff.post(`/api/billing/invoices/${a.invoiceId}/credit-note`, {
      amountCents: 500,
      reason: 'Wrong rate',
    });
    expect(note.json()).toMatchObject({ appliedCents: 500 });
    expect((await staff.get(`/api/billing/invoices/${a.invoiceId}`)).json()).toMatchObject({
      status: 'partially_paid',
      balanceCents: 1500,
    });
    const { creditId } = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      billingApi.issueCredit(tx, ctx.app.services, t.tenant.id, {
        contactId: cid,
        amountCents: 2000,
        reason: 'Downgrade to Associate, prorated',
        source: { kind: 'membership', id: 3 },
      }),
    );
    const apply = await staff.post(`/api/billing/credits/${creditId}/apply`, {
      invoiceId: a.invoiceId,
      amountCents: 1500,
    });
    expect(apply.statusCode, apply.body).toBe(200);
    const account = (await staff.get(`/api/billing/contacts/${cid}/account`)).json();
    expect(account).toMatchObject({ openBalanceCents: 0, availableCreditCents: 500 });
    const refused = await staff.post('/api/billing/credits/issue', {
      contactId: cid,
      amountCents: 0,
      reason: 'x',
    });
    expect(refused.json().message).toBe('The credit amount must be more than zero.');
    await balanced();
  });

  it('write-off closes what is owed; void refuses an invoice with payments and reverses one without', async () => {
    const cid = await makeContact(ctx.database, t.tenant.id, 'Hal Void');
    const a = await invoice(cid, 5000);
    await staff.post('/api/billing/payments/record', {
      contactId: cid,
      amountCents: 1000,
      method: 'cash',
      applications: [{ invoiceId: a.invoiceId, amountCents: 1000 }],
    });
    const off = await staff.post(`/api/billing/invoices/${a.invoiceId}/write-off`, { reason: 'Moved away' });
    expect(off.json()).toMatchObject({ status: 'written_off', balanceCents: 0, paidCents: 1000 });
    expect(
      (await staff.post(`/api/billing/invoices/${a.invoiceId}/void`, { reason: 'x' })).json().message,
    ).toBe('Unapply the payments and credits on this invoice before voiding it.');
    const b = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      billingApi.createInvoice(tx, ctx.app.services, t.tenant.id, {
        contactId: cid,
        lines: [{ description: 'Registration', unitPriceCents: 4000, quantity: 1 }],
        source: { kind: 'registration', id: 5 },
      }),
    );
    heard.length = 0;
    const voided = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      billingApi.voidInvoice(tx, ctx.app.services, t.tenant.id, b.invoiceId, 'Registration cancelled'),
    );
    expect(voided).toMatchObject({ status: 'void', balanceCents: 0 });
    expect(heard).toEqual([
      {
        name: 'invoice.voided',
        payload: { invoiceId: b.invoiceId, contactId: cid, sourceKind: 'registration', sourceId: 5 },
      },
    ]);
    const cash = (
      await staff.post('/api/billing/payments/record', { contactId: cid, amountCents: 100, method: 'cash' })
    ).json();
    const late = await staff.post(`/api/billing/payments/${cash.paymentId}/apply`, {
      applications: [{ invoiceId: b.invoiceId, amountCents: 100 }],
    });
    expect(late.json().message).toMatch(/^Invoice INV-\d{6} does not owe anything \(void\)\.$/);
    await balanced();
  });
});

describe('deposits', () => {
  it('lists undeposited cash and checks, deposits the selected ones, and reverses the deposit', async () => {
    const cid = await makeContact(ctx.database, t.tenant.id, 'Ivy Deposit');
    const one = (
      await staff.post('/api/billing/payments/record', {
        contactId: cid,
        amountCents: 1200,
        method: 'check',
        checkNumber: '11',
      })
    ).json();
    const two = (
      await staff.post('/api/billing/payments/record', { contactId: cid, amountCents: 800, method: 'cash' })
    ).json();
    const wire = (
      await staff.post('/api/billing/payments/record', {
        contactId: cid,
        amountCents: 900,
        method: 'bank_transfer',
      })
    ).json();
    const listed = (await staff.get('/api/billing/deposits/undeposited')).json().Data as {
      PaymentId: number;
      IsSelected: boolean;
    }[];
    const ids = listed.map((p) => p.PaymentId);
    expect(ids).toEqual(expect.arrayContaining([one.paymentId, two.paymentId]));
    expect(ids).not.toContain(wire.paymentId);
    expect(listed.every((p) => p.IsSelected === false)).toBe(true);

    const before = await balanced();
    const dep = await staff.post('/api/billing/deposits/make', {
      paymentIds: [one.paymentId, two.paymentId],
      reference: 'Slip 1',
    });
    expect(dep.json()).toMatchObject({ totalCents: 2000, paymentCount: 2 });
    const after = await balanced();
    expect(accountOf(after, 'bank') - accountOf(before, 'bank')).toBe(2000);
    expect(accountOf(after, 'undeposited') - accountOf(before, 'undeposited')).toBe(-2000);
    const again = await staff.post('/api/billing/deposits/make', { paymentIds: [one.paymentId] });
    expect(again.json().message).toBe(`Payment ${one.paymentId} is already deposited.`);
    const wired = await staff.post('/api/billing/deposits/make', { paymentIds: [wire.paymentId] });
    expect(wired.json().message).toBe(
      `Payment ${wire.paymentId} went straight to the bank; only cash and checks are deposited.`,
    );

    expect((await staff.post(`/api/billing/deposits/${dep.json().depositId}/reverse`)).statusCode).toBe(200);
    expect(accountOf(await balanced(), 'bank')).toBe(accountOf(before, 'bank'));
    const relisted = (await staff.get('/api/billing/deposits/undeposited')).json().Data as {
      PaymentId: number;
    }[];
    expect(relisted.map((p) => p.PaymentId)).toContain(one.paymentId);
  });
});

describe('card charges (billingApi.chargeSavedCard) through the test gateway', () => {
  it('without a gateway the charge fails and payment.failed says why', async () => {
    const cid = await makeContact(ctx.database, other.tenant.id, 'Jo Nocard');
    const result = await withTenantTx(ctx.database.db, { tenantId: other.tenant.id }, async (tx) => {
      const inv = await billingApi.createInvoice(tx, ctx.app.services, other.tenant.id, {
        contactId: cid,
        lines: [{ description: 'Dues', unitPriceCents: 1000, quantity: 1 }],
        source: { kind: 'membership', id: 8 },
      });
      heard.length = 0;
      return billingApi.chargeSavedCard(tx, ctx.app.services, other.tenant.id, {
        invoiceId: inv.invoiceId,
        idempotencyKey: 'autopay-8',
      });
    });
    expect(result).toEqual({ ok: false, message: 'Card payments are not set up for this association.' });
    expect(heard[0]).toMatchObject({
      name: 'payment.failed',
      payload: { sourceKind: 'membership', sourceId: 8 },
    });
  });

  it('charges the card on file once per idempotency key; a declined card publishes payment.failed', async () => {
    const cid = await makeContact(ctx.database, t.tenant.id, 'Kim Card');
    await useTestGateway(ctx.database, t.tenant.id, cid);
    const inv = await invoice(cid, 4500);
    heard.length = 0;
    const charge = () =>
      withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
        billingApi.chargeSavedCard(tx, ctx.app.services, t.tenant.id, {
          invoiceId: inv.invoiceId,
          idempotencyKey: `autopay-${inv.invoiceId}`,
        }),
      );
    const first = await charge();
    expect(first.ok).toBe(true);
    expect(await charge()).toEqual(first);
    expect((await staff.get(`/api/billing/invoices/${inv.invoiceId}`)).json().status).toBe('paid');
    expect(heard.map((h) => h.name)).toEqual(['invoice.paid']);

    const declined = await makeContact(ctx.database, t.tenant.id, 'Lee Declined');
    await useTestGateway(ctx.database, t.tenant.id, declined, 'pm_test_declined');
    const owed = await invoice(declined, 3000);
    heard.length = 0;
    const refused = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      billingApi.chargeSavedCard(tx, ctx.app.services, t.tenant.id, {
        invoiceId: owed.invoiceId,
        idempotencyKey: 'autopay-declined',
      }),
    );
    expect(refused).toEqual({ ok: false, message: 'Your card was declined.' });
    expect(heard).toEqual([
      {
        name: 'payment.failed',
        payload: {
          invoiceId: owed.invoiceId,
          contactId: declined,
          sourceKind: null,
          sourceId: null,
          message: 'Your card was declined.',
        },
      },
    ]);
    await balanced();
  });
});

describe('the generic lists of billing', () => {
  it('list invoices and payments with their contact names, and the ledger accounts made on first use', async () => {
    const inv = await invoice(ada, 4321);
    const list = await staff.post('/api/billing/invoices/invoiceData?$top=200', {});
    expect(list.statusCode, list.body).toBe(200);
    expect(list.body).toContain(inv.number);
    expect(list.body).toContain('Łukasiewicz, Ada');
    const payments = await staff.post('/api/billing/payments/paymentData?$top=5', {});
    expect(payments.statusCode, payments.body).toBe(200);
    const accounts = await staff.post('/api/billing/accounts/accountData?$top=50', {});
    expect(accounts.body).toContain('Accounts receivable');
    expect((await member.post('/api/billing/invoices/invoiceData', {})).statusCode).toBe(403);
  });
});
