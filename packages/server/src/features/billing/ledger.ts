/**
 * The posting module (decision 0121): the only code that writes ledger entries. A posting is built by the shared
 * rules, checked balanced here, and written as one entry and its lines; nothing ever updates them. A correction is
 * another entry, built by `reversalOf`, that names the entry it reverses.
 */
import { joinFragments, q, runFragment, type Tx } from '@guildhall/db';
import {
  compactPosting,
  DEFAULT_ACCOUNTS,
  isBalanced,
  type LedgerRole,
  type PostingLine,
  reversalOf,
} from '@guildhall/shared';

export type Accounts = Record<LedgerRole, number>;

/** The tenant's system accounts by role, made on first use from the default chart. */
export async function accountsOf(tx: Tx, tenantId: string): Promise<Accounts> {
  const read = () =>
    runFragment<{ role: string; account_id: unknown }>(
      tx,
      q`select role, account_id from ledger_accounts where tenant_id = ${tenantId} and role is not null`,
    );
  let rows = await read();
  if (rows.length < DEFAULT_ACCOUNTS.length) {
    const values = DEFAULT_ACCOUNTS.map(
      (a) => q`(${tenantId}::uuid, ${a.code}, ${a.name}, ${a.kind}, ${a.role})`,
    );
    await runFragment(
      tx,
      q`insert into ledger_accounts (tenant_id, code, name, kind, role) values ${joinFragments(values, ', ')}
        on conflict do nothing`,
    );
    rows = await read();
  }
  const accounts = {} as Accounts;
  for (const r of rows) accounts[r.role as LedgerRole] = Number(r.account_id);
  for (const a of DEFAULT_ACCOUNTS) {
    if (!accounts[a.role]) throw new Error(`ledger account ${a.role} is missing`);
  }
  return accounts;
}

export interface EntryHead {
  kind: string;
  sourceKind: string;
  sourceId: number;
  contactId?: number | null;
  memo?: string | null;
  entryDate: string;
  reversesEntryId?: number | null;
}

/** Writes one balanced entry; a posting of no amount writes nothing and answers null. */
export async function post(
  tx: Tx,
  tenantId: string,
  head: EntryHead,
  lines: readonly PostingLine[],
): Promise<number | null> {
  const compact = compactPosting(lines);
  if (compact.length === 0) return null;
  if (!isBalanced(compact)) {
    throw new Error(`unbalanced ${head.kind} posting for ${head.sourceKind} ${head.sourceId}`);
  }
  const [entry] = await runFragment<{ entry_id: unknown }>(
    tx,
    q`insert into ledger_entries (tenant_id, entry_date, kind, source_kind, source_id, contact_id, memo, reverses_entry_id)
      values (${tenantId}::uuid, ${head.entryDate}::date, ${head.kind}, ${head.sourceKind}, ${head.sourceId},
              ${head.contactId ?? null}, ${head.memo ?? null}, ${head.reversesEntryId ?? null})
      returning entry_id`,
  );
  const entryId = Number(entry?.entry_id);
  const values = compact.map(
    (l) =>
      q`(${tenantId}::uuid, ${entryId}, ${l.accountId}, ${l.debitCents}, ${l.creditCents}, ${l.contactId ?? null},
         ${l.invoiceId ?? null}, ${head.entryDate}::date)`,
  );
  await runFragment(
    tx,
    q`insert into ledger_lines (tenant_id, entry_id, account_id, debit_cents, credit_cents, contact_id, invoice_id, entry_date)
      values ${joinFragments(values, ', ')}`,
  );
  return entryId;
}

/**
 * Writes many balanced entries in two statements (a batch of invoices, say): each is checked as `post` checks it;
 * postings of no amount write nothing. Answers the entry id of each head (null for an empty posting), in order.
 */
export async function postMany(
  tx: Tx,
  tenantId: string,
  items: readonly { head: EntryHead; lines: readonly PostingLine[] }[],
): Promise<(number | null)[]> {
  const compacted = items.map((item) => {
    const compact = compactPosting(item.lines);
    if (compact.length > 0 && !isBalanced(compact)) {
      throw new Error(
        `unbalanced ${item.head.kind} posting for ${item.head.sourceKind} ${item.head.sourceId}`,
      );
    }
    return compact;
  });
  const heads = items
    .map((item, i) => ({ i, head: item.head }))
    .filter(({ i }) => (compacted[i]?.length ?? 0) > 0)
    .map(({ i, head }) => ({
      i,
      entry_date: head.entryDate,
      kind: head.kind,
      source_kind: head.sourceKind,
      source_id: head.sourceId,
      contact_id: head.contactId ?? null,
      memo: head.memo ?? null,
      reverses_entry_id: head.reversesEntryId ?? null,
    }));
  const ids: (number | null)[] = items.map(() => null);
  if (heads.length === 0) return ids;
  // Each written entry is matched back to its head by kind and source, so these must differ within a batch.
  if (new Set(heads.map((h) => `${h.kind}|${h.source_kind}|${h.source_id}`)).size !== heads.length)
    throw new Error('a batch of entries names one source twice');
  const made = await runFragment<{ entry_id: unknown; i: unknown }>(
    tx,
    q`with h as (
        select * from jsonb_to_recordset(${JSON.stringify(heads)}::jsonb) as x(i int, entry_date date, kind text,
          source_kind text, source_id bigint, contact_id bigint, memo text, reverses_entry_id bigint)
      ), ins as (
        insert into ledger_entries (tenant_id, entry_date, kind, source_kind, source_id, contact_id, memo, reverses_entry_id)
        select ${tenantId}::uuid, entry_date, kind, source_kind, source_id, contact_id, memo, reverses_entry_id
        from h order by i
        returning entry_id, kind, source_kind, source_id
      )
      select ins.entry_id, h.i from ins join h on h.kind = ins.kind and h.source_kind = ins.source_kind
        and h.source_id = ins.source_id`,
  );
  for (const row of made) ids[Number(row.i)] = Number(row.entry_id);
  const lines: Record<string, unknown>[] = [];
  for (const { i, entry_date } of heads) {
    const entryId = ids[i];
    if (entryId == null) throw new Error('a batch entry was not written');
    for (const l of compacted[i] ?? [])
      lines.push({
        entry_id: entryId,
        account_id: l.accountId,
        debit_cents: l.debitCents,
        credit_cents: l.creditCents,
        contact_id: l.contactId ?? null,
        invoice_id: l.invoiceId ?? null,
        entry_date,
      });
  }
  await runFragment(
    tx,
    q`insert into ledger_lines (tenant_id, entry_id, account_id, debit_cents, credit_cents, contact_id, invoice_id, entry_date)
      select ${tenantId}::uuid, entry_id, account_id, debit_cents, credit_cents, contact_id, invoice_id, entry_date
      from jsonb_to_recordset(${JSON.stringify(lines)}::jsonb) as x(entry_id bigint, account_id bigint,
        debit_cents bigint, credit_cents bigint, contact_id bigint, invoice_id bigint, entry_date date)`,
  );
  return ids;
}

/** Reverses one entry (not already reversed): the same lines, debits and credits swapped, in a new entry. */
export async function reverseEntry(
  tx: Tx,
  tenantId: string,
  entryId: number,
  head: Omit<EntryHead, 'reversesEntryId' | 'sourceKind' | 'sourceId'>,
): Promise<number | null> {
  const [original] = await runFragment<{ source_kind: string; source_id: unknown; contact_id: unknown }>(
    tx,
    q`select source_kind, source_id, contact_id from ledger_entries
      where tenant_id = ${tenantId} and entry_id = ${entryId}
        and not exists (select 1 from ledger_entries r where r.tenant_id = ${tenantId} and r.reverses_entry_id = ${entryId})`,
  );
  if (!original) return null;
  const lines = await runFragment<Record<string, unknown>>(
    tx,
    q`select account_id, debit_cents, credit_cents, contact_id, invoice_id from ledger_lines
      where tenant_id = ${tenantId} and entry_id = ${entryId} order by line_id`,
  );
  const posting: PostingLine[] = lines.map((l) => ({
    accountId: Number(l.account_id),
    debitCents: Number(l.debit_cents),
    creditCents: Number(l.credit_cents),
    contactId: l.contact_id == null ? null : Number(l.contact_id),
    invoiceId: l.invoice_id == null ? null : Number(l.invoice_id),
  }));
  return post(
    tx,
    tenantId,
    {
      ...head,
      sourceKind: original.source_kind,
      sourceId: Number(original.source_id),
      contactId: head.contactId ?? (original.contact_id == null ? null : Number(original.contact_id)),
      reversesEntryId: entryId,
    },
    reversalOf(posting),
  );
}

/** The entry of a kind a source posted (the first one), for reversing it. */
export async function entryOf(
  tx: Tx,
  tenantId: string,
  sourceKind: string,
  sourceId: number,
  kind: string,
): Promise<number | null> {
  const [row] = await runFragment<{ entry_id: unknown }>(
    tx,
    q`select entry_id from ledger_entries
      where tenant_id = ${tenantId} and source_kind = ${sourceKind} and source_id = ${sourceId} and kind = ${kind}
        and reverses_entry_id is null
      order by entry_id limit 1`,
  );
  return row ? Number(row.entry_id) : null;
}

/** Debits and credits of the whole ledger, and of each account: the trial balance. */
export async function trialBalance(
  tx: Tx,
  tenantId: string,
): Promise<{
  debits: number;
  credits: number;
  accounts: {
    accountId: number;
    code: string;
    name: string;
    kind: string;
    role: string | null;
    debits: number;
    credits: number;
  }[];
}> {
  const rows = await runFragment<Record<string, unknown>>(
    tx,
    q`select a.account_id, a.code, a.name, a.kind, a.role,
             coalesce(sum(l.debit_cents), 0) as debits, coalesce(sum(l.credit_cents), 0) as credits
      from ledger_accounts a
      left join ledger_lines l on l.tenant_id = a.tenant_id and l.account_id = a.account_id
      where a.tenant_id = ${tenantId}
      group by a.account_id, a.code, a.name, a.kind, a.role
      order by a.code`,
  );
  const accounts = rows.map((r) => ({
    accountId: Number(r.account_id),
    code: String(r.code),
    name: String(r.name),
    kind: String(r.kind),
    role: r.role == null ? null : String(r.role),
    debits: Number(r.debits),
    credits: Number(r.credits),
  }));
  return {
    debits: accounts.reduce((s, a) => s + a.debits, 0),
    credits: accounts.reduce((s, a) => s + a.credits, 0),
    accounts,
  };
}
