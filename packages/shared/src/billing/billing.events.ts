/**
 * The domain events billing publishes (decision 0110): sellers (memberships, events) subscribe in their module and
 * check `sourceKind`. Payloads carry ids, never records.
 */
import { z } from 'zod';

export const BILLING_EVENTS = [
  'invoice.paid',
  'invoice.voided',
  'invoice.reopened',
  'payment.failed',
] as const;
export type BillingEventName = (typeof BILLING_EVENTS)[number];

const id = z.number().int().positive();

/** `invoice.paid` (the balance reached 0), `invoice.voided`, `invoice.reopened` (a paid invoice owes again). */
export const invoiceEventSchema = z.object({
  invoiceId: id,
  contactId: id,
  sourceKind: z.string().nullable(),
  sourceId: z.number().int().nullable(),
});
export type InvoiceEvent = z.infer<typeof invoiceEventSchema>;

/** `payment.failed`: a card charge was refused; `message` says why, in words a member can read. */
export const paymentFailedEventSchema = invoiceEventSchema.extend({ message: z.string() });
export type PaymentFailedEvent = z.infer<typeof paymentFailedEventSchema>;
