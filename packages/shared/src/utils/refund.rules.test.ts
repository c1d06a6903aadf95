import { describe, expect, it } from 'vitest';
import { validateRefund } from './refund.rules.ts';

const payment = { PaidAmount: '100.00', RefundedAmount: '0.00' };

describe('refund validation for POST /api/utils/refund/validate (spec 000 §5: "Refund is validated by the server before proceeding; on failure its messages are shown.")', () => {
  it.each([
    [{ PaymentId: 1, Amount: 25 }, payment],
    [{ PaymentId: 1, Amount: '100' }, payment],
    [
      { PaymentId: 1, Amount: '50.10' },
      { PaidAmount: 100.1, RefundedAmount: 50 },
    ],
    [{ PaymentId: 1, Amount: '1.500' }, { PaidAmount: 2 }],
  ])('accepts %j against %j', (model, paid) => {
    expect(validateRefund(model, paid)).toEqual({ Valid: true, ErrorMessages: [] });
  });

  it.each([
    [{ PaymentId: 9, Amount: 10 }, null, 'We could not find that payment.'],
    [{ PaymentId: 1, Amount: 'ten' }, payment, 'Enter the amount to refund, like 25.00.'],
    [
      { PaymentId: 1, Amount: '1.005' },
      payment,
      'Enter the refund amount in dollars and cents, with at most two decimals.',
    ],
    [{ PaymentId: 1, Amount: 0 }, payment, 'The refund amount must be more than zero.'],
    [{ PaymentId: 1, Amount: -5 }, payment, 'The refund amount must be more than zero.'],
    [{ PaymentId: 1, Amount: 120 }, payment, 'The refund of $120.00 is more than the $100.00 paid.'],
    [
      { PaymentId: 1, Amount: 60 },
      { PaidAmount: '100.00', RefundedAmount: '50.00' },
      'The refund of $60.00 is more than the $50.00 left to refund on this payment ($100.00 paid, $50.00 already refunded).',
    ],
    [
      { PaymentId: 1, Amount: 1 },
      { PaidAmount: 100, RefundedAmount: 100 },
      'This payment has already been refunded in full ($100.00).',
    ],
    [
      { PaymentId: 1, Amount: 1 },
      { PaidAmount: 0 },
      'Nothing was paid on this payment, so there is nothing to refund.',
    ],
  ])('refuses %j against %j', (model, paid, message) => {
    expect(validateRefund(model, paid)).toEqual({ Valid: false, ErrorMessages: [message] });
  });

  it('names amounts in the tenant currency', () => {
    expect(
      validateRefund({ PaymentId: 1, Amount: 20 }, { PaidAmount: 10 }, { currency: 'CAD' }).ErrorMessages[0],
    ).toBe('The refund of CA$20.00 is more than the CA$10.00 paid.');
  });
});
