/**
 * Card gateways (decision 0123). Billing talks to a gateway only through this interface: charge a saved payment
 * method, refund a charge. Card numbers never reach the server: the browser hands the gateway the card and sends
 * us only the gateway's reference. `test` is the offline gateway of demos and tests: its references name the
 * outcome (pm_test_visa is accepted, pm_test_declined refused), as a real gateway's test cards do.
 */
export interface ChargeRequest {
  amountCents: number;
  currency: string;
  methodRef: string;
  customerRef: string | null;
  idempotencyKey: string;
  description: string;
  /** Kept with the charge at the gateway and sent back in its webhooks (the association, the invoice, our key). */
  metadata?: Record<string, string>;
}

/**
 * Accepted, refused, or waiting for the cardholder: the card's bank asks them to confirm the payment (3-D Secure).
 * `action` carries what the browser needs to let the cardholder do so (the gateway's client secret of the charge);
 * the charge is then finished from its state at the gateway (`lookup`), never from what the browser says.
 */
export type ChargeResult =
  | { ok: true; ref: string }
  | { ok: false; message: string; action?: { ref: string; clientSecret: string } };

/** A charge's state at the gateway, with the metadata it was made with (to check whose charge it is). */
export type ChargeState = {
  ref: string;
  status: 'succeeded' | 'failed' | 'pending';
  amountCents: number;
  message: string | null;
  metadata: Record<string, string>;
};

export const CONFIRM_MESSAGE = 'Your bank asks you to confirm this payment.';

export interface RefundRequest {
  chargeRef: string;
  amountCents: number;
  idempotencyKey: string;
}

export type RefundResult = { ok: true; ref: string } | { ok: false; message: string };

export interface CardGateway {
  readonly name: string;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  refund(request: RefundRequest): Promise<RefundResult>;
  /** The charge's state now (null: the gateway does not know it). */
  lookup(ref: string): Promise<ChargeState | null>;
}

export const DECLINED_MESSAGE = 'Your card was declined.';

/** The offline test gateway: deterministic, no network. The same idempotency key answers the same charge. */
export function testGateway(): CardGateway {
  const charges = new Map<string, ChargeResult>();
  return {
    name: 'test',
    async charge(request) {
      const seen = charges.get(request.idempotencyKey);
      if (seen) return seen;
      const result: ChargeResult =
        request.methodRef === 'pm_test_declined' || !request.methodRef.startsWith('pm_test_')
          ? { ok: false, message: DECLINED_MESSAGE }
          : { ok: true, ref: `ch_test_${request.idempotencyKey.replace(/[^A-Za-z0-9]/g, '').slice(-24)}` };
      charges.set(request.idempotencyKey, result);
      return result;
    },
    async refund(request) {
      return { ok: true, ref: `re_test_${request.idempotencyKey.replace(/[^A-Za-z0-9]/g, '').slice(-24)}` };
    },
    // The test gateway never asks the cardholder to confirm: a charge is answered at once, nothing is left to look up.
    async lookup() {
      return null;
    },
  };
}
