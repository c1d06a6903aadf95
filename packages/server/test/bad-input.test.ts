/**
 * R4: every registered route answers hostile input — malformed JSON, wrong types, oversize strings, unknown
 * fields, negative and huge numbers — with a 4xx or a normal answer, never a 5xx or a stack trace. Enumerates the
 * routes, so new routes are covered without editing this test.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenant, signIn, type TenantWithUsers, type TestContext, testApp } from './helpers.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let cookie = '';

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
});
afterAll(() => ctx.close());

/** Routes that end or switch the caller's session are exercised last and with a fresh session each time. */
const SESSION_CHANGING =
  /logout|impersonate|change-password|change-username|takeaction|security-question|login/;

const hostileScalar = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ minLength: 5000, maxLength: 6000 }),
  fc.integer(),
  fc.constantFrom(-1, 0, -2_147_483_648, 2 ** 53, Number.MAX_SAFE_INTEGER, 1e308, -1e308),
  fc.double({ noNaN: false }),
  fc.boolean(),
  fc.constant(null),
);
const hostileBody = fc.oneof(
  fc.dictionary(fc.string({ maxLength: 12 }), hostileScalar, { maxKeys: 6 }),
  fc.dictionary(
    fc.constantFrom(
      'id',
      'Id',
      'username',
      'password',
      'Title',
      'Content',
      'Message',
      'Level',
      'flags',
      'settings',
      'name',
      'Amount',
      'PaymentId',
      'emailAddress',
      '$skip',
      '$top',
      'Criteria',
      'ColumnsToShow',
      'ImportId',
      'Mapping',
    ),
    fc.oneof(hostileScalar, fc.array(hostileScalar, { maxLength: 3 }), fc.object({ maxDepth: 2 })),
    { maxKeys: 6 },
  ),
  fc.array(hostileScalar, { maxLength: 4 }),
  hostileScalar,
);
const hostileParam = fc.oneof(
  fc.constantFrom(
    '-1',
    '0',
    '99999999999999999999',
    '1e9',
    'NaN',
    '%00',
    '..%2F..%2Fetc',
    'abc',
    "1' or '1'='1",
  ),
  fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent),
);

function fill(url: string, param: string): string {
  return url.replace(/:(\w+)/g, param).replace(/\*/g, param);
}

describe('R4: hostile input on every route', () => {
  it('never answers 5xx or a stack trace', async () => {
    cookie = (await signIn(ctx.app, t.admin)).cookie;
    const routes = [...ctx.app.apiRoutes].sort(
      (a, b) => Number(SESSION_CHANGING.test(a.url)) - Number(SESSION_CHANGING.test(b.url)),
    );
    let calls = 0;
    for (const route of routes) {
      const changesSession = SESSION_CHANGING.test(route.url);
      await fc.assert(
        fc.asyncProperty(hostileParam, hostileBody, fc.boolean(), async (param, body, rawJson) => {
          if (changesSession) cookie = (await signIn(ctx.app, t.admin)).cookie;
          const res = await ctx.app.inject({
            method: route.method as 'POST',
            url: `${fill(route.url, param)}?$skip=${encodeURIComponent(String(param))}&$top=-5&$orderby=${encodeURIComponent('name; drop table users')}`,
            headers: { cookie, 'content-type': 'application/json' },
            ...(route.method === 'GET' || route.method === 'DELETE'
              ? {}
              : { payload: rawJson ? '{"broken": ' : JSON.stringify(body) }),
          });
          calls += 1;
          if (res.statusCode >= 500)
            throw new Error(
              `${route.method} ${route.url} answered ${res.statusCode}: ${res.body.slice(0, 300)}`,
            );
          expect(res.body).not.toMatch(/\bat .+\.(ts|js):\d+:\d+/);
        }),
        { numRuns: 12, seed: 20261122 },
      );
    }
    expect(calls).toBeGreaterThan(ctx.app.apiRoutes.length * 10);
  }, 300_000);
});

/** Multipart bodies as a hostile client sends them: `[what, content-type, body]`. */
function hostileMultipart(): [string, string, Buffer][] {
  const b = 'gh-r4-boundary';
  const type = `multipart/form-data; boundary=${b}`;
  const file = (name: string, bytes: string, field = 'file') =>
    `--${b}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n${bytes}\r\n`;
  const field = (name: string, value: string) =>
    `--${b}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const csv = 'Name,Email\nAda,ada@example.org\n';
  const end = `--${b}--\r\n`;
  return [
    ['no boundary', 'multipart/form-data', Buffer.from(file('a.csv', csv) + end)],
    ['an empty boundary', 'multipart/form-data; boundary=', Buffer.from(file('a.csv', csv) + end)],
    [
      'a boundary the body does not use',
      'multipart/form-data; boundary=other',
      Buffer.from(file('a.csv', csv) + end),
    ],
    ['a 200-character boundary', `multipart/form-data; boundary=${'x'.repeat(200)}`, Buffer.from('--x\r\n')],
    ['a body cut in the file', type, Buffer.from(file('a.csv', csv).slice(0, 120))],
    ['a part without headers', type, Buffer.from(`--${b}\r\n\r\n${csv}\r\n${end}`)],
    ['no file part, only a field', type, Buffer.from(field('file', csv) + end)],
    ['no part at all', type, Buffer.from(end)],
    ['an extra field beside the file', type, Buffer.from(field('Mapping', '{}') + file('a.csv', csv) + end)],
    ['an extra field after the file', type, Buffer.from(file('a.csv', csv) + field('x', 'y') + end)],
    ['the file under another field name', type, Buffer.from(file('a.csv', csv, 'upload') + end)],
    ['two files', type, Buffer.from(file('a.csv', csv) + file('b.csv', csv) + end)],
    ['an empty file', type, Buffer.from(file('a.csv', '') + end)],
    ['a header-only file', type, Buffer.from(file('a.csv', 'Name,Email\n') + end)],
    ['a 5,000-character field', type, Buffer.from(field('file', 'x'.repeat(5000)) + end)],
    ['an empty body', type, Buffer.alloc(0)],
  ];
}

describe('R4: hostile multipart bodies on every route that takes a body', () => {
  it('answers each with a 4xx and a JSON message, never a 5xx or a stack trace', async () => {
    cookie = (await signIn(ctx.app, t.admin)).cookie;
    const routes = ctx.app.apiRoutes.filter((r) => r.method === 'POST' || r.method === 'PUT');
    let uploads = 0;
    for (const route of routes) {
      for (const [what, contentType, payload] of hostileMultipart()) {
        if (SESSION_CHANGING.test(route.url)) cookie = (await signIn(ctx.app, t.admin)).cookie;
        const res = await ctx.app.inject({
          method: route.method as 'POST',
          url: fill(route.url, '1'),
          headers: { cookie, 'content-type': contentType },
          payload,
        });
        const where = `${route.method} ${route.url} with ${what}: ${res.statusCode} ${res.body.slice(0, 300)}`;
        expect(res.statusCode, where).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, where).toBeLessThan(500);
        expect(typeof (res.json() as { message?: unknown }).message, where).toBe('string');
        expect(res.body, where).not.toMatch(/\bat .+\.(ts|js):\d+:\d+/);
        if (route.url.endsWith('/upload')) uploads += 1;
      }
    }
    // The multipart route itself is among them (the others refuse the media type).
    expect(uploads).toBeGreaterThan(0);
  }, 300_000);
});
