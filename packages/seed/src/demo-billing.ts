/**
 * The Demo Association's billing: its chart of accounts (with revenue accounts for dues, events and publications),
 * a sales tax set, and invoices in every state for its first contacts: open, overdue, partially paid, paid by
 * check, cash, transfer and card, written off and void; an overpayment left as credit, a credit note, and a bank
 * deposit of the week's checks. Every amount is posted to the ledger with the shared posting rules, balanced.
 */
import { type Db, rowsOf, withTenantTx } from '@guildhall/db';
import {
  calculatePurchase,
  credit,
  DEFAULT_ACCOUNTS,
  debit,
  formatInvoiceNumber,
  invoicePosting,
  isBalanced,
  type PostingLine,
  reversalOf,
  shiftDate,
} from '@guildhall/shared';
import { type SQL, sql } from 'drizzle-orm';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

async function one<T>(tx: Tx, query: SQL): Promise<T> {
  const [row] = rowsOf<T>(await tx.execute(query));
  if (!row) throw new Error('demo billing: a statement answered nothing');
  return row;
}

async function post(
  tx: Tx,
  tenantId: string,
  head: {
    kind: string;
    sourceKind: string;
    sourceId: number;
    contactId: number | null;
    date: string;
    memo: string;
  },
  lines: PostingLine[],
  reverses: number | null = null,
): Promise<number> {
  const live = lines.filter((l) => l.debitCents !== 0 || l.creditCents !== 0);
  if (!isBalanced(live)) throw new Error(`demo billing: unbalanced ${head.kind}`);
  const entry = await one<{ entry_id: number }>(
    tx,
    sql`insert into ledger_entries (tenant_id, entry_date, kind, source_kind, source_id, contact_id, memo, reverses_entry_id)
        values (${tenantId}, ${head.date}::date, ${head.kind}, ${head.sourceKind}, ${head.sourceId}, ${head.contactId},
                ${head.memo}, ${reverses}) returning entry_id`,
  );
  for (const l of live) {
    await tx.execute(
      sql`insert into ledger_lines (tenant_id, entry_id, account_id, debit_cents, credit_cents, contact_id, invoice_id, entry_date)
          values (${tenantId}, ${entry.entry_id}, ${l.accountId}, ${l.debitCents}, ${l.creditCents}, ${l.contactId ?? null},
                  ${l.invoiceId ?? null}, ${head.date}::date)`,
    );
  }
  return Number(entry.entry_id);
}

interface DemoLine {
  description: string;
  cents: number;
  quantity?: number;
  account: 'dues' | 'events' | 'publications';
  taxed?: boolean;
}

export async function seedDemoBilling(db: Db, tenantId: string, today: string): Promise<void> {
  await withTenantTx(db, { tenantId }, async (tx) => {
    const contacts = rowsOf<{ contact_id: number; display_name: string }>(
      await tx.execute(sql`select contact_id, display_name from contacts
        where tenant_id = ${tenantId} and not is_deleted and status = 'active' order by contact_id limit 16`),
    );
    if (contacts.length < 12) return;
    // The address invoices and receipts print under the logo.
    await tx.execute(
      sql`update tenants set settings = settings || ${JSON.stringify({
        address:
          '1200 Guild Hall Avenue, Suite 400\nChicago, IL 60605\n(312) 555-0140 · billing@demo-association.example.org',
      })}::jsonb where id = ${tenantId} and coalesce(settings->>'address', '') = ''`,
    );
    await tx.execute(sql`insert into billing_settings (tenant_id, gateway) values (${tenantId}, 'test')
      on conflict (tenant_id) do nothing`);
    for (const a of DEFAULT_ACCOUNTS)
      await tx.execute(
        sql`insert into ledger_accounts (tenant_id, code, name, kind, role) values (${tenantId}, ${a.code}, ${a.name}, ${a.kind}, ${a.role})`,
      );
    for (const [code, name] of [
      ['4100', 'Membership dues'],
      ['4200', 'Event registrations'],
      ['4300', 'Publications'],
    ] as const)
      await tx.execute(
        sql`insert into ledger_accounts (tenant_id, code, name, kind) values (${tenantId}, ${code}, ${name}, 'revenue')`,
      );
    await tx.execute(
      sql`insert into tax_sets (tenant_id, name, rate) values (${tenantId}, 'Sales tax 8.25%', '8.25')`,
    );
    // Accounts, revenue accounts and the tax set made: invoices and payments go through the demo's ledger.
    const ledger = await demoLedger(tx, tenantId, today);
    if (!ledger) throw new Error('demo billing: the chart of accounts is missing');
    const acc = ledger.acc;
    const pay = ledger.pay;
    const invoice = (contactIndex: number, daysAgo: number, lines: DemoLine[]) =>
      ledger.invoice(contacts[contactIndex % contacts.length] as DemoContact, daysAgo, lines);

    const dues = (cents = 12000): DemoLine => ({
      description: 'Annual membership dues',
      cents,
      account: 'dues',
    });
    const gala: DemoLine = {
      description: 'Autumn gala dinner ticket',
      cents: 8500,
      quantity: 2,
      account: 'events',
      taxed: true,
    };
    const journal: DemoLine = {
      description: 'Journal subscription (print)',
      cents: 4500,
      account: 'publications',
      taxed: true,
    };

    // Paid by check, two invoices on one check; deposited.
    const a1 = await invoice(0, 40, [dues()]);
    const a2 = await invoice(0, 38, [gala]);
    const check1 = await pay(
      a1.contact,
      a1.total + a2.total,
      'check',
      20,
      [
        { invoiceId: a1.invoiceId, cents: a1.total },
        { invoiceId: a2.invoiceId, cents: a2.total },
      ],
      '1042',
    );
    const b1 = await invoice(1, 35, [dues(9000), journal]);
    const check2 = await pay(
      b1.contact,
      b1.total,
      'check',
      18,
      [{ invoiceId: b1.invoiceId, cents: b1.total }],
      '2210',
    );
    const depositTotal = a1.total + a2.total + b1.total;
    const dep = await one<{ deposit_id: number }>(
      tx,
      sql`insert into deposits (tenant_id, deposit_date, bank_account_id, total_cents, payment_count, reference)
          values (${tenantId}, ${shiftDate(today, -15)}::date, ${acc('bank')}, ${depositTotal}, 2, 'Slip 0001') returning deposit_id`,
    );
    await tx.execute(
      sql`update payments set deposit_id = ${dep.deposit_id} where tenant_id = ${tenantId} and id in (${check1}, ${check2})`,
    );
    await post(
      tx,
      tenantId,
      {
        kind: 'deposit',
        sourceKind: 'deposit',
        sourceId: Number(dep.deposit_id),
        contactId: null,
        date: shiftDate(today, -15),
        memo: 'Deposit of 2 payments',
      },
      [debit(acc('bank'), depositTotal), credit(acc('undeposited'), depositTotal)],
    );
    // Paid by card and by transfer.
    const c1 = await invoice(2, 25, [dues()]);
    await pay(c1.contact, c1.total, 'card', 24, [{ invoiceId: c1.invoiceId, cents: c1.total }]);
    const d1 = await invoice(3, 22, [gala]);
    await pay(d1.contact, d1.total, 'bank_transfer', 10, [{ invoiceId: d1.invoiceId, cents: d1.total }]);
    // Partially paid in cash (undeposited), and an overpayment left as credit.
    const e1 = await invoice(4, 20, [dues(), journal]);
    await pay(e1.contact, 6000, 'cash', 5, [{ invoiceId: e1.invoiceId, cents: 6000 }]);
    const f1 = await invoice(5, 14, [dues(9000)]);
    await pay(f1.contact, 10000, 'check', 2, [{ invoiceId: f1.invoiceId, cents: f1.total }], '3307');
    // Open, some of them overdue.
    await invoice(6, 75, [dues()]);
    await invoice(7, 50, [journal]);
    await invoice(8, 12, [dues()]);
    await invoice(9, 3, [gala, journal]);
    await invoice(10, 1, [dues(9000)]);
    // Written off after four months.
    const w = await invoice(11, 130, [dues()]);
    await post(
      tx,
      tenantId,
      {
        kind: 'write_off',
        sourceKind: 'invoice',
        sourceId: w.invoiceId,
        contactId: w.contact.contact_id,
        date: shiftDate(today, -10),
        memo: 'Write-off: moved away, no forwarding address',
      },
      [debit(acc('bad_debt'), w.total, w.refs), credit(acc('receivable'), w.total, w.refs)],
    );
    await tx.execute(sql`update invoices set written_off_cents = total_cents, balance_cents = 0, status = 'written_off'
      where tenant_id = ${tenantId} and invoice_id = ${w.invoiceId}`);
    // The demo member's own contact owes a conference ticket: an open invoice to pay by card in the member area.
    const [member] = rowsOf<{ contact_id: number; display_name: string }>(
      await tx.execute(sql`select contact_id, display_name from contacts where tenant_id = ${tenantId}
        and user_id is not null and not is_deleted order by contact_id limit 1`),
    );
    if (member) {
      let at = contacts.findIndex((c) => Number(c.contact_id) === Number(member.contact_id));
      if (at < 0) at = contacts.push(member) - 1;
      await invoice(at, 6, [gala]);
    }
    // Void: issued twice by mistake.
    const v = await invoice(6, 74, [dues()]);
    const lines = rowsOf<{ account_id: number; debit_cents: number; credit_cents: number }>(
      await tx.execute(
        sql`select account_id, debit_cents, credit_cents from ledger_lines where tenant_id = ${tenantId} and entry_id = ${v.entry}`,
      ),
    ).map((l) => ({
      accountId: Number(l.account_id),
      debitCents: Number(l.debit_cents),
      creditCents: Number(l.credit_cents),
      ...v.refs,
    }));
    await post(
      tx,
      tenantId,
      {
        kind: 'invoice_void',
        sourceKind: 'invoice',
        sourceId: v.invoiceId,
        contactId: v.contact.contact_id,
        date: shiftDate(today, -73),
        memo: 'Void: issued twice',
      },
      reversalOf(lines),
      v.entry,
    );
    await tx.execute(sql`update invoices set status = 'void', balance_cents = 0, void_reason = 'Issued twice', voided_at = now()
      where tenant_id = ${tenantId} and invoice_id = ${v.invoiceId}`);
    // A card on file for the contact of the paid-by-card invoice (the test gateway's accepted card).
    await tx.execute(sql`insert into payment_cards (tenant_id, contact_id, gateway, method_ref, brand, last4, exp_month, exp_year)
      values (${tenantId}, ${c1.contact.contact_id}, 'test', 'pm_test_visa', 'Visa', '4242', 12, 2030)`);
  });
}

/** A contact as the demo's invoices and payments name it. */
export interface DemoContact {
  contact_id: number;
  display_name: string;
}

/**
 * The demo's invoices and payments, posted to the ledger with the shared posting rules, on the chart of accounts,
 * revenue accounts and tax set `seedDemoBilling` made: used by it and by the other demo domains that bill (the
 * events' registrations). Invoice numbers follow the association's last one.
 */
export async function demoLedger(tx: Tx, tenantId: string, today: string) {
  const roles: Record<string, number> = {};
  for (const r of rowsOf<{ role: string; account_id: number }>(
    await tx.execute(
      sql`select role, account_id from ledger_accounts where tenant_id = ${tenantId} and role is not null`,
    ),
  ))
    roles[r.role] = Number(r.account_id);
  const revenue: Record<DemoLine['account'], number> = { dues: 0, events: 0, publications: 0 };
  for (const r of rowsOf<{ code: string; account_id: number }>(
    await tx.execute(sql`select code, account_id from ledger_accounts
      where tenant_id = ${tenantId} and code in ('4100', '4200', '4300')`),
  ))
    revenue[r.code === '4100' ? 'dues' : r.code === '4200' ? 'events' : 'publications'] = Number(
      r.account_id,
    );
  if (Object.keys(roles).length === 0) return null;
  const tax = await one<{ tax_set_id: number }>(
    tx,
    sql`select tax_set_id from tax_sets where tenant_id = ${tenantId} and name = 'Sales tax 8.25%'`,
  );
  const acc = (role: string) => roles[role] as number;
  let counter = Number(
    (
      await one<{ n: number | string }>(
        tx,
        sql`select coalesce((select value from tenant_counters where tenant_id = ${tenantId} and name = 'invoice'), 0) as n`,
      )
    ).n,
  );

  const invoice = async (
    contact: DemoContact,
    daysAgo: number,
    lines: DemoLine[],
    source: { kind: string; id: number } | null = null,
  ) => {
    const issue = shiftDate(today, -daysAgo);
    const due = shiftDate(issue, 30);
    const totals = calculatePurchase(
      {
        ContactId: contact.contact_id,
        PurchaseItems: lines.map((l) => ({
          Price: l.cents,
          Quantity: l.quantity ?? 1,
          TaxSetId: l.taxed ? Number(tax.tax_set_id) : null,
          ItemTaxSetRate: l.taxed ? '8.25' : null,
        })),
      },
      { today: issue },
    );
    counter += 1;
    const number = formatInvoiceNumber('INV-', counter);
    // The association's next invoice number follows the demo's.
    await tx.execute(sql`insert into tenant_counters (tenant_id, name, value) values (${tenantId}, 'invoice', ${counter})
      on conflict (tenant_id, name) do update set value = ${counter}`);
    const row = await one<{ invoice_id: number }>(
      tx,
      sql`insert into invoices (tenant_id, number, contact_id, contact_name, status, issue_date, due_date, subtotal_cents,
            discount_cents, tax_cents, total_cents, balance_cents, currency, memo, source_kind, source_id)
          values (${tenantId}, ${number}, ${contact.contact_id}, ${contact.display_name}, 'open', ${issue}::date, ${due}::date,
            ${totals.Subtotal}, ${totals.DiscountTotal}, ${totals.TaxAmount}, ${totals.Total}, ${totals.Total},
            (select coalesce(upper(settings->>'currency'), 'USD') from tenants where id = ${tenantId}), null,
            ${source?.kind ?? null}, ${source?.id ?? null})
          returning invoice_id`,
    );
    const invoiceId = Number(row.invoice_id);
    const posting = lines.map((l, i) => {
      const r = totals.Lines[i];
      return {
        revenueAccountId: revenue[l.account],
        netCents: (r?.Gross ?? 0) - (r?.TotalDiscount ?? 0),
        taxCents: r?.TaxAmount ?? 0,
        totalCents: r?.Total ?? 0,
      };
    });
    for (const [i, l] of lines.entries()) {
      const r = totals.Lines[i];
      await tx.execute(
        sql`insert into invoice_lines (tenant_id, invoice_id, position, description, unit_price_cents, quantity, discount_cents,
              tax_set_id, tax_cents, total_cents, revenue_account_id)
            values (${tenantId}, ${invoiceId}, ${i + 1}, ${l.description}, ${l.cents}, ${l.quantity ?? 1}, ${r?.TotalDiscount ?? 0},
              ${l.taxed ? Number(tax.tax_set_id) : null}, ${r?.TaxAmount ?? 0}, ${r?.Total ?? 0}, ${revenue[l.account]})`,
      );
    }
    const refs = { contactId: contact.contact_id, invoiceId };
    const entry = await post(
      tx,
      tenantId,
      {
        kind: 'invoice',
        sourceKind: 'invoice',
        sourceId: invoiceId,
        contactId: contact.contact_id,
        date: issue,
        memo: `Invoice ${number}`,
      },
      invoicePosting({ receivable: acc('receivable'), taxPayable: acc('tax_payable') }, posting, refs),
    );
    return { invoiceId, contact, total: totals.Total, issue, entry, lines: posting, refs };
  };

  const pay = async (
    contact: DemoContact,
    cents: number,
    method: 'cash' | 'check' | 'bank_transfer' | 'card',
    daysAgo: number,
    applyTo: { invoiceId: number; cents: number }[],
    checkNumber: string | null = null,
  ) => {
    const paidAt = `${shiftDate(today, -daysAgo)}T15:00:00Z`;
    const applied = applyTo.reduce((s, a) => s + a.cents, 0);
    const p = await one<{ id: number }>(
      tx,
      sql`insert into payments (tenant_id, contact_id, contact_name, amount_cents, applied_cents, paid_at, method, check_number, status,
            gateway, gateway_ref)
          values (${tenantId}, ${contact.contact_id}, ${contact.display_name}, ${cents}, ${applied}, ${paidAt}::timestamptz, ${method},
            ${checkNumber}, 'completed', ${method === 'card' ? 'test' : null},
            ${method === 'card' ? `ch_test_demo${daysAgo}${contact.contact_id}i${applyTo[0]?.invoiceId ?? 0}` : null})
          returning id`,
    );
    const paymentId = Number(p.id);
    const date = paidAt.slice(0, 10);
    const into = method === 'cash' || method === 'check' ? acc('undeposited') : acc('bank');
    const refs = { contactId: contact.contact_id };
    await post(
      tx,
      tenantId,
      {
        kind: 'payment',
        sourceKind: 'payment',
        sourceId: paymentId,
        contactId: contact.contact_id,
        date,
        memo: `Payment (${method.replace('_', ' ')})`,
      },
      [debit(into, cents, refs), credit(acc('customer_credit'), cents, refs)],
    );
    for (const a of applyTo) {
      const app = await one<{ application_id: number }>(
        tx,
        sql`insert into invoice_applications (tenant_id, invoice_id, payment_id, amount_cents)
            values (${tenantId}, ${a.invoiceId}, ${paymentId}, ${a.cents}) returning application_id`,
      );
      const r = { contactId: contact.contact_id, invoiceId: a.invoiceId };
      await post(
        tx,
        tenantId,
        {
          kind: 'application',
          sourceKind: 'application',
          sourceId: Number(app.application_id),
          contactId: contact.contact_id,
          date,
          memo: 'Applied',
        },
        [debit(acc('customer_credit'), a.cents, r), credit(acc('receivable'), a.cents, r)],
      );
      await tx.execute(sql`update invoices set applied_cents = applied_cents + ${a.cents}, balance_cents = balance_cents - ${a.cents},
          status = case when balance_cents - ${a.cents} = 0 then 'paid' else 'partially_paid' end,
          paid_at = case when balance_cents - ${a.cents} = 0 then ${paidAt}::timestamptz else null end
        where tenant_id = ${tenantId} and invoice_id = ${a.invoiceId}`);
    }
    return paymentId;
  };
  return { invoice, pay, acc };
}
