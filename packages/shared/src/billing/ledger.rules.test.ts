import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compactPosting,
  credit,
  DEFAULT_ACCOUNTS,
  debit,
  invoicePosting,
  isBalanced,
  LEDGER_ROLES,
  normalBalance,
  reversalOf,
} from './ledger.rules.ts';

describe('postings', () => {
  it('a posting balances when its debits equal its credits and every line is one-sided', () => {
    expect(isBalanced([debit(1, 500), credit(2, 300), credit(3, 200)])).toBe(true);
    expect(isBalanced([debit(1, 500), credit(2, 499)])).toBe(false);
    expect(isBalanced([])).toBe(false);
    expect(isBalanced([{ accountId: 1, debitCents: 5, creditCents: 5 }, credit(2, 0)])).toBe(false);
    expect(isBalanced([debit(1, -5), credit(2, -5)])).toBe(false);
    expect(isBalanced([debit(1, 0.5), credit(2, 0.5)])).toBe(false);
  });

  it('compacting drops lines of no amount only', () => {
    expect(compactPosting([debit(1, 0), debit(2, 10), credit(3, 10), credit(4, 0)])).toEqual([
      debit(2, 10),
      credit(3, 10),
    ]);
  });

  it('a reversal balances whenever the posting did, and undoes it on every account', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: 5 }), fc.integer({ min: 1, max: 1e9 })), {
          minLength: 1,
          maxLength: 8,
        }),
        (parts) => {
          const lines = parts.flatMap(([account, cents]) => [
            debit(account, cents),
            credit(account + 10, cents),
          ]);
          expect(isBalanced(lines)).toBe(true);
          const back = reversalOf(lines);
          expect(isBalanced(back)).toBe(true);
          const net = new Map<number, number>();
          for (const l of [...lines, ...back])
            net.set(l.accountId, (net.get(l.accountId) ?? 0) + l.debitCents - l.creditCents);
          expect([...net.values()].every((v) => v === 0)).toBe(true);
        },
      ),
    );
  });

  it('an invoice posting debits receivable with the total, credits revenue per account and tax payable', () => {
    const lines = invoicePosting(
      { receivable: 10, taxPayable: 20 },
      [
        { revenueAccountId: 40, netCents: 9000, taxCents: 743, totalCents: 9743 },
        { revenueAccountId: 41, netCents: 12000, taxCents: 0, totalCents: 12000 },
        { revenueAccountId: 40, netCents: 100, taxCents: 0, totalCents: 100 },
      ],
      { contactId: 3, invoiceId: 7 },
    );
    expect(lines).toEqual([
      debit(10, 21843, { contactId: 3, invoiceId: 7 }),
      credit(40, 9100, { contactId: 3, invoiceId: 7 }),
      credit(41, 12000, { contactId: 3, invoiceId: 7 }),
      credit(20, 743, { contactId: 3, invoiceId: 7 }),
    ]);
  });

  it('any invoice posting balances, however lines are discounted or floored', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            revenueAccountId: fc.integer({ min: 1, max: 3 }),
            netCents: fc.integer({ min: -5000, max: 50000 }),
            taxCents: fc.nat({ max: 5000 }),
          }),
          { minLength: 1, maxLength: 6 },
        ),
        (raw) => {
          const lines = raw.map((l) => ({ ...l, totalCents: Math.max(0, l.netCents + l.taxCents) }));
          const posting = invoicePosting({ receivable: 100, taxPayable: 200 }, lines, {
            contactId: 1,
            invoiceId: 1,
          });
          const total = lines.reduce((s, l) => s + l.totalCents, 0);
          if (total === 0) expect(posting).toEqual([]);
          else expect(isBalanced(posting)).toBe(true);
        },
      ),
    );
  });

  it('balances read on the normal side of each kind of account', () => {
    expect(normalBalance('asset', 500, 200)).toBe(300);
    expect(normalBalance('expense', 500, 200)).toBe(300);
    expect(normalBalance('liability', 200, 500)).toBe(300);
    expect(normalBalance('revenue', 0, 500)).toBe(500);
  });

  it('the default chart has one account per role', () => {
    expect(DEFAULT_ACCOUNTS.map((a) => a.role).sort()).toEqual([...LEDGER_ROLES].sort());
  });
});
