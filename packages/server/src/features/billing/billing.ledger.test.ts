/**
 * The ledger balances after any sequence of operations (issue 15's bar): fast-check runs random sequences of
 * invoice, pay, apply, unapply, refund, credit, write-off, void, deposit and bounce through the billing service
 * (each in its own transaction, refusals rolled back as a request's would be) and then checks, in SQL:
 * debits equal credits (in every entry and overall), every invoice's balance is its total minus its live
 * applications and write-offs and never negative, refunds never exceed what was paid, and the receivable,
 * customer-credit and undeposited-funds accounts equal what the invoices and payments say they hold.
 */
import { q, runFragment, withTenantTx } from '@guildhall/db';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenant, type TenantWithUsers, type TestContext, testApp } from '../../../test/helpers.ts';
import { HttpError } from '../../platform/errors.ts';
import { makeContact } from './billing.fixtures.ts';
import * as service from './billing.service.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let contacts: number[];

beforeAll(async () => {
  ctx = await testApp({}, 2);
  t = await seedTenant(ctx.database);
  contacts = [
    await makeContact(ctx.database, t.tenant.id, 'Ann Ledger'),
    await makeContact(ctx.database, t.tenant.id, 'Ben Ledger'),
  ];
});
afterAll(() => ctx.close());

const pick = fc.nat({ max: 1000 });
const amount = fc.integer({ min: 1, max: 20_000 });
const op = fc.oneof(
  fc.record({
    kind: fc.constant('invoice' as const),
    who: fc.nat({ max: 1 }),
    cents: fc.integer({ min: 0, max: 20_000 }),
    qty: fc.integer({ min: 1, max: 3 }),
  }),
  fc.record({
    kind: fc.constant('pay' as const),
    who: fc.nat({ max: 1 }),
    cents: amount,
    method: fc.constantFrom('cash', 'check', 'bank_transfer') as fc.Arbitrary<
      'cash' | 'check' | 'bank_transfer'
    >,
    invoice: pick,
    applyCents: fc.integer({ min: 0, max: 20_000 }),
  }),
  fc.record({ kind: fc.constant('apply' as const), payment: pick, invoice: pick, cents: amount }),
  fc.record({ kind: fc.constant('unapply' as const), application: pick }),
  fc.record({ kind: fc.constant('refund' as const), payment: pick, cents: amount }),
  fc.record({ kind: fc.constant('credit' as const), who: fc.nat({ max: 1 }), cents: amount, invoice: pick }),
  fc.record({ kind: fc.constant('writeOff' as const), invoice: pick }),
  fc.record({ kind: fc.constant('void' as const), invoice: pick }),
  fc.record({
    kind: fc.constant('deposit' as const),
    payments: fc.array(pick, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ kind: fc.constant('reverseDeposit' as const), deposit: pick }),
  fc.record({ kind: fc.constant('bounce' as const), payment: pick }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

interface Made {
  invoices: number[];
  payments: number[];
  applications: number[];
  credits: number[];
  deposits: number[];
}

const of = <T>(list: T[], i: number): T | undefined =>
  list.length === 0 ? undefined : list[i % list.length];

async function run(made: Made, o: Op): Promise<void> {
  const tenantId = t.tenant.id;
  const services = ctx.app.services;
  await withTenantTx(ctx.database.db, { tenantId }, async (tx) => {
    switch (o.kind) {
      case 'invoice': {
        const s = await service.createInvoice(tx, services, tenantId, {
          contactId: contacts[o.who] as number,
          lines: [{ description: 'Item', unitPriceCents: o.cents, quantity: o.qty }],
        });
        made.invoices.push(s.invoiceId);
        return;
      }
      case 'pay': {
        const invoiceId = of(made.invoices, o.invoice);
        const p = await service.recordPayment(tx, services, tenantId, {
          contactId: contacts[o.who] as number,
          amountCents: o.cents,
          method: o.method,
          checkNumber: o.method === 'check' ? '100' : null,
          applications:
            invoiceId && o.applyCents > 0
              ? [{ invoiceId, amountCents: Math.min(o.applyCents, o.cents) }]
              : [],
        });
        made.payments.push(p.paymentId);
        for (const a of p.applications) made.applications.push(a.applicationId);
        return;
      }
      case 'apply': {
        const paymentId = of(made.payments, o.payment);
        const invoiceId = of(made.invoices, o.invoice);
        if (!paymentId || !invoiceId) return;
        made.applications.push(
          await service.applyToInvoice(tx, services, tenantId, { paymentId }, invoiceId, o.cents),
        );
        return;
      }
      case 'unapply': {
        const id = of(made.applications, o.application);
        if (id) await service.unapply(tx, services, tenantId, id);
        return;
      }
      case 'refund': {
        const id = of(made.payments, o.payment);
        if (id)
          await service.refundPayment(tx, services, tenantId, id, { amount: (o.cents / 100).toFixed(2) });
        return;
      }
      case 'credit': {
        const { creditId } = await service.issueCredit(tx, services, tenantId, {
          contactId: contacts[o.who] as number,
          amountCents: o.cents,
          reason: 'Goodwill',
        });
        made.credits.push(creditId);
        const invoiceId = of(made.invoices, o.invoice);
        if (invoiceId) {
          const summary = await service.invoiceSummary(tx, tenantId, invoiceId);
          const cents = Math.min(o.cents, summary.balanceCents);
          if (cents > 0 && (summary.status === 'open' || summary.status === 'partially_paid'))
            made.applications.push(
              await service.applyToInvoice(tx, services, tenantId, { creditId }, invoiceId, cents),
            );
        }
        return;
      }
      case 'writeOff': {
        const id = of(made.invoices, o.invoice);
        if (id) await service.writeOffInvoice(tx, services, tenantId, id, 'Uncollectable');
        return;
      }
      case 'void': {
        const id = of(made.invoices, o.invoice);
        if (id) await service.voidInvoice(tx, services, tenantId, id, 'Issued in error');
        return;
      }
      case 'deposit': {
        const ids = o.payments.map((i) => of(made.payments, i)).filter((x): x is number => x !== undefined);
        if (ids.length === 0) return;
        const d = await service.makeDeposit(tx, services, tenantId, { paymentIds: ids });
        made.deposits.push(d.depositId);
        return;
      }
      case 'reverseDeposit': {
        const id = of(made.deposits, o.deposit);
        if (id) await service.reverseDeposit(tx, services, tenantId, id);
        return;
      }
      case 'bounce': {
        const id = of(made.payments, o.payment);
        if (id) await service.bouncePayment(tx, services, tenantId, id);
        return;
      }
    }
  }).catch((err: unknown) => {
    // A refusal (400/404) is an answer, not a failure; the transaction rolled back as a request's would.
    if (err instanceof HttpError && (err.status === 400 || err.status === 404)) return;
    throw err;
  });
}

async function invariants(): Promise<void> {
  const tenantId = t.tenant.id;
  await withTenantTx(ctx.database.db, { tenantId }, async (tx) => {
    const one = async (f: ReturnType<typeof q>) =>
      (await runFragment<Record<string, unknown>>(tx, f))[0] ?? {};
    const all = (f: ReturnType<typeof q>) => runFragment<Record<string, unknown>>(tx, f);

    const totals = await one(
      q`select coalesce(sum(debit_cents), 0) as d, coalesce(sum(credit_cents), 0) as c from ledger_lines where tenant_id = ${tenantId}`,
    );
    expect(Number(totals.d)).toBe(Number(totals.c));
    const unbalanced = await all(
      q`select entry_id from ledger_lines where tenant_id = ${tenantId} group by entry_id having sum(debit_cents) <> sum(credit_cents)`,
    );
    expect(unbalanced).toEqual([]);

    const badInvoices = await all(
      q`select i.number, i.status, i.total_cents, i.balance_cents, i.applied_cents, i.written_off_cents,
               coalesce((select sum(a.amount_cents) from invoice_applications a where a.tenant_id = i.tenant_id
                          and a.invoice_id = i.invoice_id and not a.is_reversed), 0) as live
        from invoices i where i.tenant_id = ${tenantId}
          and (i.balance_cents < 0
            or i.applied_cents <> coalesce((select sum(a.amount_cents) from invoice_applications a where a.tenant_id = i.tenant_id
                                             and a.invoice_id = i.invoice_id and not a.is_reversed), 0)
            or (i.status <> 'void' and i.balance_cents <> i.total_cents - i.applied_cents - i.written_off_cents)
            or (i.status = 'paid' and i.balance_cents <> 0)
            or (i.status in ('open', 'partially_paid') and i.balance_cents = 0))`,
    );
    expect(badInvoices).toEqual([]);

    const badPayments = await all(
      q`select p.id from payments p where p.tenant_id = ${tenantId}
          and (p.refunded_cents > p.amount_cents
            or p.refunded_cents <> coalesce((select sum(r.amount_cents) from refunds r where r.tenant_id = p.tenant_id and r.payment_id = p.id), 0)
            or p.applied_cents <> coalesce((select sum(a.amount_cents) from invoice_applications a where a.tenant_id = p.tenant_id
                                             and a.payment_id = p.id and not a.is_reversed), 0))`,
    );
    expect(badPayments).toEqual([]);

    const byRole = async (role: string) =>
      Number(
        (
          await one(
            q`select coalesce(sum(l.debit_cents - l.credit_cents), 0) as b from ledger_lines l
              join ledger_accounts a on a.tenant_id = l.tenant_id and a.account_id = l.account_id
              where l.tenant_id = ${tenantId} and a.role = ${role}`,
          )
        ).b,
      );
    const owed = await one(
      q`select coalesce(sum(balance_cents), 0) as b from invoices where tenant_id = ${tenantId} and status <> 'void'`,
    );
    expect(await byRole('receivable')).toBe(Number(owed.b));
    const held = await one(
      q`select (select coalesce(sum(amount_cents - applied_cents - refunded_cents), 0) from payments where tenant_id = ${tenantId} and status = 'completed')
             + (select coalesce(sum(amount_cents - applied_cents), 0) from credits where tenant_id = ${tenantId}) as b`,
    );
    expect(0 - (await byRole('customer_credit'))).toBe(Number(held.b));
    const waiting = await one(
      q`select coalesce(sum(amount_cents - refunded_cents), 0) as b from payments
        where tenant_id = ${tenantId} and status = 'completed' and deposit_id is null and method in ('cash', 'check')`,
    );
    expect(await byRole('undeposited')).toBe(Number(waiting.b));

    // The aging report's kept sums (list_counts 'invoice_aging') agree with the open invoices themselves.
    const open = q`from invoices where tenant_id = ${tenantId} and status in ('open', 'partially_paid') and balance_cents > 0`;
    const kept = await all(
      q`select facet, value, sum(n)::bigint as n from list_counts where tenant_id = ${tenantId} and table_name = 'invoice_aging'
        group by facet, value having sum(n) <> 0 order by facet, value`,
    );
    const direct = await all(
      q`select facet, value, n from (
          select 'contact_cents' as facet, contact_id::text as value, sum(balance_cents)::bigint as n ${open} group by 2
          union all select 'contact_count', contact_id::text, count(*)::bigint ${open} group by 2
          union all select 'due_cents', due_date::text, sum(balance_cents)::bigint ${open} group by 2
          union all select 'due_count', due_date::text, count(*)::bigint ${open} group by 2) s
        order by facet, value`,
    );
    const rows = (r: Record<string, unknown>[]) => r.map((x) => `${x.facet} ${x.value} ${Number(x.n)}`);
    expect(rows(kept)).toEqual(rows(direct));
  });
}

describe('the ledger under random sequences of operations', () => {
  it('always balances, and the books agree with the invoices and payments', {
    timeout: 600_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
        const made: Made = { invoices: [], payments: [], applications: [], credits: [], deposits: [] };
        for (const o of ops) await run(made, o);
        await invariants();
      }),
      { numRuns: 25 },
    );
  });
});
