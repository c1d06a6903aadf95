/**
 * Card payments (issue 15, decisions 0123 and 0125): a member pays one of their own open invoices by card, through
 * the offline test gateway and through the Stripe adapter, whose real `stripe` SDK is pointed at a local fake of
 * the Stripe API this file starts. Declines answer the gateway's message and record nothing; an accepted charge
 * posts a card payment applied to the invoice and the ledger balances; one idempotency key makes one payment and one
 * PaymentIntent; card refunds go through Stripe; webhooks are checked by signature, handled once per event, and
 * harmless when they arrive twice, late or out of order. Money is in the association's own currency.
 */
import { q, runFragment, withTenantTx } from '@guildhall/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
} from '../../../test/helpers.ts';
import { makeContact, useTestGateway } from './billing.fixtures.ts';
import { chargeCard } from './billing.service.ts';
import { AUTHENTICATION_FAILED, type FakeStripe, startFakeStripe } from './stripe-fake.ts';
import { stripeGateway } from './stripe-gateway.ts';

let ctx: TestContext;
let fake: FakeStripe;
let t: TenantWithUsers;
let s: TenantWithUsers;
let staff: ReturnType<typeof client>;
let member: ReturnType<typeof client>;
let stripeStaff: ReturnType<typeof client>;
let stripeAdmin: ReturnType<typeof client>;
let stripeMember: ReturnType<typeof client>;
let ada: number;
let eve: number;

beforeAll(async () => {
  fake = await startFakeStripe();
  ctx = await testApp({ stripeApiUrl: fake.url });
  t = await seedTenant(ctx.database);
  s = await seedTenant(ctx.database);
  staff = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
  member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
  stripeStaff = client(ctx.app, (await signIn(ctx.app, s.staff)).cookie);
  stripeAdmin = client(ctx.app, (await signIn(ctx.app, s.admin)).cookie);
  stripeMember = client(ctx.app, (await signIn(ctx.app, s.member)).cookie);
  ada = await makeContact(ctx.database, t.tenant.id, 'Ada Lovelace');
  eve = await makeContact(ctx.database, s.tenant.id, 'Ève Żak');
  for (const [tenantId, contactId, userId] of [
    [t.tenant.id, ada, t.member.id],
    [s.tenant.id, eve, s.member.id],
  ] as const) {
    await withTenantTx(ctx.database.db, { tenantId }, (tx) =>
      runFragment(
        tx,
        q`update contacts set user_id = ${userId} where tenant_id = ${tenantId} and contact_id = ${contactId}`,
      ),
    );
  }
  // The Stripe association keeps its books in euros.
  await withTenantTx(ctx.database.db, { tenantId: s.tenant.id }, (tx) =>
    runFragment(
      tx,
      q`update tenants set settings = settings || '{"currency":"EUR"}'::jsonb where id = ${s.tenant.id}`,
    ),
  );
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await fake?.close();
});

type Account = {
  currency: string;
  cardGateway: { name: string; publishableKey: string | null } | null;
  invoices: { invoiceId: number; status: string; balanceCents: number }[];
  payments: { paymentId: number; method: string | null; amountCents: number }[];
};

async function issue(as: ReturnType<typeof client>, contactId: number, cents: number) {
  const res = await as.post('/api/billing/invoices/issue', {
    contactId,
    lines: [{ description: 'Annual dues', unitPriceCents: cents, quantity: 1 }],
    issueDate: '2026-11-01',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { invoiceId: number; number: string };
}

async function balanced(as: ReturnType<typeof client>) {
  const tb = (await as.get('/api/billing/ledger/trial-balance')).json() as {
    debits: number;
    credits: number;
  };
  expect(tb.debits).toBeGreaterThan(0);
  expect(tb.debits).toBe(tb.credits);
}

async function paymentsOf(tenantId: string, invoiceId: number) {
  return withTenantTx(ctx.database.db, { tenantId }, (tx) =>
    runFragment<{ id: unknown; gateway_ref: unknown; amount_cents: unknown }>(
      tx,
      q`select p.id, p.gateway_ref, p.amount_cents from payments p
        join invoice_applications a on a.tenant_id = p.tenant_id and a.payment_id = p.id
        where p.tenant_id = ${tenantId} and a.invoice_id = ${invoiceId} and not a.is_reversed`,
    ),
  );
}

describe('the offline test gateway', () => {
  it('hides card payment until the association has a gateway', async () => {
    const account = (await member.get('/api/billing/member/account')).json() as Account;
    expect(account.cardGateway).toBeNull();
    expect(account.currency).toBe('USD');
    const inv = await issue(staff, ada, 4000);
    const res = await member.post(`/api/billing/member/invoices/${inv.invoiceId}/pay`, {
      methodRef: 'pm_test_visa',
      idempotencyKey: 'no-gateway-1',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Card payments are not set up for this association.');
  });

  it('a member pays their open invoice: a decline says why and records nothing; the same key pays once', async () => {
    await useTestGateway(ctx.database, t.tenant.id);
    const account = (await member.get('/api/billing/member/account')).json() as Account;
    expect(account.cardGateway).toEqual({ name: 'test', publishableKey: null });
    const inv = await issue(staff, ada, 12_500);
    const detail = await member.get(`/api/billing/member/invoices/${inv.invoiceId}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().lines[0].description).toBe('Annual dues');

    const declined = await member.post(`/api/billing/member/invoices/${inv.invoiceId}/pay`, {
      methodRef: 'pm_test_declined',
      idempotencyKey: 'test-decline-1',
    });
    expect(declined.json()).toEqual({ ok: false, message: 'Your card was declined.' });
    expect(await paymentsOf(t.tenant.id, inv.invoiceId)).toHaveLength(0);

    const pay = () =>
      member.post(`/api/billing/member/invoices/${inv.invoiceId}/pay`, {
        methodRef: 'pm_test_visa',
        idempotencyKey: 'test-pay-1',
      });
    const [a, b] = await Promise.all([pay(), pay()]);
    expect(a.json().ok).toBe(true);
    expect(b.json()).toEqual(a.json());
    expect(await paymentsOf(t.tenant.id, inv.invoiceId)).toHaveLength(1);
    const after = (await member.get('/api/billing/member/account')).json() as Account;
    expect(after.invoices.find((i) => i.invoiceId === inv.invoiceId)).toMatchObject({
      status: 'paid',
      balanceCents: 0,
    });
    expect(after.payments[0]).toMatchObject({ method: 'card', amountCents: 12_500 });
    await balanced(staff);
  });

  it("another member's invoice is not found, and staff cannot use the member's route", async () => {
    const bob = await makeContact(ctx.database, t.tenant.id, 'Bob Brown');
    const inv = await issue(staff, bob, 3000);
    const res = await member.post(`/api/billing/member/invoices/${inv.invoiceId}/pay`, {
      methodRef: 'pm_test_visa',
      idempotencyKey: 'not-mine-1',
    });
    expect(res.statusCode).toBe(404);
    expect((await member.get(`/api/billing/member/invoices/${inv.invoiceId}`)).statusCode).toBe(404);
    expect((await staff.get('/api/billing/member/account')).statusCode).toBe(403);
  });
});

describe('Stripe through the SDK, against the local fake Stripe API', () => {
  it('staff set Stripe up; the keys are never read back; a member sees only the publishable key', async () => {
    const refused = await stripeAdmin.put('/api/billing/settings/gateway', {
      gateway: 'stripe',
      stripeSecretKey: 'nope',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors.stripeSecretKey).toEqual(['Enter the secret key (it starts with sk_).']);
    expect((await stripeStaff.put('/api/billing/settings/gateway', { gateway: 'test' })).statusCode).toBe(
      403,
    );
    const res = await stripeAdmin.put('/api/billing/settings/gateway', {
      gateway: 'stripe',
      stripeSecretKey: fake.secretKey,
      stripePublishableKey: 'pk_test_fake',
      stripeWebhookSecret: fake.webhookSecret,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      gateway: 'stripe',
      stripeSecretKeySet: true,
      stripePublishableKey: 'pk_test_fake',
      stripeWebhookSecretSet: true,
    });
    expect(res.body).not.toContain(fake.secretKey);
    expect((await stripeAdmin.get('/api/billing/settings/gateway')).body).not.toContain(fake.secretKey);
    // A test secret key with a live publishable key is refused; the keys saved before stay.
    const mixed = await stripeAdmin.put('/api/billing/settings/gateway', {
      gateway: 'stripe',
      stripePublishableKey: 'pk_live_fake',
    });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().errors.stripePublishableKey).toEqual([
      'The publishable key and the secret key must be of the same mode (both test or both live).',
    ]);
    // A secret left out keeps the one set (the settings screen sends only what was typed).
    const kept = await stripeAdmin.put('/api/billing/settings/gateway', {
      gateway: 'stripe',
      stripePublishableKey: 'pk_test_fake',
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toMatchObject({ stripeSecretKeySet: true, stripeWebhookSecretSet: true });
    const account = (await stripeMember.get('/api/billing/member/account')).json() as Account;
    expect(account.cardGateway).toEqual({ name: 'stripe', publishableKey: 'pk_test_fake' });
    expect(account.currency).toBe('EUR');
    expect(JSON.stringify(account)).not.toContain(fake.secretKey);
  });

  it('a declined card shows Stripe’s message; an accepted one is a PaymentIntent in euros, posted balanced', async () => {
    const inv = await issue(stripeStaff, eve, 8_000);
    const declined = await stripeMember.post(`/api/billing/member/invoices/${inv.invoiceId}/pay`, {
      methodRef: 'pm_card_chargeDeclinedInsufficientFunds',
      idempotencyKey: 'stripe-decline-1',
    });
    expect(declined.json()).toEqual({ ok: false, message: 'Your card has insufficient funds.' });
    expect(await paymentsOf(s.tenant.id, inv.invoiceId)).toHaveLength(0);

    const before = fake.intents.size;
    const paid = await stripeMember.post(`/api/billing/member/invoices/${inv.invoiceId}/pay`, {
      methodRef: 'pm_card_visa',
      idempotencyKey: 'stripe-pay-1',
    });
    expect(paid.json().ok, paid.body).toBe(true);
    expect(fake.intents.size).toBe(before + 1);
    const intent = [...fake.intents.values()].at(-1) as Record<string, unknown>;
    expect(intent).toMatchObject({ amount: 8000, currency: 'eur', status: 'succeeded' });
    expect(intent.metadata).toMatchObject({ tenantId: s.tenant.id, invoiceId: String(inv.invoiceId) });
    // Our idempotency key went to Stripe with the request.
    expect(fake.requests.at(-1)?.idempotencyKey).toBe(`member:${s.member.id}:stripe-pay-1`);
    const payments = await paymentsOf(s.tenant.id, inv.invoiceId);
    expect(payments).toHaveLength(1);
    expect(payments[0]?.gateway_ref).toBe(intent.id);

    // The same key again: the same payment, and no second PaymentIntent.
    const again = await stripeMember.post(`/api/billing/member/invoices/${inv.invoiceId}/pay`, {
      methodRef: 'pm_card_visa',
      idempotencyKey: 'stripe-pay-1',
    });
    expect(again.json()).toEqual(paid.json());
    expect(fake.intents.size).toBe(before + 1);
    await balanced(stripeStaff);
  });

  it('3-D Secure: the bank asks the member to confirm; once confirmed the payment is finished from Stripe’s state, once', async () => {
    const inv = await issue(stripeStaff, eve, 7_000);
    const asked = await stripeMember.post(`/api/billing/member/invoices/${inv.invoiceId}/pay`, {
      methodRef: 'pm_card_authenticationRequired',
      idempotencyKey: 'stripe-3ds-ok',
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const answer = asked.json() as { ok: boolean; action: { paymentRef: string; clientSecret: string } };
    expect(answer).toMatchObject({ ok: false, message: 'Your bank asks you to confirm this payment.' });
    const intent = fake.intents.get(answer.action.paymentRef) as Record<string, unknown>;
    expect(intent.status).toBe('requires_action');
    expect(answer.action.clientSecret).toBe(intent.client_secret);
    expect(await paymentsOf(s.tenant.id, inv.invoiceId)).toHaveLength(0);

    const finish = (paymentRef: string, idempotencyKey = 'stripe-3ds-ok', invoiceId = inv.invoiceId) =>
      stripeMember.post(`/api/billing/member/invoices/${invoiceId}/pay/finish`, {
        paymentRef,
        idempotencyKey,
      });
    // Before the member confirms: nothing is recorded, and the browser's word would not be enough.
    expect((await finish(answer.action.paymentRef)).json()).toEqual({
      ok: false,
      message: 'The payment is not confirmed yet.',
    });
    // Only the charge made for this invoice under this key finishes it.
    expect((await finish(answer.action.paymentRef, 'another-key-1')).statusCode).toBe(404);
    expect((await finish('pi_unknown0001')).statusCode).toBe(404);
    const other = await issue(stripeStaff, eve, 7_000);
    expect((await finish(answer.action.paymentRef, 'stripe-3ds-ok', other.invoiceId)).statusCode).toBe(404);

    fake.authenticate(answer.action.paymentRef, 'complete');
    const [a, b] = await Promise.all([finish(answer.action.paymentRef), finish(answer.action.paymentRef)]);
    expect(a.json()).toMatchObject({ ok: true, paymentId: expect.any(Number) });
    expect(b.json()).toEqual(a.json());
    // Stripe's webhook about it, after: already recorded.
    const event = fake.signedEvent('payment_intent.succeeded', intent);
    const hook = await ctx.app.inject({
      method: 'POST',
      url: `/api/billing/webhooks/stripe/${s.tenant.id}`,
      headers: { 'content-type': 'application/json', 'stripe-signature': event.signature },
      payload: event.payload,
    });
    expect(hook.json().handled).toBe('already recorded');
    const payments = await paymentsOf(s.tenant.id, inv.invoiceId);
    expect(payments).toHaveLength(1);
    expect(payments[0]?.gateway_ref).toBe(answer.action.paymentRef);
    expect(Number(payments[0]?.amount_cents)).toBe(7_000);
    const account = (await stripeMember.get('/api/billing/member/account')).json() as Account;
    expect(account.invoices.find((i) => i.invoiceId === inv.invoiceId)?.status).toBe('paid');
    await balanced(stripeStaff);
  });

  it('3-D Secure failed: the member reads Stripe’s reason, nothing is recorded, another card pays', async () => {
    const inv = await issue(stripeStaff, eve, 4_500);
    const asked = (
      await stripeMember.post(`/api/billing/member/invoices/${inv.invoiceId}/pay`, {
        methodRef: 'pm_card_authenticationRequired',
        idempotencyKey: 'stripe-3ds-fail',
      })
    ).json() as { action: { paymentRef: string } };
    fake.authenticate(asked.action.paymentRef, 'fail');
    const finished = await stripeMember.post(`/api/billing/member/invoices/${inv.invoiceId}/pay/finish`, {
      paymentRef: asked.action.paymentRef,
      idempotencyKey: 'stripe-3ds-fail',
    });
    expect(finished.json()).toEqual({ ok: false, message: AUTHENTICATION_FAILED });
    expect(await paymentsOf(s.tenant.id, inv.invoiceId)).toHaveLength(0);
    const again = await stripeMember.post(`/api/billing/member/invoices/${inv.invoiceId}/pay`, {
      methodRef: 'pm_card_visa',
      idempotencyKey: 'stripe-3ds-fail-then-visa',
    });
    expect(again.json()).toMatchObject({ ok: true });
    expect(await paymentsOf(s.tenant.id, inv.invoiceId)).toHaveLength(1);

    // Without the cardholder (a charge the association makes), a card that asks is refused, not left waiting.
    const later = await issue(stripeStaff, eve, 2_000);
    const offSession = await withTenantTx(ctx.database.db, { tenantId: s.tenant.id }, (tx) =>
      chargeCard(tx, ctx.app.services, s.tenant.id, {
        invoiceId: later.invoiceId,
        methodRef: 'pm_card_authenticationRequired',
        idempotencyKey: 'stripe-3ds-off-session',
      }),
    );
    expect(offSession).toEqual({ ok: false, message: 'Your bank asks you to confirm this payment.' });
    await balanced(stripeStaff);
  });

  it('Stripe itself answers one PaymentIntent for one key, and refuses the key with other parameters', async () => {
    const gateway = stripeGateway({ secretKey: fake.secretKey, apiUrl: fake.url });
    const request = {
      amountCents: 1500,
      currency: 'eur',
      methodRef: 'pm_card_visa',
      customerRef: null,
      idempotencyKey: 'direct-key-1',
      description: 'Twice',
    };
    const a = await gateway.charge(request);
    const b = await gateway.charge(request);
    expect(a).toEqual(b);
    await expect(gateway.charge({ ...request, amountCents: 1600 })).rejects.toThrow(/same parameters/);
    const wrongKey = stripeGateway({ secretKey: 'sk_test_wrong', apiUrl: fake.url });
    await expect(wrongKey.charge({ ...request, idempotencyKey: 'direct-key-2' })).rejects.toThrow(
      /Invalid API Key/,
    );
  });

  it('a card payment is refunded through Stripe, within what was paid', async () => {
    const inv = await issue(stripeStaff, eve, 6_000);
    const paid = await stripeMember.post(`/api/billing/member/invoices/${inv.invoiceId}/pay`, {
      methodRef: 'pm_card_visa',
      idempotencyKey: 'stripe-pay-refund',
    });
    const paymentId = paid.json().paymentId as number;
    const refund = await stripeStaff.post(`/api/billing/payments/${paymentId}/refund`, {
      amount: '25.00',
      reason: 'Partial refund',
    });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(refund.json().refundedCents).toBe(2500);
    const stripeRefund = [...fake.refunds.values()].at(-1) as Record<string, unknown>;
    const [payment] = await paymentsOf(s.tenant.id, inv.invoiceId).then((rows) => rows);
    expect(stripeRefund).toMatchObject({ amount: 2500, status: 'succeeded' });
    // The refund took its application back from the invoice, which owes again (decision 0122).
    expect(payment).toBeUndefined();
    const tooMuch = await stripeStaff.post(`/api/billing/payments/${paymentId}/refund`, { amount: '40.00' });
    expect(tooMuch.statusCode).toBe(400);
    await balanced(stripeStaff);
  });

  it('webhooks: refused without a good signature, handled once, harmless late or out of order', async () => {
    const post = (payload: string, signature: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/billing/webhooks/stripe/${s.tenant.id}`,
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        payload,
      });
    // A PaymentIntent that succeeded at Stripe while the member's page was gone: only its webhook tells us.
    const inv = await issue(stripeStaff, eve, 9_900);
    const gateway = stripeGateway({ secretKey: fake.secretKey, apiUrl: fake.url });
    const charged = await gateway.charge({
      amountCents: 9900,
      currency: 'eur',
      methodRef: 'pm_card_visa',
      customerRef: null,
      idempotencyKey: 'closed-page-1',
      description: 'Invoice',
      metadata: { tenantId: s.tenant.id, invoiceId: String(inv.invoiceId), idempotencyKey: 'closed-page-1' },
    });
    if (!charged.ok) throw new Error('the fake refused the charge');
    const intent = fake.intents.get(charged.ref) as Record<string, unknown>;
    const succeeded = fake.signedEvent('payment_intent.succeeded', intent);

    const forged = await post(
      succeeded.payload,
      succeeded.signature.replace(/v1=(\w)/, (_, c: string) => `v1=${c === '0' ? '1' : '0'}`),
    );
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toBe('The webhook signature does not match.');
    expect((await post(succeeded.payload, '')).statusCode).toBe(400);
    const otherTenant = await ctx.app.inject({
      method: 'POST',
      url: `/api/billing/webhooks/stripe/${t.tenant.id}`,
      headers: { 'content-type': 'application/json', 'stripe-signature': succeeded.signature },
      payload: succeeded.payload,
    });
    expect(otherTenant.statusCode).toBe(404);

    // Delivered twice at once, then again: one payment.
    const [first, second] = await Promise.all([
      post(succeeded.payload, succeeded.signature),
      post(succeeded.payload, succeeded.signature),
    ]);
    const answers = [first.json(), second.json()].map((a) => a.handled).sort();
    expect(answers).toEqual(['duplicate', 'payment recorded']);
    expect((await post(succeeded.payload, succeeded.signature)).json()).toMatchObject({ duplicate: true });
    const payments = await paymentsOf(s.tenant.id, inv.invoiceId);
    expect(payments).toHaveLength(1);
    expect(payments[0]?.gateway_ref).toBe(charged.ref);

    // Out of order: the PaymentIntent's earlier events arrive after it succeeded, and change nothing.
    const created = fake.signedEvent('payment_intent.created', {
      ...intent,
      status: 'requires_payment_method',
    });
    const failed = fake.signedEvent('payment_intent.payment_failed', {
      ...intent,
      status: 'requires_payment_method',
    });
    expect((await post(created.payload, created.signature)).json().handled).toBe('kept');
    expect((await post(failed.payload, failed.signature)).json().handled).toBe('kept');
    // A second event id about the same PaymentIntent (Stripe retries with new ids too): already recorded.
    const retried = fake.signedEvent('payment_intent.succeeded', intent);
    expect((await post(retried.payload, retried.signature)).json().handled).toBe('already recorded');
    expect(await paymentsOf(s.tenant.id, inv.invoiceId)).toHaveLength(1);
    const account = (await stripeMember.get('/api/billing/member/account')).json() as Account;
    expect(account.invoices.find((i) => i.invoiceId === inv.invoiceId)?.status).toBe('paid');

    // The synchronous payment's own webhook, arriving after it: already recorded.
    const syncIntent = [...fake.intents.values()].find(
      (i) => (i.metadata as Record<string, string>)?.idempotencyKey === `member:${s.member.id}:stripe-pay-1`,
    ) as Record<string, unknown>;
    const late = fake.signedEvent('payment_intent.succeeded', syncIntent);
    expect((await post(late.payload, late.signature)).json().handled).toBe('already recorded');
    await balanced(stripeStaff);
  });

  it("money messages use the association's currency", async () => {
    const inv = await issue(stripeStaff, eve, 1_000);
    const res = await stripeStaff.post('/api/billing/payments/record', {
      contactId: eve,
      amountCents: 500,
      method: 'cash',
      applications: [{ invoiceId: inv.invoiceId, amountCents: 900 }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('The amounts applied (€9.00) are more than the payment (€5.00).');
  });
});
