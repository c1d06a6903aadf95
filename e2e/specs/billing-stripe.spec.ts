/**
 * Card payments with Stripe, as far as a machine without js.stripe.com can take them: staff set Stripe up on the
 * Card payments screen (a wrong key refused with why; the secrets never shown again, only "Set"), then a member pays
 * an invoice in Stripe's card element, a declined card first. The browser gets a stand-in of Stripe.js served at
 * js.stripe.com's own address (its card element is a plain input; `createPaymentMethod` answers Stripe's test
 * payment methods for Stripe's test card numbers); the server's Stripe adapter talks to the local fake of Stripe's
 * API. What the stand-in cannot show is the real Stripe.js: its iframe and its own checks of the card.
 */
import { mkdirSync } from 'node:fs';
import { q, runFragment, withTenantTx } from '@guildhall/db';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { makeContact } from '../../packages/server/src/features/billing/billing.fixtures.ts';
import {
  AUTHENTICATION_FAILED,
  startFakeStripe,
} from '../../packages/server/src/features/billing/stripe-fake.ts';
import { signedInAdmin, signInAs } from '../pages/sign-in.ts';
import { bootForFile, forFile } from '../support/suite.ts';

/** Stripe.js as far as our card form uses it, served in place of https://js.stripe.com/<train>/stripe.js. */
const STRIPE_JS_STAND_IN = `(() => {
  const TEST_CARDS = {
    '4242424242424242': 'pm_card_visa',
    '4000000000000002': 'pm_card_chargeDeclined',
    '4000002760003184': 'pm_card_authenticationRequired',
  };
  const API = 'https://api.stripe.com/v1/payment_intents/';
  const form = (fields) => new URLSearchParams(fields).toString();
  async function call(method, url, fields) {
    const res = await fetch(method === 'GET' ? url + '?' + form(fields) : url, {
      method,
      ...(method === 'GET' ? {} : { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: form(fields) }),
    });
    return res.json();
  }
  // The bank's check as Stripe's test page shows it: "Complete" or "Fail".
  function bankCheck() {
    return new Promise((resolve) => {
      const dialog = document.createElement('div');
      dialog.setAttribute('role', 'dialog');
      dialog.setAttribute('aria-label', 'Confirm your payment (3D Secure test page)');
      dialog.style.cssText = 'position:fixed;inset:30% 30%;background:#fff;border:1px solid #000;padding:20px;z-index:99999';
      for (const [label, outcome] of [['Complete', 'complete'], ['Fail', 'fail']]) {
        const button = document.createElement('button');
        button.textContent = label;
        button.addEventListener('click', () => { dialog.remove(); resolve(outcome); });
        dialog.appendChild(button);
      }
      document.body.appendChild(dialog);
    });
  }
  function Stripe(key) {
    if (!/^pk_/.test(key)) throw new Error('Invalid publishable key: ' + key);
    window.__stripeKey = key;
    const created = {};
    let input = null;
    return {
      elements() {
        return {
          create(type) {
            const handlers = {};
            const emit = (name, event) => (handlers[name] || []).forEach((h) => h(event));
            const element = {
              mount(node) {
                const target = typeof node === 'string' ? document.querySelector(node) : node;
                input = document.createElement('input');
                input.setAttribute('aria-label', 'Card number, expiry and code (Stripe)');
                input.addEventListener('input', () => {
                  const digits = input.value.replace(/\\D/g, '');
                  emit('change', { elementType: type, empty: digits === '', complete: digits.length === 16 });
                });
                target.appendChild(input);
                setTimeout(() => emit('ready', { elementType: type }));
              },
              on(name, handler) { (handlers[name] = handlers[name] || []).push(handler); return element; },
              off(name, handler) { handlers[name] = (handlers[name] || []).filter((h) => h !== handler); return element; },
              update() {},
              unmount() {},
              destroy() { if (input) input.remove(); },
            };
            created[type] = element;
            return element;
          },
          getElement(component) { return created[(component && component.__elementType) || component] || null; },
          update() {},
        };
      },
      async createPaymentMethod(request) {
        if (!request || request.type !== 'card' || !request.card) throw new Error('createPaymentMethod without a card');
        const id = TEST_CARDS[(input ? input.value : '').replace(/\\D/g, '')];
        return id
          ? { paymentMethod: { id, type: 'card', card: { brand: 'visa' } } }
          : { error: { type: 'validation_error', message: 'Your card number is invalid.' } };
      },
      async handleNextAction({ clientSecret }) {
        const id = String(clientSecret).split('_secret_')[0];
        const before = await call('GET', API + id, { key, client_secret: clientSecret });
        if (before.error) return { error: before.error };
        if (before.status !== 'requires_action') return { paymentIntent: before };
        window.__nextActions = (window.__nextActions || 0) + 1;
        const outcome = await bankCheck();
        const after = await call('POST', API + id + '/test_authenticate', { key, client_secret: clientSecret, outcome });
        if (after.error) return { error: after.error };
        return after.last_payment_error ? { error: after.last_payment_error, paymentIntent: after } : { paymentIntent: after };
      },
      async createToken() { return { error: { message: 'Not in the stand-in.' } }; },
      async confirmCardPayment() { return { error: { message: 'Not in the stand-in.' } }; },
    };
  }
  Stripe.version = 'endive';
  window.Stripe = Stripe;
})();`;

/** `BILLING_SHOTS=<folder>`: screenshots of the screens for a look. */
const SHOTS = process.env.BILLING_SHOTS ?? '';
async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

const fake = forFile(() => startFakeStripe());
const run = bootForFile(() => ({ stripeApiUrl: fake.url }));

describe('card payments with Stripe', () => {
  it('staff set Stripe up; a member pays in Stripe’s card element; no card number reaches the server', async () => {
    const { t, page: admin } = await signedInAdmin(run, { width: 1280, height: 900 });

    // The setup screen: Stripe and its keys, a wrong one refused with why, the secrets shown only as "Set".
    await admin.goto('/a/billing/settings/gateway');
    await admin.getByRole('heading', { name: 'Card payments' }).waitFor();
    expect(await admin.getByRole('radio', { name: 'No card payments' }).isChecked()).toBe(true);
    await admin.getByRole('radio', { name: 'Stripe' }).check();
    await admin.getByLabel('Publishable key').fill('pk_test_standin');
    await admin.getByLabel(/^Secret key/).fill('nope');
    await admin.getByLabel(/^Webhook signing secret/).fill(fake.webhookSecret);
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.getByText('Enter the secret key (it starts with sk_).').waitFor();
    await admin.getByLabel(/^Secret key/).fill(fake.secretKey);
    await admin.getByLabel(/^Webhook signing secret/).fill(fake.webhookSecret);
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.getByText('Card payments saved.').waitFor();
    await admin.reload();
    await admin.getByLabel('Publishable key').waitFor();
    expect(await admin.getByLabel('Publishable key').inputValue()).toBe('pk_test_standin');
    expect(await admin.getByLabel(/^Secret key/).inputValue()).toBe('');
    expect(await admin.getByText('Set', { exact: true }).count()).toBe(2);
    expect(await admin.content()).not.toContain(fake.secretKey);
    expect(await admin.content()).not.toContain(fake.webhookSecret);
    expect(await admin.getByTestId('stripe-webhook-url').textContent()).toBe(
      `${run.baseUrl}/api/billing/webhooks/stripe/${t.tenant.id}`,
    );
    await shot(admin, 'card-payments-setup');

    // A member's invoice.
    const contactId = await makeContact(run.database, t.tenant.id, 'Zofia Wróbel');
    await withTenantTx(run.database.db, { tenantId: t.tenant.id }, (tx) =>
      runFragment(
        tx,
        q`update contacts set user_id = ${t.member.id} where tenant_id = ${t.tenant.id} and contact_id = ${contactId}`,
      ),
    );
    const res = await admin.request.post('/api/billing/invoices/issue', {
      data: {
        contactId,
        lines: [{ description: 'Annual membership dues', unitPriceCents: 12_500, quantity: 1 }],
      },
    });
    expect(res.ok(), await res.text()).toBe(true);
    const invoice = (await res.json()) as { invoiceId: number; number: string };

    const { page, context } = await run.newPage({ width: 1280, height: 900 });
    // Stripe.js's own calls to Stripe's API go to the local fake.
    await context.route('https://api.stripe.com/**', async (route) => {
      const url = new URL(route.request().url());
      const response = await route.fetch({ url: `${fake.url}${url.pathname}${url.search}` });
      await route.fulfill({ response });
    });
    let stripeJsLoads = 0;
    await context.route('https://js.stripe.com/**', (route) => {
      stripeJsLoads += 1;
      return route.fulfill({ contentType: 'text/javascript', body: STRIPE_JS_STAND_IN });
    });
    const sentToUs: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(run.baseUrl))
        sentToUs.push(`${request.url()} ${request.postData() ?? ''}`);
    });
    await signInAs(page, t.member.username, t.member.password);
    await page.waitForURL(/\/m\/?$/);
    await page.goto('/m/invoices');
    await page.getByRole('table', { name: 'Your invoices' }).waitFor();
    // Stripe.js is loaded only on the screen that pays.
    expect(stripeJsLoads).toBe(0);
    await page.goto(`/m/invoices/${invoice.invoiceId}`);
    const form = page.getByRole('region', { name: 'Pay $125.00 by card' });
    const card = form.getByLabel('Card number, expiry and code (Stripe)');
    await card.waitFor();
    expect(stripeJsLoads).toBe(1);
    expect(await page.evaluate(() => (globalThis as unknown as { __stripeKey: string }).__stripeKey)).toBe(
      'pk_test_standin',
    );

    await shot(page, 'member-pays-with-stripe');
    await card.fill('4000 0000 0000 0002');
    await form.getByRole('button', { name: 'Pay $125.00' }).click();
    expect(await page.getByRole('alert').filter({ hasText: 'Payment refused' }).textContent()).toContain(
      'Your card was declined.',
    );
    await card.fill('4242 4242 4242 4242');
    await form.getByRole('button', { name: 'Pay $125.00' }).click();
    await page.getByTestId('invoice-status').filter({ hasText: 'Paid' }).waitFor();
    expect(await page.getByRole('table', { name: 'Invoice totals' }).textContent()).toContain(
      'Balance due$0.00',
    );

    // Our server got Stripe's payment methods, never the card's digits; Stripe's API got the PaymentIntents.
    const pays = sentToUs.filter((s) => s.includes(`/api/billing/member/invoices/${invoice.invoiceId}/pay`));
    expect(pays.map((s) => JSON.parse(s.slice(s.indexOf(' ') + 1)).methodRef)).toEqual([
      'pm_card_chargeDeclined',
      'pm_card_visa',
    ]);
    expect(sentToUs.some((s) => /4242\D?4242|4000\D?0000\D?0000\D?0002/.test(s))).toBe(false);
    const succeeded = [...fake.intents.values()].filter((i) => i.status === 'succeeded');
    expect(succeeded).toHaveLength(1);
    expect(succeeded[0]?.amount).toBe(12_500);

    // A card whose bank asks the cardholder to confirm (3-D Secure): Stripe.js shows the bank's check; failed, the
    // member reads Stripe's reason and nothing is paid; completed, the invoice is paid once.
    const second = await admin.request.post('/api/billing/invoices/issue', {
      data: { contactId, lines: [{ description: 'Conference seat', unitPriceCents: 8_000, quantity: 1 }] },
    });
    expect(second.ok(), await second.text()).toBe(true);
    const seat = (await second.json()) as { invoiceId: number };
    await page.goto(`/m/invoices/${seat.invoiceId}`);
    const seatForm = page.getByRole('region', { name: 'Pay $80.00 by card' });
    const seatCard = seatForm.getByLabel('Card number, expiry and code (Stripe)');
    await seatCard.fill('4000 0027 6000 3184');
    await seatForm.getByRole('button', { name: 'Pay $80.00' }).click();
    const bank = page.getByRole('dialog', { name: /Confirm your payment/ });
    await bank.getByRole('button', { name: 'Fail' }).click();
    expect(await page.getByRole('alert').filter({ hasText: 'Payment refused' }).textContent()).toContain(
      AUTHENTICATION_FAILED,
    );
    expect(await page.getByTestId('invoice-status').textContent()).not.toContain('Paid');
    await seatCard.fill('4000 0027 6000 3184');
    await seatForm.getByRole('button', { name: 'Pay $80.00' }).click();
    await shot(page, 'member-confirms-with-bank');
    await bank.getByRole('button', { name: 'Complete' }).click();
    await page.getByTestId('invoice-status').filter({ hasText: 'Paid' }).waitFor();
    expect(
      await page.evaluate(() => (globalThis as unknown as { __nextActions: number }).__nextActions),
    ).toBe(2);
    const seatIntents = [...fake.intents.values()].filter((i) => i.amount === 8_000);
    expect(seatIntents.map((i) => i.status).sort()).toEqual(['requires_payment_method', 'succeeded']);
    const finishes = sentToUs.filter((s) =>
      s.includes(`/api/billing/member/invoices/${seat.invoiceId}/pay/finish`),
    );
    expect(finishes).toHaveLength(2);
    expect(sentToUs.some((s) => /4000\D?0027\D?6000\D?3184/.test(s))).toBe(false);
  });
});
