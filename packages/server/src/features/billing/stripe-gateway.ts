/**
 * The Stripe gateway (decision 0125) behind billing's `CardGateway`: PaymentIntents created and confirmed at once
 * with the payment method the browser got from Stripe (never a card number), each call with our idempotency key
 * (Stripe answers the same key with the first answer, so a retried transaction charges once); refunds by
 * PaymentIntent; webhooks verified by their signature with the SDK. `apiUrl` points the SDK at another server
 * (the local fake Stripe API of the tests, `STRIPE_API_URL`): the same SDK code path runs either way.
 */
import type Stripe from 'stripe';
import {
  type CardGateway,
  type ChargeResult,
  type ChargeState,
  CONFIRM_MESSAGE,
  type RefundResult,
} from './gateway.ts';

export interface StripeGatewayOptions {
  secretKey: string;
  /** Another API server (http://127.0.0.1:12111); absent: Stripe's own. */
  apiUrl?: string | undefined;
}

/**
 * The SDK is loaded when a tenant's Stripe gateway is first used, not at start: it keeps about 20 MiB resident, and
 * most associations take no card payments through Stripe (decision 0086).
 */
let sdk: typeof Stripe | undefined;
async function loadStripe(): Promise<typeof Stripe> {
  sdk ??= (await import('stripe')).default;
  return sdk;
}

const clients = new Map<string, Stripe>();

/** One SDK client per key and server, kept for the process (the SDK keeps its connections). */
async function stripeClient(options: StripeGatewayOptions): Promise<Stripe> {
  const Stripe = await loadStripe();
  const cacheKey = `${options.apiUrl ?? ''}\n${options.secretKey}`;
  let client = clients.get(cacheKey);
  if (!client) {
    const url = options.apiUrl ? new URL(options.apiUrl) : null;
    client = new Stripe(options.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      ...(url
        ? {
            host: url.hostname,
            port: url.port || (url.protocol === 'https:' ? 443 : 80),
            protocol: url.protocol === 'https:' ? 'https' : 'http',
          }
        : {}),
    });
    clients.set(cacheKey, client);
  }
  return client;
}

/** A refusal the member may read (a card error: declined, insufficient funds, expired), or null for any other. */
function cardMessage(Stripe: typeof import('stripe').default, error: unknown): string | null {
  if (error instanceof Stripe.errors.StripeCardError) return error.message || 'Your card was declined.';
  return null;
}

export class GatewayUnavailableError extends Error {}

export function stripeGateway(options: StripeGatewayOptions): CardGateway {
  return {
    name: 'stripe',
    async lookup(ref): Promise<ChargeState | null> {
      const stripe = await stripeClient(options);
      const Stripe = await loadStripe();
      try {
        const intent = await stripe.paymentIntents.retrieve(ref);
        const status: ChargeState['status'] =
          intent.status === 'succeeded'
            ? 'succeeded'
            : intent.status === 'requires_payment_method' || intent.status === 'canceled'
              ? 'failed'
              : 'pending';
        return {
          ref: intent.id,
          status,
          amountCents: status === 'succeeded' ? intent.amount_received : intent.amount,
          message:
            status === 'failed'
              ? (intent.last_payment_error?.message ?? 'The payment did not go through.')
              : status === 'pending'
                ? 'The payment is not confirmed yet.'
                : null,
          metadata: intent.metadata ?? {},
        };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError) return null;
        throw new GatewayUnavailableError(
          `The card gateway could not be asked about the payment (${(error as Error).message}).`,
        );
      }
    },
    async charge(request): Promise<ChargeResult> {
      const stripe = await stripeClient(options);
      const Stripe = await loadStripe();
      try {
        const intent = await stripe.paymentIntents.create(
          {
            amount: request.amountCents,
            currency: request.currency,
            payment_method: request.methodRef,
            ...(request.customerRef ? { customer: request.customerRef } : {}),
            confirm: true,
            // The card was given on our page; a redirect-based method has nowhere to come back to.
            automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
            description: request.description,
            metadata: request.metadata ?? {},
          },
          { idempotencyKey: request.idempotencyKey },
        );
        if (intent.status === 'succeeded') return { ok: true, ref: intent.id };
        // 3-D Secure: the cardholder confirms in Stripe.js with the PaymentIntent's client secret; we finish it from
        // its state afterwards (`lookup`).
        if (intent.status === 'requires_action' && intent.client_secret)
          return {
            ok: false,
            message: CONFIRM_MESSAGE,
            action: { ref: intent.id, clientSecret: intent.client_secret },
          };
        return {
          ok: false,
          message: intent.last_payment_error?.message ?? 'The payment did not go through.',
        };
      } catch (error) {
        const message = cardMessage(Stripe, error);
        if (message) return { ok: false, message };
        throw new GatewayUnavailableError(
          `The card gateway could not take the payment (${(error as Error).message}).`,
        );
      }
    },
    async refund(request): Promise<RefundResult> {
      const stripe = await stripeClient(options);
      const Stripe = await loadStripe();
      try {
        const refund = await stripe.refunds.create(
          { payment_intent: request.chargeRef, amount: request.amountCents },
          { idempotencyKey: request.idempotencyKey },
        );
        if (refund.status === 'failed' || refund.status === 'canceled')
          return { ok: false, message: 'The card gateway refused the refund.' };
        return { ok: true, ref: refund.id };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeInvalidRequestError)
          return { ok: false, message: error.message };
        throw new GatewayUnavailableError(
          `The card gateway could not refund the payment (${(error as Error).message}).`,
        );
      }
    },
  };
}

/**
 * A webhook's event, checked against the endpoint's signing secret (and its timestamp, five minutes' tolerance);
 * null when the signature does not match.
 */
export async function verifyStripeEvent(
  rawBody: string,
  signature: string,
  secret: string,
): Promise<Stripe.Event | null> {
  const Stripe = await loadStripe();
  try {
    return Stripe.webhooks.constructEvent(rawBody, signature, secret);
  } catch {
    return null;
  }
}
