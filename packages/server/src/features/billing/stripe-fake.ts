/**
 * A small local fake of the Stripe API (decision 0125), for the tests and the bench: the real `stripe` SDK is
 * pointed at it (`host`, `port`, `protocol`), so our adapter's real code path runs without the network. It knows
 * what billing uses: PaymentIntents created and confirmed at once, their retrieval, refunds, and Stripe's
 * idempotency (the same key answers the first answer; the same key with other parameters is refused). Stripe's
 * own test payment methods decide the outcome: `pm_card_visa` succeeds, `pm_card_chargeDeclined` and
 * `pm_card_chargeDeclinedInsufficientFunds` are declined with Stripe's messages, `pm_card_authenticationRequired`
 * (3-D Secure) leaves the PaymentIntent in `requires_action` until the cardholder completes or fails the bank's
 * check: `authenticate()` here, or from a browser the stand-in Stripe.js's `POST
 * /v1/payment_intents/:id/test_authenticate` with the client secret and a publishable key (as Stripe's own test
 * 3-D Secure page offers "Complete" and "Fail"). A browser may read a PaymentIntent by its client secret with a
 * publishable key, as Stripe.js does. It also signs webhook events with the SDK's test header, as Stripe signs them.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

type Json = Record<string, unknown>;

/** `a[b][c]=1` form fields as nested objects (the SDK's encoding). */
function parseForm(body: string): Json {
  const out: Json = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node = out;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else {
        node[part] ??= {};
        node = node[part] as Json;
      }
    });
  }
  return out;
}

const DECLINES: Record<string, { message: string; decline_code: string }> = {
  pm_card_chargeDeclined: { message: 'Your card was declined.', decline_code: 'generic_decline' },
  pm_card_chargeDeclinedInsufficientFunds: {
    message: 'Your card has insufficient funds.',
    decline_code: 'insufficient_funds',
  },
};

/** Stripe's message when the cardholder fails the bank's check. */
export const AUTHENTICATION_FAILED =
  'We are unable to authenticate your payment method. Please choose a different payment method and try again.';

export interface FakeStripe {
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** PaymentIntents created, by id. */
  intents: Map<string, Json>;
  refunds: Map<string, Json>;
  /** Requests received (method, path, idempotency key), in order. */
  requests: { method: string; path: string; idempotencyKey: string | null }[];
  /** An event of `type` about `object`, with the Stripe-Signature header Stripe would send for it. */
  signedEvent(type: string, object: Json, id?: string): { payload: string; signature: string; id: string };
  /** The cardholder completes (or fails) the bank's check of a PaymentIntent in `requires_action`. */
  authenticate(intentId: string, outcome: 'complete' | 'fail'): Json;
  close(): Promise<void>;
}

export async function startFakeStripe(
  options: { secretKey?: string; webhookSecret?: string } = {},
): Promise<FakeStripe> {
  const secretKey = options.secretKey ?? `sk_test_fake_${randomBytes(6).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? `whsec_fake_${randomBytes(12).toString('hex')}`;
  const intents = new Map<string, Json>();
  const refunds = new Map<string, Json>();
  const requests: FakeStripe['requests'] = [];
  const seen = new Map<string, { body: string; status: number; answer: Json }>();
  let counter = 0;
  const newId = (prefix: string) =>
    `${prefix}_fake${(++counter).toString().padStart(6, '0')}${randomBytes(4).toString('hex')}`;

  const send = (res: ServerResponse, status: number, answer: Json, replayed = false) => {
    res.writeHead(status, {
      'Content-Type': 'application/json',
      // Stripe.js calls the API from the page's origin.
      'Access-Control-Allow-Origin': '*',
      'Request-Id': `req_${randomBytes(6).toString('hex')}`,
      ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}),
    });
    res.end(JSON.stringify(answer));
  };
  const error = (type: string, message: string, extra: Json = {}) => ({
    error: { type, message, ...extra },
  });

  function authenticate(intent: Json, outcome: 'complete' | 'fail'): Json {
    if (outcome === 'complete')
      Object.assign(intent, {
        status: 'succeeded',
        amount_received: intent.amount,
        latest_charge: newId('ch'),
        next_action: null,
      });
    else
      Object.assign(intent, {
        status: 'requires_payment_method',
        next_action: null,
        last_payment_error: {
          type: 'invalid_request_error',
          code: 'payment_intent_authentication_failure',
          message: AUTHENTICATION_FAILED,
          payment_method: { id: intent.payment_method },
        },
      });
    return intent;
  }

  /** A browser's call with a publishable key, about the PaymentIntent whose client secret it holds. */
  function publishable(
    path: string,
    form: Json,
    query: URLSearchParams,
    bearer: string | undefined,
  ): boolean {
    const key = String(form.key ?? query.get('key') ?? bearer?.replace(/^Bearer /, '') ?? '');
    const secret = String(form.client_secret ?? query.get('client_secret') ?? '');
    const id = /^\/v1\/payment_intents\/([\w]+)/.exec(path)?.[1] ?? '';
    return key.startsWith('pk_') && secret !== '' && intents.get(id)?.client_secret === secret;
  }

  function route(method: string, path: string, form: Json): { status: number; answer: Json } {
    if (method === 'POST' && path === '/v1/payment_intents') {
      const amount = Number(form.amount);
      if (!Number.isInteger(amount) || amount < 50)
        return {
          status: 400,
          answer: error('invalid_request_error', 'Amount must be at least 50 cents', { param: 'amount' }),
        };
      const id = newId('pi');
      const methodRef = String(form.payment_method ?? '');
      const intent: Json = {
        id,
        object: 'payment_intent',
        amount,
        amount_received: 0,
        currency: String(form.currency ?? 'usd'),
        description: form.description ?? null,
        metadata: form.metadata ?? {},
        payment_method: methodRef || null,
        customer: form.customer ?? null,
        status: 'requires_payment_method',
        client_secret: `${id}_secret_${randomBytes(8).toString('hex')}`,
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        last_payment_error: null,
        latest_charge: null,
      };
      intents.set(id, intent);
      if (form.confirm === 'true') {
        const decline = DECLINES[methodRef];
        if (decline || !methodRef.startsWith('pm_')) {
          const d = decline ?? { message: 'No such PaymentMethod.', decline_code: 'invalid' };
          const lastError = {
            type: 'card_error',
            code: 'card_declined',
            ...d,
            payment_method: { id: methodRef },
          };
          Object.assign(intent, { status: 'requires_payment_method', last_payment_error: lastError });
          return {
            status: 402,
            answer: error('card_error', d.message, {
              code: 'card_declined',
              decline_code: d.decline_code,
              payment_intent: intent,
            }),
          };
        }
        if (methodRef === 'pm_card_authenticationRequired')
          Object.assign(intent, {
            status: 'requires_action',
            next_action: {
              type: 'use_stripe_sdk',
              use_stripe_sdk: {
                type: 'three_d_secure_redirect',
                stripe_js: `https://hooks.stripe.com/3d_secure_2/${id}`,
              },
            },
          });
        else
          Object.assign(intent, { status: 'succeeded', amount_received: amount, latest_charge: newId('ch') });
      }
      return { status: 200, answer: intent };
    }
    const auth = /^\/v1\/payment_intents\/([\w]+)\/test_authenticate$/.exec(path);
    if (method === 'POST' && auth) {
      const intent = intents.get(auth[1] ?? '');
      if (!intent)
        return {
          status: 404,
          answer: error('invalid_request_error', `No such payment_intent: '${auth[1]}'`),
        };
      if (intent.status !== 'requires_action')
        return {
          status: 400,
          answer: error('invalid_request_error', `This PaymentIntent's status is ${String(intent.status)}.`, {
            code: 'payment_intent_unexpected_state',
          }),
        };
      return { status: 200, answer: authenticate(intent, form.outcome === 'complete' ? 'complete' : 'fail') };
    }
    const get = /^\/v1\/payment_intents\/([\w]+)$/.exec(path);
    if (method === 'GET' && get) {
      const intent = intents.get(get[1] ?? '');
      return intent
        ? { status: 200, answer: intent }
        : { status: 404, answer: error('invalid_request_error', `No such payment_intent: '${get[1]}'`) };
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const intent = intents.get(String(form.payment_intent ?? ''));
      if (intent?.status !== 'succeeded')
        return {
          status: 400,
          answer: error('invalid_request_error', `No such payment_intent: '${String(form.payment_intent)}'`),
        };
      const refunded = [...refunds.values()]
        .filter((r) => r.payment_intent === intent.id)
        .reduce((s, r) => s + Number(r.amount), 0);
      const amount = form.amount === undefined ? Number(intent.amount) - refunded : Number(form.amount);
      if (refunded + amount > Number(intent.amount))
        return {
          status: 400,
          answer: error(
            'invalid_request_error',
            `Refund amount (${amount}) is greater than unrefunded amount on charge (${Number(intent.amount) - refunded})`,
            { code: 'amount_too_large' },
          ),
        };
      const refund: Json = {
        id: newId('re'),
        object: 'refund',
        amount,
        currency: intent.currency,
        payment_intent: intent.id,
        charge: intent.latest_charge,
        status: 'succeeded',
        created: Math.floor(Date.now() / 1000),
      };
      refunds.set(String(refund.id), refund);
      return { status: 200, answer: refund };
    }
    return {
      status: 404,
      answer: error('invalid_request_error', `Unrecognized request URL (${method}: ${path}).`),
    };
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      const method = req.method ?? 'GET';
      const url = new URL(req.url ?? '/', 'http://fake');
      const path = url.pathname;
      const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
      if (method === 'OPTIONS') {
        res.writeHead(204, {
          'Access-Control-Allow-Origin': '*',
          'Access-Control-Allow-Methods': 'GET, POST',
          'Access-Control-Allow-Headers': 'Authorization, Content-Type',
        });
        return res.end();
      }
      requests.push({ method, path, idempotencyKey: key });
      if (
        req.headers.authorization !== `Bearer ${secretKey}` &&
        !publishable(path, parseForm(body), url.searchParams, req.headers.authorization)
      )
        return send(
          res,
          401,
          error('invalid_request_error', 'Invalid API Key provided: the fake knows only its own key.'),
        );
      if (method === 'POST' && key) {
        const first = seen.get(key);
        if (first) {
          if (first.body !== body)
            return send(
              res,
              400,
              error(
                'idempotency_error',
                'Keys for idempotent requests can only be used with the same parameters they were first used with.',
              ),
            );
          return send(res, first.status, first.answer, true);
        }
      }
      const { status, answer } = route(method, path, parseForm(body));
      if (method === 'POST' && key) seen.set(key, { body, status, answer });
      send(res, status, answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    webhookSecret,
    intents,
    refunds,
    requests,
    authenticate(intentId, outcome) {
      const intent = intents.get(intentId);
      if (intent?.status !== 'requires_action')
        throw new Error(`${intentId} does not wait for the cardholder`);
      return authenticate(intent, outcome);
    },
    signedEvent(type, object, id = newId('evt')) {
      const payload = JSON.stringify({
        id,
        object: 'event',
        type,
        api_version: '2025-01-01',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        data: { object },
      });
      const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
      return { payload, signature, id };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
