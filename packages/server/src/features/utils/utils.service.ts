import { type Database, payments, refunds } from '@guildhall/db';
import {
  centsToDecimalString,
  FULL_NAME_INVALID_MESSAGE,
  parseFullName,
  type RefundValidateBody,
  type ValidationResult,
  validateEmailAddress,
  validateRefund,
} from '@guildhall/shared';
import { and, eq, sql } from 'drizzle-orm';
import { type AuthContext, tenantTx } from '../../platform/context.ts';

/** POST /api/utils/email/validate: the shared email rule, answered as `{Data: {Valid, ErrorMessages}}`. */
export function validateEmail(emailAddress: string): { Data: ValidationResult } {
  return { Data: validateEmailAddress(emailAddress) };
}

export interface ParsedNameAnswer {
  Data: { Name: { FirstName: string; LastName: string }; Valid: boolean; ErrorMessages: string[] };
}

/**
 * GET /api/Signup/ParseName/{name}: the shared full-name parser. A name without both a first and a last name is
 * still a 200, with Valid false and the field message, so the sign-up form can mark the field; Name then holds
 * whatever part was found ("Cher" gives FirstName "Cher" and an empty LastName).
 */
export function parseName(name: string): ParsedNameAnswer {
  const parsed = parseFullName(name);
  return {
    Data: {
      Name: { FirstName: parsed.FirstName, LastName: parsed.LastName },
      Valid: parsed.Valid,
      ErrorMessages: parsed.Valid ? [] : [FULL_NAME_INVALID_MESSAGE],
    },
  };
}

export interface RefundAnswer {
  Data: { Valid: boolean };
  ErrorMessages: string[];
}

/**
 * POST /api/utils/refund/validate: reads the payment and what was already refunded on it, in the caller's tenant
 * only (row-level security), and applies the shared refund rule. A payment of another tenant, a deleted one and an
 * unknown id all answer the same "not found" message.
 */
export async function validateRefundRequest(
  database: Database,
  auth: AuthContext,
  body: RefundValidateBody,
): Promise<RefundAnswer> {
  const payment = await tenantTx(database, auth, async (tx) => {
    const [paid] = await tx
      .select({ cents: payments.amountCents })
      .from(payments)
      .where(
        and(
          eq(payments.tenantId, auth.tenantId),
          eq(payments.id, body.PaymentId),
          eq(payments.isDeleted, false),
          eq(payments.status, 'completed'),
        ),
      )
      .limit(1);
    if (!paid) return null;
    const [refunded] = await tx
      .select({ cents: sql<string>`coalesce(sum(${refunds.amountCents}), 0)::text` })
      .from(refunds)
      .where(and(eq(refunds.tenantId, auth.tenantId), eq(refunds.paymentId, body.PaymentId)));
    return {
      PaidAmount: centsToDecimalString(Number(paid.cents)),
      RefundedAmount: centsToDecimalString(Number(refunded?.cents ?? 0)),
    };
  });
  const result = validateRefund(body, payment);
  return { Data: { Valid: result.Valid }, ErrorMessages: result.ErrorMessages };
}
