/**
 * Invoices made in a batch (`billingApi.createInvoices`, the renewal run's path) are the invoices `createInvoice`
 * makes one by one. Two associations start alike (same contacts, tax sets and chart, so the same ids); fast-check
 * sends the same random list of invoices to one by one and to the other as a batch, and every invoice, line,
 * ledger entry and ledger line must come out the same (numbers, totals, taxes, discounts, due dates, accounts).
 * Also: a used idempotency key answers its invoice in both paths, a re-run of a batch makes nothing, the ledger
 * balances, and a batch with one bad invoice writes nothing.
 */
import { q, runFragment, type Tx, withTenantTx } from '@guildhall/db';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenant, type TenantWithUsers, type TestContext, testApp } from '../../../test/helpers.ts';
import { HttpError } from '../../platform/errors.ts';
import { makeContact, makeTaxSet } from './billing.fixtures.ts';
import { billingApi, type NewInvoice } from './billing.module.ts';

let ctx: TestContext;
let one: TenantWithUsers;
let batch: TenantWithUsers;
let contacts: number[];
let taxSets: number[];

beforeAll(async () => {
  ctx = await testApp({}, 2);
  one = await seedTenant(ctx.database);
  batch = await seedTenant(ctx.database);
  const ids: number[][] = [];
  for (const t of [one, batch]) {
    ids.push([
      await makeContact(ctx.database, t.tenant.id, 'Ann Batch'),
      await makeContact(ctx.database, t.tenant.id, 'Ben Batch'),
      await makeContact(ctx.database, t.tenant.id, 'Cy Batch'),
      await makeTaxSet(ctx.database, t.tenant.id, 'Sales tax', '0.0825'),
      await makeTaxSet(ctx.database, t.tenant.id, 'Fixed levy', '0', 150),
    ]);
  }
  expect(ids[0]).toEqual(ids[1]);
  contacts = (ids[0] as number[]).slice(0, 3);
  taxSets = (ids[0] as number[]).slice(3);
});
afterAll(() => ctx.close());

const inTenant = <T>(tenantId: string, fn: (tx: Tx) => Promise<T>) =>
  withTenantTx(ctx.database.db, { tenantId }, fn);

/** Everything the two paths wrote, without what differs by nature (tenant and clock). */
async function written(tenantId: string) {
  return inTenant(tenantId, async (tx) => ({
    invoices: await runFragment(
      tx,
      q`select invoice_id, number, contact_id, contact_name, status, issue_date::text, due_date::text, subtotal_cents,
          discount_cents, tax_cents, total_cents, applied_cents, balance_cents, source_kind, source_id,
          idempotency_key, memo, paid_at is not null as paid
        from invoices where tenant_id = ${tenantId} order by invoice_id`,
    ),
    lines: await runFragment(
      tx,
      q`select invoice_id, position, description, unit_price_cents, quantity, discount_cents, tax_set_id, tax_cents,
          total_cents, revenue_account_id
        from invoice_lines where tenant_id = ${tenantId} order by invoice_id, position`,
    ),
    entries: await runFragment(
      tx,
      q`select entry_id, entry_date::text, kind, source_kind, source_id, contact_id, memo, reverses_entry_id
        from ledger_entries where tenant_id = ${tenantId} order by entry_id`,
    ),
    postings: await runFragment(
      tx,
      q`select entry_id, account_id, debit_cents, credit_cents, contact_id, invoice_id, entry_date::text
        from ledger_lines where tenant_id = ${tenantId} order by entry_id, account_id, debit_cents, credit_cents`,
    ),
  }));
}

const line = fc.record({
  description: fc.constantFrom('Annual dues', 'Chapter fee', 'Journal', '  Padded name  '),
  unitPriceCents: fc.integer({ min: 0, max: 50_000 }),
  quantity: fc.integer({ min: 1, max: 3 }),
  discountCents: fc.option(fc.integer({ min: 0, max: 5_000 }), { nil: undefined }),
  tax: fc.integer({ min: -2, max: 1 }),
});
const invoice = fc.record({
  who: fc.nat({ max: 2 }),
  lines: fc.array(line, { minLength: 1, maxLength: 3 }),
  due: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
  keyed: fc.boolean(),
  reuse: fc.option(fc.nat({ max: 50 }), { freq: 5, nil: undefined }),
});

let run = 0;
const usedKeys: string[] = [];

type Inv = typeof invoice extends fc.Arbitrary<infer T> ? T : never;

function toInputs(list: Inv[]): NewInvoice[] {
  run++;
  const batchKeys = new Set<string>();
  return list.map((inv, i) => {
    let key: string | undefined = inv.keyed ? `batch-test:${run}:${i}` : undefined;
    if (inv.reuse !== undefined && usedKeys.length > 0) {
      const reused = usedKeys[inv.reuse % usedKeys.length] as string;
      if (!batchKeys.has(reused)) key = reused;
    }
    if (key) batchKeys.add(key);
    return {
      contactId: contacts[inv.who] as number,
      lines: inv.lines.map((l) => ({
        description: l.description,
        unitPriceCents: l.unitPriceCents,
        quantity: l.quantity,
        discountCents: l.discountCents,
        taxSetId: l.tax >= 0 ? (taxSets[l.tax] as number) : null,
      })),
      dueDate: inv.due === undefined ? undefined : `2030-01-${String(1 + (inv.due % 28)).padStart(2, '0')}`,
      issueDate: inv.due === undefined ? undefined : '2030-01-01',
      source: { kind: 'membership', id: 1000 + i },
      idempotencyKey: key,
      memo: `Batch test ${run}`,
    };
  });
}

describe('billingApi.createInvoices', () => {
  it('makes exactly the invoices, lines and ledger entries createInvoice makes one by one', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(invoice, { minLength: 1, maxLength: 12 }), async (list) => {
        const inputs = toInputs(list);
        const oneByOne = await inTenant(one.tenant.id, async (tx) => {
          const out = [];
          for (const input of inputs)
            out.push(await billingApi.createInvoice(tx, ctx.app.services, one.tenant.id, input));
          return out;
        });
        const batched = await inTenant(batch.tenant.id, (tx) =>
          billingApi.createInvoices(tx, ctx.app.services, batch.tenant.id, inputs),
        );
        expect(batched).toEqual(oneByOne);
        for (const input of inputs) if (input.idempotencyKey) usedKeys.push(input.idempotencyKey);
        expect(await written(batch.tenant.id)).toEqual(await written(one.tenant.id));
      }),
      { numRuns: 15 },
    );
  });

  it('makes nothing again on a re-run of the same batch, and the ledger balances', async () => {
    const inputs: NewInvoice[] = contacts.map((contactId, i) => ({
      contactId,
      lines: [{ description: 'Dues', unitPriceCents: 10_000 + i, quantity: 1 }],
      idempotencyKey: `batch-rerun:${i}`,
    }));
    const first = await inTenant(batch.tenant.id, (tx) =>
      billingApi.createInvoices(tx, ctx.app.services, batch.tenant.id, inputs),
    );
    const before = await written(batch.tenant.id);
    const again = await inTenant(batch.tenant.id, (tx) =>
      billingApi.createInvoices(tx, ctx.app.services, batch.tenant.id, inputs),
    );
    expect(again).toEqual(first);
    expect(await written(batch.tenant.id)).toEqual(before);
    const [sums] = await inTenant(batch.tenant.id, (tx) =>
      runFragment<{ d: string; c: string; unbalanced: string }>(
        tx,
        q`select sum(debit_cents)::text as d, sum(credit_cents)::text as c,
            (select count(*) from (select entry_id from ledger_lines where tenant_id = ${batch.tenant.id}
              group by entry_id having sum(debit_cents) <> sum(credit_cents)) u)::text as unbalanced
          from ledger_lines where tenant_id = ${batch.tenant.id}`,
      ),
    );
    expect(sums?.d).toBe(sums?.c);
    expect(sums?.unbalanced).toBe('0');
  });

  it('writes nothing of a batch with one bad invoice', async () => {
    const before = await written(batch.tenant.id);
    const bad = inTenant(batch.tenant.id, (tx) =>
      billingApi.createInvoices(tx, ctx.app.services, batch.tenant.id, [
        {
          contactId: contacts[0] as number,
          lines: [{ description: 'Dues', unitPriceCents: 100, quantity: 1 }],
        },
        {
          contactId: contacts[1] as number,
          lines: [{ description: 'Dues', unitPriceCents: -1, quantity: 1 }],
        },
      ]),
    );
    await expect(bad).rejects.toBeInstanceOf(HttpError);
    expect(await written(batch.tenant.id)).toEqual(before);
  });
});
