/**
 * P3 probe: the contacts list through HTTP against its SQL run directly, on an existing database
 * (DATABASE_URL, seeded with `npm run seed -- --tenant bench`). For profiling the request path between bench runs:
 *   DATABASE_URL=… node --cpu-prof bench/src/p3-probe.ts [rounds]
 */

import { mkdtempSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, q, raw, rowsOf, runFragments, withTenantTx } from '@guildhall/db';
import { createUser } from '@guildhall/db/seed/factories';
import { buildApp } from '@guildhall/server';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../packages/server/src/platform/config.ts';
import { RawHttpClient } from './raw-http.ts';

const url = process.env.DATABASE_URL;
const dataDir = process.env.DATA_DIR;
if (!url && !dataDir) throw new Error('DATABASE_URL or DATA_DIR');
const rounds = Number(process.argv[2] ?? 400);
const memory = dataDir === 'memory';
const database = await openDatabase(url ? { databaseUrl: url, poolSize: 10 } : memory ? {} : { dataDir });
await database.migrate();
await database.pglite?.exec('RESET ROLE');
if (memory && database.pglite) {
  // In memory, as the bench runs PGlite: a tenant of 100,000 generated contacts.
  const { bulkSeedContacts, pgliteTarget } = await import('@guildhall/seed/bulk');
  const { createTenant } = await import('@guildhall/db/seed/factories');
  const t = await createTenant(database.db, { name: 'Bench', slug: 'bench' });
  await bulkSeedContacts(pgliteTarget(database.pglite), { tenantId: t.id, count: 100_000 });
}
const [tenant] = rowsOf<{ id: string }>(
  await database.ownerDb.execute(sql`select id from tenants where slug = 'bench'`),
);
if (!tenant) throw new Error('no tenant bench');
const username = `probe.${process.pid}`;
const user = await createUser(database.db, {
  tenantId: tenant.id,
  username,
  password: 'probe-password-2026',
  role: 'admin',
});
await database.pglite?.exec('SET ROLE guildhall_app');
const config = {
  ...loadConfig({}),
  dataDir: mkdtempSync(join(tmpdir(), 'p3-')),
  publicUrl: 'http://bench.local',
  smtpUrl: undefined,
};
const app = await buildApp({ database, config });
// PROBE_PHASES=1: where a request's time goes between Fastify's hooks (means over the timed calls, microseconds).
const phases = { requests: 0, toOnRequest: 0, toPreHandler: 0, handler: 0, toResponse: 0 };
if (process.env.PROBE_PHASES) {
  const at = new WeakMap<object, number[]>();
  // The raw request's arrival, before any of the app's hooks.
  const arrived = new WeakMap<object, number>();
  app.server.prependListener('request', (raw) => arrived.set(raw, performance.now()));
  app.addHook('onRequest', async (req) => {
    at.set(req, [arrived.get(req.raw) ?? performance.now(), performance.now()]);
  });
  app.addHook('preHandler', async (req) => {
    at.get(req)?.push(performance.now());
  });
  app.addHook('onSend', async (req) => {
    at.get(req)?.push(performance.now());
  });
  app.addHook('onResponse', async (req) => {
    const t = at.get(req);
    if (!t || t.length < 4) return;
    phases.requests++;
    phases.toOnRequest += (t[1]! - t[0]!) * 1000;
    phases.toPreHandler += (t[2]! - t[1]!) * 1000;
    phases.handler += (t[3]! - t[2]!) * 1000;
    phases.toResponse += (performance.now() - t[3]!) * 1000;
  });
}
// The floor: the same app answering a prepared answer of the list's size, with no session and no database.
let floorAnswer = '';
app.post('/probe/floor', async (_req, reply) => reply.type('application/json').send(floorAnswer));
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
  new Promise<{ status: number; text: string; headers: Record<string, unknown> }>((resolve, reject) => {
    const req = request(`${origin}${path}`, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          text: Buffer.concat(chunks).toString(),
          headers: res.headers,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
const login = await send(
  'POST',
  '/api/auth/login',
  { 'content-type': 'application/json' },
  JSON.stringify({ username, password: 'probe-password-2026' }),
);
const cookie = String((login.headers['set-cookie'] as string[] | undefined)?.[0] ?? '').split(';')[0] ?? '';
const path = '/api/contacts/contacts/contactData?$top=50&$skip=0&$orderby=DisplayName%20asc';
const body = JSON.stringify({ Id: 1 });
{
  const r = await send('POST', path, { cookie, 'content-type': 'application/json', origin }, body);
  const j = JSON.parse(r.text);
  floorAnswer = r.text;
  console.log(
    'response bytes',
    r.text.length,
    Object.fromEntries(Object.entries(j).map(([k, v]) => [k, JSON.stringify(v).length])),
  );
}
// Timed to the last byte of the answer, as the bench times it.
const api = async () => {
  const r = await send('POST', path, { cookie, 'content-type': 'application/json', origin }, body);
  if (r.status !== 200) throw new Error(r.text);
};
const floor = async () => {
  await send('POST', '/probe/floor', { cookie, 'content-type': 'application/json', origin }, body);
};
// The header's typeahead for a frequent prefix.
const search = async () => {
  const r = await send('GET', '/api/search/global/backoffice/joh?v=2', { cookie });
  if (r.status !== 200) throw new Error(r.text);
};
const rawClient = new RawHttpClient(origin);
const apiRaw = async () => {
  const r = await rawClient.send('POST', path, { cookie, 'content-type': 'application/json', origin }, body);
  if (r.status !== 200) throw new Error(r.text);
};
const floorRaw = async () => {
  await rawClient.send('POST', '/probe/floor', { cookie, 'content-type': 'application/json', origin }, body);
};
const noop = async () => {
  await send('GET', '/api/auth/security-questions', { cookie });
};
const scope = { tenantId: tenant.id, userId: user.id };
const LIST_COLUMN_TEXT =
  'contact_id, display_name, contact_type, status, account_number, email, phone, city, state_province, is_listed';
const LIST_COLUMNS = sql.raw(LIST_COLUMN_TEXT);
const direct = () =>
  withTenantTx(database.db, scope, async (tx) => {
    await tx.execute(
      sql`select n from contact_counts where tenant_id = ${tenant.id} and facet = 'status' and value = 'active'`,
    );
    await tx.execute(
      sql`select ${LIST_COLUMNS} from contacts where tenant_id = ${tenant.id} and not is_deleted and status = 'active' order by display_name, contact_id limit 50 offset 0`,
    );
  });
const directPipelined = () =>
  withTenantTx(database.db, scope, (tx) =>
    runFragments(
      tx,
      [
        q`select n from contact_counts where tenant_id = ${tenant.id} and facet = 'status' and value = 'active'`,
        q`select ${raw(LIST_COLUMN_TEXT)} from contacts where tenant_id = ${tenant.id} and not is_deleted and status = 'active' order by display_name, contact_id limit 50 offset 0`,
      ],
      { commit: true },
    ),
  );
// PGlite's own transaction and query through Drizzle (the bench's direct side on PGlite).
const stock = () =>
  database.db.transaction(async (tx) => {
    await tx.execute(
      sql`select set_config('app.tenant_id', ${tenant.id}, true), set_config('app.user_id', ${String(user.id)}, true)`,
    );
    await tx.execute(
      sql`select n from contact_counts where tenant_id = ${tenant.id} and facet = 'status' and value = 'active'`,
    );
    await tx.execute(
      sql`select ${LIST_COLUMNS} from contacts where tenant_id = ${tenant.id} and not is_deleted and status = 'active' order by display_name, contact_id limit 50 offset 0`,
    );
  });
const emptyTx = () => withTenantTx(database.db, scope, async () => null);
const S = await import('../../packages/server/src/platform/session.ts');
const token = cookie.split('=')[1] ?? '';
const sessionOnly = () => S.withSessionTx(database, token, async () => null);
const exportAll = async () => {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage();
  let peak = before.rss;
  let peakHeap = before.heapUsed;
  let peakExt = before.external + before.arrayBuffers;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakExt = Math.max(peakExt, m.external + m.arrayBuffers);
  }, 20);
  const r = await send(
    'POST',
    '/api/contacts/contacts/contactData?$skip=0&$top=999999999',
    { cookie, 'content-type': 'application/json', origin },
    process.env.EXPORT_BODY ?? '{}',
  );
  const id = String(JSON.parse(r.text).PendingDownloadFileId);
  for (;;) {
    const ready = (await send('GET', `/api/files/ready/${id}`, { cookie })).status;
    if (ready === 200) break;
    if (ready >= 400) throw new Error(`export failed: ${ready}`);
    await new Promise((done) => setTimeout(done, 20));
  }
  clearInterval(sampler);
  const MiB = (n: number) => +(n / 2 ** 20).toFixed(1);
  console.log(
    JSON.stringify({
      rssBefore: MiB(before.rss),
      rssDelta: MiB(peak - before.rss),
      heapDelta: MiB(peakHeap - before.heapUsed),
      externalDelta: MiB(peakExt - before.external - before.arrayBuffers),
    }),
  );
};
const pageSql = (explicit: boolean) =>
  sql`select ${LIST_COLUMNS} from contacts where ${explicit ? sql`tenant_id = ${tenant.id} and ` : sql``}not is_deleted and status = 'active' order by display_name, contact_id limit 50 offset 0`;
const rlsOn = () => withTenantTx(database.db, scope, (tx) => tx.execute(pageSql(false)));
const rlsOff = () => withTenantTx(database.ownerDb, scope, (tx) => tx.execute(pageSql(true)));
// The same request without the network (Fastify's inject), and the list service alone in its session transaction.
const inject = async () => {
  const r = await app.inject({
    method: 'POST',
    url: path,
    headers: { cookie, 'content-type': 'application/json', origin, host: new URL(origin).host },
    payload: body,
  });
  if (r.statusCode !== 200) throw new Error(r.body);
};
const L = await import('../../packages/server/src/platform/resources/resource.service.ts');
const { contactsResource } = await import('@guildhall/shared');
const bound = app.resources.find((r) => r.resource.name === contactsResource.name)!;
const service = () =>
  S.withSessionTx(database, token, (tx, auth) =>
    L.list(
      tx,
      auth!,
      bound,
      { $top: 50, $skip: 0, $orderby: 'DisplayName asc' },
      { Id: 1 },
      (async () => 0) as never,
      {
        endsTransaction: true,
      },
    ),
  );
const page = L.listPage(
  bound,
  tenant.id,
  { $top: 50, $skip: 0, $orderby: 'DisplayName asc' } as never,
  { Id: 1 },
  50,
);
// The list's one round trip alone (decision 0062): the session lookup, the total, the page, without HTTP.
const trip = () => S.readWithSession(database, token, page.statements);
const only = process.env.PROBE_ONLY;
if (only) {
  const fn = {
    api,
    direct,
    noop,
    directPipelined,
    emptyTx,
    sessionOnly,
    exportAll,
    rlsOn,
    rlsOff,
    inject,
    service,
    floor,
    stock,
    search,
    trip,
    apiRaw,
    floorRaw,
  }[only as 'api']!;
  for (let i = 0; i < (only === 'exportAll' ? 1 : 200); i++) await fn();
  const { Session } = await import('node:inspector/promises');
  const s = new Session();
  s.connect();
  await s.post('Profiler.enable');
  await s.post('Profiler.setSamplingInterval', { interval: 50 });
  if (process.env.PROBE_PROFILE) await s.post('Profiler.start');
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < rounds; i++) await fn();
  const ms = (performance.now() - t) / rounds;
  const cpu = process.cpuUsage(cpu0);
  if (process.env.PROBE_PROFILE) {
    const { profile } = await s.post('Profiler.stop');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`/tmp/prof/${only}.cpuprofile`, JSON.stringify(profile));
  }
  const lt = (globalThis as unknown as { __lt?: number[] }).__lt;
  if (lt)
    console.log(
      'lookup',
      (lt[0]! / lt[3]!) * 1000,
      'list',
      (lt[1]! / lt[3]!) * 1000,
      'after',
      (lt[2]! / lt[3]!) * 1000,
    );
  if (phases.requests)
    console.log(
      JSON.stringify(
        Object.fromEntries(
          Object.entries(phases).map(([k, v]) => [k, k === 'requests' ? v : Math.round(v / phases.requests)]),
        ),
      ),
    );
  console.log(
    JSON.stringify({
      only,
      msPerCall: +ms.toFixed(3),
      cpuMsPerCall: +((cpu.user + cpu.system) / 1000 / rounds).toFixed(3),
      userMs: +(cpu.user / 1000 / rounds).toFixed(3),
    }),
  );
  await app.close();
  await database.close();
  process.exit(0);
}
const sides = {
  api,
  apiRaw,
  floorRaw,
  direct,
  directPipelined,
  noop,
  service,
  trip,
  inject,
  emptyTx,
  sessionOnly,
  floor,
  ...(process.env.PROBE_STOCK ? { stock } : {}),
} as Record<string, () => Promise<unknown>>;
const samples: Record<string, number[]> = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
// Turns of 10 runs each, as the bench takes them; the first 100 runs of each variant are not timed.
for (let done = 0; done < rounds + 100; done += 10) {
  for (const [k, fn] of Object.entries(sides)) {
    for (let j = 0; j < 10; j++) {
      const t = performance.now();
      await fn();
      if (done + j >= 100) samples[k]!.push(performance.now() - t);
    }
  }
}
const p50 = (a: number[]) => +[...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!.toFixed(3);
const out = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, p50(v)]));
console.log(
  JSON.stringify({
    ...out,
    ratio: +(out.api! / out.direct!).toFixed(2),
    ratioToPipelined: +(out.api! / out.directPipelined!).toFixed(2),
  }),
);
await app.close();
await database.close();
