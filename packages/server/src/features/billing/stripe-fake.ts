/**
 * A small local fake of the Stripe API (decision 0125), for the tests and the bench: the real `stripe` SDK is
 * pointed at it (`host`, `port`, `protocol`), so our adapter's real code path runs without the network. It knows
 * what billing uses: PaymentIntents created and confirmed at once, their retrieval, refunds, and Stripe's
 * idempotency (the same key answers the first answer; the same key with other parameters is refused). Stripe's
 * own test payment methods decide the outcome: `pm_card_visa` succeeds, `pm_card_chargeDeclined` and
 * `pm_card_chargeDeclinedInsufficientFunds` are declined with Stripe's messages. It also signs webhook events with
 * the SDK's test header, as Stripe signs them.
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
      'Request-Id': `req_${randomBytes(6).toString('hex')}`,
      ...(replayed ? { 'Idempotent-Replayed': 'true' } : {}),
    });
    res.end(JSON.stringify(answer));
  };
  const error = (type: string, message: string, extra: Json = {}) => ({
    error: { type, message, ...extra },
  });

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
        Object.assign(intent, { status: 'succeeded', amount_received: amount, latest_charge: newId('ch') });
      }
      return { status: 200, answer: intent };
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
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const key = (req.headers['idempotency-key'] as string | undefined) ?? null;
      requests.push({ method, path, idempotencyKey: key });
      if (req.headers.authorization !== `Bearer ${secretKey}`)
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
