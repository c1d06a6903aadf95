import { describe, expect, it } from 'vitest';
import {
  invoiceImportMappingSchema,
  invoiceImportRowOf,
  invoiceMappingProblems,
  suggestInvoiceMapping,
} from './invoice-import.ts';

const mapping = suggestInvoiceMapping([
  'Account Number',
  'E-mail',
  'Reference',
  'Item',
  'Qty',
  'Price',
  'GL account',
  'Invoice date',
  'Due',
  'Notes',
]);

function row(cells: Partial<Record<string, string>>): Record<string, string> {
  return {
    'Account Number': 'A0000012',
    'E-mail': '',
    Reference: 'R1',
    Item: 'Annual dues',
    Qty: '2',
    Price: '$1,250.50',
    'GL account': '4100',
    'Invoice date': '2026-11-01',
    Due: '2026-12-01',
    Notes: 'Thank you',
    ...cells,
  } as Record<string, string>;
}

describe('create invoices from file', () => {
  it('suggests the column of each field from its header, each column once', () => {
    expect(mapping).toEqual({
      AccountNumber: 'Account Number',
      Email: 'E-mail',
      Reference: 'Reference',
      Description: 'Item',
      Quantity: 'Qty',
      UnitPrice: 'Price',
      RevenueAccount: 'GL account',
      IssueDate: 'Invoice date',
      DueDate: 'Due',
      Memo: 'Notes',
    });
    // "Invoice" names the reference; the date column then has to say it is a date.
    expect(suggestInvoiceMapping(['invoice', 'date', 'amount', 'member_id'])).toEqual({
      Reference: 'invoice',
      IssueDate: 'date',
      UnitPrice: 'amount',
      AccountNumber: 'member_id',
    });
    expect(suggestInvoiceMapping(['Colour', 'Size'])).toEqual({});
  });

  it('asks for who is billed, what and for how much', () => {
    expect(invoiceMappingProblems(mapping)).toEqual([]);
    expect(invoiceMappingProblems({})).toEqual([
      'Map the account number or the email column.',
      'Map the item / description column.',
      'Map the unit price column.',
    ]);
    expect(invoiceMappingProblems({ Email: 'e', Description: 'd', UnitPrice: 'p' })).toEqual([]);
  });

  it('reads a row into an invoice line, the price in cents', () => {
    expect(invoiceImportRowOf(row({}), mapping)).toEqual({
      ok: true,
      line: {
        accountNumber: 'A0000012',
        email: null,
        reference: 'R1',
        description: 'Annual dues',
        quantity: 2,
        unitPriceCents: 125050,
        revenueAccount: '4100',
        issueDate: '2026-11-01',
        dueDate: '2026-12-01',
        memo: 'Thank you',
      },
    });
    // Quantity 1 when the column is empty; the email folded; optional cells null.
    const r = invoiceImportRowOf(
      row({
        'Account Number': '',
        'E-mail': 'Ada@Example.org',
        Qty: '',
        Price: '0',
        Reference: '',
        Notes: ' ',
        'Invoice date': '',
        Due: '',
      }),
      mapping,
    );
    expect(r).toMatchObject({
      ok: true,
      line: { email: 'ada@example.org', quantity: 1, unitPriceCents: 0, reference: null, memo: null },
    });
  });

  it('refuses a row with every reason at once', () => {
    const r = invoiceImportRowOf(
      row({
        'Account Number': '',
        'E-mail': 'not-an-address',
        Item: '',
        Qty: '0',
        Price: '12.345',
        'Invoice date': '2026-02-30',
        Due: '11/01/2026',
      }),
      mapping,
    );
    expect(r).toEqual({
      ok: false,
      reasons: [
        '"not-an-address" is not an email address.',
        'Enter a description.',
        'The quantity must be a whole number of at least 1.',
        '"12.345" is not a price (zero or more, at most two decimals).',
        'Enter the invoice date as YYYY-MM-DD.',
        'Enter the due date as YYYY-MM-DD.',
      ],
    });
    expect(invoiceImportRowOf(row({ 'Account Number': '', 'E-mail': '' }), mapping)).toEqual({
      ok: false,
      reasons: ['Give the contact’s account number or email.'],
    });
    expect(invoiceImportRowOf(row({ Price: '' }), mapping)).toEqual({
      ok: false,
      reasons: ['Enter the unit price.'],
    });
    expect(invoiceImportRowOf(row({ Item: 'x'.repeat(501), Qty: '1.5' }), mapping)).toEqual({
      ok: false,
      reasons: [
        'The description is longer than 500 characters.',
        'The quantity must be a whole number of at least 1.',
      ],
    });
    expect(invoiceImportRowOf(row({ Price: '-5' }), mapping).ok).toBe(false);
    expect(invoiceImportRowOf(row({ Price: '100000001' }), mapping).ok).toBe(false);
    expect(invoiceImportRowOf(row({ 'Invoice date': '2026-12-02', Due: '2026-12-01' }), mapping)).toEqual({
      ok: false,
      reasons: ['The due date cannot be before the invoice date.'],
    });
  });

  it('takes a mapping of known fields only', () => {
    expect(invoiceImportMappingSchema.safeParse({ Email: 'E-mail' }).success).toBe(true);
    expect(invoiceImportMappingSchema.safeParse({ Colour: 'x' }).success).toBe(false);
  });
});
