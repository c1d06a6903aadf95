import { type DecimalInput, formatMoney, parseDecimal, tryToCents } from '../platform/fields/money.ts';
import { type ValidationResult, validationResult } from '../platform/messages.rules.ts';

/** The refund model posted to POST /api/utils/refund/validate. Amount is in major units, as typed. */
export interface RefundModel {
  PaymentId: number;
  Amount: DecimalInput;
  RefundDate?: string | null;
  Reason?: string | null;
}

/** What the server knows of the payment being refunded, in major units as stored (numeric columns). */
export interface RefundablePayment {
  PaidAmount: DecimalInput;
  RefundedAmount?: DecimalInput | null;
}

/**
 * Validates a refund before it proceeds (spec 000 section 5: "Refund is validated by the server before
 * proceeding; on failure its messages are shown"). The payment must exist (the caller passes null when it is not
 * found in the tenant), and the amount must be positive, in whole cents, and no more than what was paid less what
 * was already refunded.
 */
export function validateRefund(
  model: RefundModel,
  payment: RefundablePayment | null | undefined,
  options: { currency?: string } = {},
): ValidationResult {
  if (!payment) return validationResult(['We could not find that payment.']);
  const money = (cents: number) => formatMoney(cents, { currency: options.currency ?? 'USD' });
  const decimal = parseDecimal(model.Amount);
  const amount = tryToCents(model.Amount);
  if (decimal === null || amount === null)
    return validationResult(['Enter the amount to refund, like 25.00.']);
  if (decimal.scale > 2 && decimal.units % 10n ** BigInt(decimal.scale - 2) !== 0n) {
    return validationResult(['Enter the refund amount in dollars and cents, with at most two decimals.']);
  }
  if (amount <= 0) return validationResult(['The refund amount must be more than zero.']);
  const paid = Math.max(0, tryToCents(payment.PaidAmount) ?? 0);
  const refunded = Math.max(0, tryToCents(payment.RefundedAmount ?? 0) ?? 0);
  const refundable = Math.max(0, paid - refunded);
  if (refundable === 0) {
    return validationResult(
      refunded > 0
        ? [`This payment has already been refunded in full (${money(refunded)}).`]
        : ['Nothing was paid on this payment, so there is nothing to refund.'],
    );
  }
  if (amount > refundable) {
    return validationResult([
      refunded > 0
        ? `The refund of ${money(amount)} is more than the ${money(refundable)} left to refund on this payment (${money(paid)} paid, ${money(refunded)} already refunded).`
        : `The refund of ${money(amount)} is more than the ${money(paid)} paid.`,
    ]);
  }
  return validationResult([]);
}
