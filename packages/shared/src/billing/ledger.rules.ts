/**
 * The double-entry rules of the billing ledger (decision 0121). A posting is a list of lines, each a debit or a
 * credit of a positive number of cents on one account; it is balanced when its debits equal its credits. The
 * server posts only what these functions build, and checks `isBalanced` before it writes. A posted entry is never
 * edited: `reversalOf` builds the entry that undoes it.
 */
import type { Cents } from '../platform/fields/money.ts';

/** The accounts billing finds by role; revenue accounts beyond the default are added by staff. */
export const LEDGER_ROLES = [
  'bank',
  'undeposited',
  'receivable',
  'customer_credit',
  'tax_payable',
  'revenue',
  'allowances',
  'bad_debt',
] as const;
export type LedgerRole = (typeof LEDGER_ROLES)[number];

export type AccountKind = 'asset' | 'liability' | 'revenue' | 'expense' | 'equity';

/** The chart every association starts with: code, name, kind, role. */
export const DEFAULT_ACCOUNTS: readonly {
  code: string;
  name: string;
  kind: AccountKind;
  role: LedgerRole;
}[] = [
  { code: '1000', name: 'Bank', kind: 'asset', role: 'bank' },
  { code: '1050', name: 'Undeposited funds', kind: 'asset', role: 'undeposited' },
  { code: '1100', name: 'Accounts receivable', kind: 'asset', role: 'receivable' },
  { code: '2100', name: 'Customer credit', kind: 'liability', role: 'customer_credit' },
  { code: '2200', name: 'Tax payable', kind: 'liability', role: 'tax_payable' },
  { code: '4000', name: 'General revenue', kind: 'revenue', role: 'revenue' },
  { code: '4900', name: 'Credits and allowances', kind: 'revenue', role: 'allowances' },
  { code: '6900', name: 'Bad debt', kind: 'expense', role: 'bad_debt' },
];

export interface PostingLine {
  accountId: number;
  debitCents: Cents;
  creditCents: Cents;
  contactId?: number | null;
  invoiceId?: number | null;
}

export function debit(accountId: number, cents: Cents, extra: Partial<PostingLine> = {}): PostingLine {
  return { accountId, debitCents: cents, creditCents: 0, ...extra };
}

export function credit(accountId: number, cents: Cents, extra: Partial<PostingLine> = {}): PostingLine {
  return { accountId, debitCents: 0, creditCents: cents, ...extra };
}

/** Drops zero lines and merges nothing: what is posted is what was built, minus lines of no amount. */
export function compactPosting(lines: readonly PostingLine[]): PostingLine[] {
  return lines.filter((l) => l.debitCents !== 0 || l.creditCents !== 0);
}

/** Every line one-sided, whole and non-negative, debits equal to credits, and at least one line. */
export function isBalanced(lines: readonly PostingLine[]): boolean {
  if (lines.length === 0) return false;
  let debits = 0;
  let credits = 0;
  for (const l of lines) {
    if (!Number.isSafeInteger(l.debitCents) || !Number.isSafeInteger(l.creditCents)) return false;
    if (l.debitCents < 0 || l.creditCents < 0) return false;
    if ((l.debitCents === 0) === (l.creditCents === 0)) return false;
    debits += l.debitCents;
    credits += l.creditCents;
  }
  return debits === credits;
}

/** The entry that undoes `lines`: each debit becomes a credit of the same amount on the same account. */
export function reversalOf(lines: readonly PostingLine[]): PostingLine[] {
  return lines.map((l) => ({ ...l, debitCents: l.creditCents, creditCents: l.debitCents }));
}

/** An account's balance on its normal side: debits minus credits for assets and expenses, the reverse otherwise. */
export function normalBalance(kind: AccountKind, debits: Cents, credits: Cents): Cents {
  return kind === 'asset' || kind === 'expense' ? debits - credits : credits - debits;
}

export interface InvoicePostingLine {
  revenueAccountId: number;
  /** Gross minus discount, before tax (what the line earns). */
  netCents: Cents;
  taxCents: Cents;
}

/**
 * An invoice's posting: accounts receivable is debited with the total, each revenue account credited with its
 * lines' net and tax payable with the tax. A line floored at 0 (a discount larger than its price plus tax) earns
 * what its total says, so the posting always balances against the invoice total.
 */
export function invoicePosting(
  accounts: { receivable: number; taxPayable: number },
  lines: readonly (InvoicePostingLine & { totalCents: Cents })[],
  refs: { contactId: number; invoiceId: number },
): PostingLine[] {
  const byAccount = new Map<number, Cents>();
  let tax = 0;
  let total = 0;
  for (const line of lines) {
    total += line.totalCents;
    const lineTax = Math.min(line.taxCents, line.totalCents);
    tax += lineTax;
    byAccount.set(
      line.revenueAccountId,
      (byAccount.get(line.revenueAccountId) ?? 0) + line.totalCents - lineTax,
    );
  }
  return compactPosting([
    debit(accounts.receivable, total, refs),
    ...[...byAccount.entries()].map(([account, cents]) => credit(account, cents, refs)),
    credit(accounts.taxPayable, tax, refs),
  ]);
}
