import { describe, expect, it } from 'vitest';
import { invoiceEventSchema, paymentFailedEventSchema } from './billing.events.ts';
import { newInvoiceSchema, newPaymentSchema } from './billing.schema.ts';

describe('billing wire shapes', () => {
  it('an invoice event names the invoice, the contact and the source', () => {
    expect(
      invoiceEventSchema.parse({ invoiceId: 1, contactId: 2, sourceKind: 'membership', sourceId: 3 }),
    ).toEqual({
      invoiceId: 1,
      contactId: 2,
      sourceKind: 'membership',
      sourceId: 3,
    });
    expect(
      paymentFailedEventSchema.safeParse({ invoiceId: 1, contactId: 2, sourceKind: null, sourceId: null })
        .success,
    ).toBe(false);
  });

  it('amounts are whole cents and dates are calendar dates', () => {
    expect(
      newInvoiceSchema.safeParse({
        contactId: 1,
        lines: [{ description: 'x', unitPriceCents: 1.5, quantity: 1 }],
      }).success,
    ).toBe(false);
    expect(newInvoiceSchema.safeParse({ contactId: 1, lines: [], issueDate: '1/2/2026' }).success).toBe(
      false,
    );
    expect(newPaymentSchema.safeParse({ contactId: 1, amountCents: 100, method: 'barter' }).success).toBe(
      false,
    );
    expect(
      newPaymentSchema.safeParse({ contactId: 1, amountCents: 100, method: 'check', checkNumber: '12' })
        .success,
    ).toBe(true);
  });
});
