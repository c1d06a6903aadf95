/**
 * P1-P5 (and P8's load) over a tenant of generated contacts: real PostgreSQL at 1,000,000 (a fresh database made
 * with createdb on 127.0.0.1:5432, dropped after) and embedded PGlite at 100,000. Every figure is a median or p95
 * of sequential requests, measured side by side with its baseline in the same run: the machine is shared and
 * noisy, so ratios matter more than absolute numbers.
 * On PostgreSQL the server runs as `npm start` runs it (server-process.ts): the compiled server in a process of its
 * own with the start script's Node flags, on the bench's database, without the demo association; the bench's process
 * is the client (the timing loops) and the baselines' own connection. Its daily jobs, which it queues at start, are
 * let finish before any timing. On PGlite the server stays in the bench's process: the embedded database is opened by
 * one process at a time, and the baselines (P3, P4) read it beside the server.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, openDatabase, q, raw, rowsOf, runFragments, withTenantTx } from '@guildhall/db';
import { createTenant, createUser } from '@guildhall/db/seed/factories';
import { bulkSeedContacts, pgliteTarget, postgresTarget } from '@guildhall/seed/bulk';
import { bulkSeedDomains, type DomainCounts } from '@guildhall/seed/bulk-domains';
import { buildApp } from '@guildhall/server';
import {
  contactsResource,
  eventAttendeesResource,
  eventsResource,
  invoicesResource,
  LIST_SEARCH_EXACT_UP_TO,
  membershipsResource,
  searchTerms,
} from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import { searchDocuments } from '../../packages/server/src/features/search/search.repo.ts';
import { loadConfig } from '../../packages/server/src/platform/config.ts';
import { DEFERRED_JOIN_FROM } from '../../packages/server/src/platform/resources/resource.repo.ts';
import { measureListMatrix } from './list-matrix.ts';
import { RawHttpClient } from './raw-http.ts';
import { type ServerProcess, startServerProcess, startWorkDone } from './server-process.ts';

export interface Stats {
  p50: number;
  p95: number;
  n: number;
}
function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => +(s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0).toFixed(2);
  return { p50: at(0.5), p95: at(0.95), n: s.length };
}
async function measure(fn: () => Promise<unknown>, n = 40, warm = 3): Promise<Stats> {
  for (let i = 0; i < warm; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return stats(out);
}

/** `measure` run in three rounds; answers the round whose `ratio` is the median, and every round's ratio in order. */
async function inRounds<T>(measure: () => Promise<T>, ratio: (m: T) => number, rounds = 3) {
  const done: { m: T; r: number }[] = [];
  for (let i = 0; i < rounds; i++) {
    const m = await measure();
    done.push({ m, r: ratio(m) });
  }
  const sorted = [...done].sort((a, b) => a.r - b.r);
  return {
    median: (sorted[Math.floor(sorted.length / 2)] as { m: T }).m,
    ratios: done.map((d) => +d.r.toFixed(2)),
  };
}

interface Side {
  run: () => Promise<unknown>;
  /** Untimed, around each block of runs (PGlite's role switch for the owner's side). */
  before?: () => Promise<unknown>;
  after?: () => Promise<unknown>;
}
/**
 * Several variants measured side by side: runs of each in turn, so a slow moment of the shared machine falls on all
 * of them alike (a ratio of two loops run one after the other moved by 1.5x between runs).
 * - Each variant first runs 100 times untimed: a server answers from code the JIT has compiled after its first
 *   requests, and five warm-up runs measured every path half-compiled (p50s about twice the warm ones on PGlite).
 * - The turns are blocks of 10 runs, not single runs: the client, the server and the baselines share one process,
 *   and with single turns each variant paid for the others' garbage. On PGlite the API's p50 went from 1.7 to
 *   2.6 ms, and a constant answer over HTTP from 0.43 to 0.65 ms, when PGlite's own query path (which allocates a
 *   buffer per value) took turns beside them.
 */
async function measureSideBySide<K extends string>(sides: Record<K, Side>, n = 200, warm = 100, block = 10) {
  const names = Object.keys(sides) as K[];
  const samples = Object.fromEntries(names.map((k) => [k, [] as number[]])) as Record<K, number[]>;
  for (let done = 0; done < warm + n; done += block) {
    for (const k of names) {
      const side = sides[k];
      await side.before?.();
      for (let j = 0; j < block; j++) {
        const t = performance.now();
        await side.run();
        const ms = performance.now() - t;
        if (done + j >= warm) samples[k].push(ms);
      }
      await side.after?.();
    }
  }
  return Object.fromEntries(names.map((k) => [k, stats(samples[k])])) as Record<K, Stats>;
}

/**
 * Search words of one and two letters, matched where a word begins (decision 0199): one that begins many words
 * ("s": Smith, Sanchez, Springfield) and one that begins few or none ("q").
 */
const SHORT_TERMS = { shortCommon: 's', shortRare: 'q' };

const LIST_COLUMN_TEXT =
  'contact_id, display_name, contact_type, status, account_number, email, phone, city, state_province, is_listed';
const LIST_COLUMNS = sql.raw(LIST_COLUMN_TEXT);

export interface ListsOptions {
  /** Name of the PostgreSQL database to create (and drop after); default `gh_bench_<pid>`. */
  databaseName?: string;
  /**
   * An existing PostgreSQL database already seeded by `npm run seed -- --tenant bench` (`--reuse <name>`): nothing
   * is created, loaded or dropped, and P8 is not measured.
   */
  reuse?: string;
  /** The list matrix alone (P1 for every combination), without P2-P5. */
  matrixOnly?: boolean;
  /**
   * The other domains' lists (memberships, invoices, events, attendees): their rows are loaded over the contacts
   * and each list gets the contacts' matrix; with it, only those matrices are measured (not the contacts').
   */
  domains?: DomainCounts;
  /** The domain lists measured (`invoices`, `attendees`…); every one with rows when absent. */
  measuredDomains?: readonly (keyof DomainCounts)[];
}

export async function measureLists(kind: 'postgres' | 'pglite', count: number, options: ListsOptions = {}) {
  const reuse = kind === 'postgres' ? options.reuse : undefined;
  const dbName = reuse ?? options.databaseName ?? `gh_bench_${process.pid}`;
  const url = `postgres://postgres@127.0.0.1:5432/${dbName}`;
  if (kind === 'postgres' && !reuse) execFileSync('createdb', ['-h', '127.0.0.1', '-U', 'postgres', dbName]);
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-lists-'));
  let database: Database | null = null;
  let server: ServerProcess | null = null;
  try {
    database =
      kind === 'postgres' ? await openDatabase({ databaseUrl: url, poolSize: 10 }) : await openDatabase({});
    await database.migrate();
    const reused = reuse
      ? rowsOf<{ id: string }>(
          await database.ownerDb.execute(sql`select id from tenants where slug = 'bench'`),
        )[0]
      : undefined;
    if (reuse && !reused)
      throw new Error(`${reuse} has no tenant bench: npm run seed -- --tenant bench first`);
    const tenant =
      reused ??
      (await createTenant(database.db, { name: 'Bench Association', slug: `bench-${process.pid}` }));
    const other = reuse
      ? undefined
      : await createTenant(database.db, { name: 'Other', slug: `other-${process.pid}` });
    const user = await createUser(database.db, {
      tenantId: tenant.id,
      username: `bench.${process.pid}`,
      password: 'bench-password-2026',
      role: 'admin',
    });
    // P8: the bulk load (COPY), plus a small second tenant so row-level security has something to hide.
    if (database.pglite) await database.pglite.exec('RESET ROLE');
    const target = kind === 'postgres' ? postgresTarget(url) : pgliteTarget(database.pglite!);
    // The load leaves every table vacuumed and analysed (index-only scans from the first request, decision 0100).
    const seed = other ? await bulkSeedContacts(target, { tenantId: tenant.id, count }) : undefined;
    if (other) await bulkSeedContacts(target, { tenantId: other.id, count: 1000, seed: 7 });
    const domainSeed =
      options.domains && other
        ? await bulkSeedDomains(target, { tenantId: tenant.id, counts: options.domains, log: console.log })
        : undefined;
    if (options.domains && other)
      await bulkSeedDomains(target, {
        tenantId: other.id,
        counts: { memberships: 1000, invoices: 1000, events: 100, attendees: 1000 },
      });
    await target.close();
    if (database.pglite) await database.pglite.exec('SET ROLE guildhall_app');

    let origin: string;
    let app: Awaited<ReturnType<typeof buildApp>> | null = null;
    if (kind === 'postgres') {
      server = await startServerProcess(join(import.meta.dirname, '../..'), {
        DATABASE_URL: url,
        DATA_DIR: dataDir,
        SEED_DEMO: 'false',
        PUBLIC_URL: 'http://bench.local',
        SMTP_URL: '',
      });
      origin = server.origin;
      await startWorkDone(database);
    } else {
      const config = { ...loadConfig({}), dataDir, publicUrl: 'http://bench.local', smtpUrl: undefined };
      app = await buildApp({ database, config });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    }
    const closeServer = async () => {
      await app?.close();
      await server?.stop();
    };
    // A minimal keep-alive client (raw-http.ts): the figures are the server's, not the cost of a client in the same
    // process; node:http's client cost about 0.06-0.12 ms of each request here, as much as the server's HTTP layer.
    const client = new RawHttpClient(origin);
    const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
      client.send(method, path, headers, body);
    const login = await send(
      'POST',
      '/api/auth/login',
      { 'content-type': 'application/json' },
      JSON.stringify({ username: user.username, password: user.password }),
    );
    const cookie =
      String((login.headers['set-cookie'] as string[] | undefined)?.[0] ?? '').split(';')[0] ?? '';
    if (!cookie) throw new Error(`sign-in failed: ${login.status} ${login.text}`);
    // A request timed to the last byte of its answer (what a latency figure of an HTTP API measures); decoding
    // the answer is the client's work, done by `call` outside the timed requests.
    const fetchText = async (path: string, body?: unknown) => {
      const res =
        body === undefined
          ? await send('GET', path, { cookie })
          : await send(
              'POST',
              path,
              { cookie, 'content-type': 'application/json', origin },
              JSON.stringify(body),
            );
      if (res.status >= 300) throw new Error(`${path}: ${res.status} ${res.text}`);
      return res.text;
    };
    const call = async (path: string, body?: unknown) =>
      JSON.parse(await fetchText(path, body)) as Record<string, unknown>;
    const status = async (path: string) => (await send('GET', path, { cookie })).status;
    const db = database.db;
    const scope = { tenantId: tenant.id, userId: user.id };

    if (options.domains) {
      // Each domain's list: every sort, direction and named filter at the first page and a deep one, and its search
      // box with a term many rows match, one few match and one that matches one row.
      const lists = [
        {
          resource: membershipsResource,
          key: 'memberships' as const,
          rows: options.domains.memberships,
          terms: { common: 'smi', manyMatches: 'individual', rare: 'a0000777', ...SHORT_TERMS },
        },
        {
          resource: invoicesResource,
          key: 'invoices' as const,
          rows: options.domains.invoices,
          terms: { common: 'smi', manyMatches: 'inv-00', rare: 'inv-0000777', ...SHORT_TERMS },
        },
        {
          resource: eventsResource,
          key: 'events' as const,
          rows: options.domains.events,
          terms: { common: 'work', manyMatches: 'houston', rare: 'workshop 7771', ...SHORT_TERMS },
        },
        {
          resource: eventAttendeesResource,
          key: 'attendees' as const,
          rows: options.domains.attendees,
          terms: { common: 'smi', manyMatches: 'a', rare: 'zzzq', ...SHORT_TERMS },
        },
      ];
      const domains: Record<string, unknown> = {};
      for (const list of lists) {
        if (list.rows <= 0 || (options.measuredDomains && !options.measuredDomains.includes(list.key)))
          continue;
        const matrix = await measureListMatrix({
          resource: list.resource,
          post: (path, body) => fetchText(path, body),
          skips: [0, Math.min(100_000, Math.floor(list.rows / 10))],
          searchTerms: list.terms,
          searchSkips: [0, LIST_SEARCH_EXACT_UP_TO - 50],
          requests: 12,
        });
        console.log(
          `P1 matrix ${kind} ${list.resource.name} (${list.rows} rows): ${matrix.combinations} combinations, median p95 ${matrix.medianP95} ms, worst ${JSON.stringify(matrix.worst)}`,
        );
        domains[list.resource.name] = { rows: list.rows, ...matrix };
      }
      client.close();
      await closeServer();
      return { kind, contacts: count, domainSeed, domains };
    }

    // P1 for every combination of the contacts list (decision 0100), the search box's terms included.
    const deep = Math.min(100_000, Math.floor(count / 10));
    const p1Matrix = await measureListMatrix({
      resource: contactsResource,
      post: (path, body) => fetchText(path, body),
      skips: [0, deep],
      searchTerms: {
        common: 'smi',
        manyMatches: 'houston',
        rare: 'a0000777',
        fewMatches: 'a00007',
        ...SHORT_TERMS,
      },
      // The first page and the last of those a search lists (decision 0101).
      searchSkips: [0, LIST_SEARCH_EXACT_UP_TO - 50],
    });
    console.log(
      `P1 matrix ${kind}: ${p1Matrix.combinations} combinations, median p95 ${p1Matrix.medianP95} ms, worst ${JSON.stringify(p1Matrix.worst)}`,
    );
    if (options.matrixOnly) {
      client.close();
      await closeServer();
      return { kind, contacts: count, p1Matrix };
    }

    // P1 and P3: 50 rows, a sort, one filter (Status active, about half), the total included.
    const p1: Record<string, unknown> = {};
    const p3: Record<string, unknown> = {};
    const p4: Record<string, unknown> = {};
    for (const skip of [0, Math.min(100_000, Math.floor(count / 10))]) {
      const path = `/api/contacts/contacts/contactData?$top=50&$skip=${skip}&$orderby=DisplayName%20asc`;
      const first = await call(path, { Id: 1 });
      // The same page as a fragment, for the pipelined baseline.
      const pageFragment = (explicit: boolean) => {
        const tenantFilter = explicit ? q`tenant_id = ${tenant.id} and ` : q``;
        const columns = raw(LIST_COLUMN_TEXT);
        return skip >= DEFERRED_JOIN_FROM
          ? q`select ${columns} from contacts where ${tenantFilter}contact_id in (select contact_id from contacts where ${tenantFilter}not is_deleted and status = 'active' order by display_name, contact_id limit 50 offset ${skip}) order by display_name, contact_id`
          : q`select ${columns} from contacts where ${tenantFilter}not is_deleted and status = 'active' order by display_name, contact_id limit 50 offset ${skip}`;
      };
      // The SQL the API runs: from DEFERRED_JOIN_FROM on, the page's keys first (an index-only scan), then its rows.
      const page = (tx: Parameters<Parameters<typeof db.transaction>[0]>[0], explicit: boolean) => {
        const tenantFilter = explicit ? sql`tenant_id = ${tenant.id} and ` : sql``;
        return tx.execute(
          skip >= DEFERRED_JOIN_FROM
            ? sql`select ${LIST_COLUMNS} from contacts where ${tenantFilter}contact_id in (select contact_id from contacts where ${tenantFilter}not is_deleted and status = 'active' order by display_name, contact_id limit 50 offset ${skip}) order by display_name, contact_id`
            : sql`select ${LIST_COLUMNS} from contacts where ${tenantFilter}not is_deleted and status = 'active' order by display_name, contact_id limit 50 offset ${skip}`,
        );
      };
      // P1 and P3 side by side: the list through HTTP, and the same SQL run directly on the same pool: the tenant
      // transaction (begin, the scope), the counter, the page, through the driver without the screen engine.
      // - `direct`: on PostgreSQL a connection of the pool, `begin` and the scope in one round trip as the API
      //   opens its transaction, then the counter and the page (`withTenantTx` is exactly those driver calls there).
      //   On PGlite, PGlite's own transaction and query through Drizzle (what `withTenantTx` was until decision
      //   0061 gave the database layer a client of its own for PGlite).
      // - `ownLayer` (PGlite): the same SQL through that client (`withTenantTx` and `execute`), which the API uses.
      // - `directPipelined`: the same SQL as the API sends it, the counter, the page and the commit together
      //   (decision 0060), so the figure without that gain is reported alongside.
      const counter = sql`select n from contact_counts where tenant_id = ${tenant.id} and facet = 'status' and value = 'active'`;
      const ownLayer = () =>
        withTenantTx(db, scope, async (tx) => {
          await tx.execute(counter);
          await page(tx, true);
        });
      const sides = {
        api: { run: () => fetchText(path, { Id: 1 }) },
        direct: {
          run:
            kind === 'postgres'
              ? ownLayer
              : () =>
                  db.transaction(async (tx) => {
                    await tx.execute(
                      sql`select set_config('app.tenant_id', ${tenant.id}, true), set_config('app.user_id', ${String(user.id)}, true)`,
                    );
                    await tx.execute(counter);
                    await page(tx, true);
                  }),
        },
        ...(kind === 'pglite' ? { ownLayer: { run: ownLayer } } : {}),
        directPipelined: {
          run: () =>
            withTenantTx(db, scope, (tx) =>
              runFragments(
                tx,
                [
                  q`select n from contact_counts where tenant_id = ${tenant.id} and facet = 'status' and value = 'active'`,
                  pageFragment(true),
                ],
                { commit: true },
              ),
            ),
        },
      };
      // Three rounds, one after the other: the ratio of a single round moved between 1.3 and 1.7 from one run to
      // the next on this shared machine (a round trip's cost changes with the host's load). The round with the
      // median ratio is reported, every round's ratio beside it.
      const p3Rounds = await inRounds(
        () => measureSideBySide<string>(sides),
        (m) => (m.api as Stats).p50 / (m.direct as Stats).p50,
      );
      const measured = p3Rounds.median;
      const api = measured.api as Stats;
      const direct = measured.direct as Stats;
      const directPipelined = measured.directPipelined as Stats;
      // Row-level security on (application role) versus off (owner, which bypasses it) with an explicit filter.
      // Both sides open the same tenant transaction (begin and the scope in one round trip), so the ratio is
      // row-level security's own cost; `rlsOffNoScopeP50` is the owner's plain transaction without the scope.
      // PGlite has one connection, switched to the application role: the owner's sides run with the role reset.
      const asOwner = database.pglite
        ? {
            before: () => database!.pglite!.exec('RESET ROLE'),
            after: () => database!.pglite!.exec('SET ROLE guildhall_app'),
          }
        : {};
      const p4Rounds = await inRounds(
        () =>
          measureSideBySide({
            rlsOn: { run: () => withTenantTx(db, scope, (tx) => page(tx, false)) },
            rlsOff: { run: () => withTenantTx(database!.ownerDb, scope, (tx) => page(tx, true)), ...asOwner },
            rlsOffNoScope: { run: () => database!.ownerDb.transaction((tx) => page(tx, true)), ...asOwner },
          }),
        (m) => m.rlsOn.p50 / m.rlsOff.p50,
      );
      const { rlsOn, rlsOff, rlsOffNoScope } = p4Rounds.median;
      p1[`skip${skip}`] = { ...api, total: first.TotalRecordAvailable, pass: api.p95 <= 50 };
      p3[`skip${skip}`] = {
        apiP50: api.p50,
        sqlP50: direct.p50,
        ratio: +(api.p50 / direct.p50).toFixed(2),
        roundRatios: p3Rounds.ratios,
        sqlPipelinedP50: directPipelined.p50,
        ratioToPipelinedSql: +(api.p50 / directPipelined.p50).toFixed(2),
        ...(measured.ownLayer
          ? {
              sqlOwnLayerP50: measured.ownLayer.p50,
              ratioToOwnLayerSql: +(api.p50 / measured.ownLayer.p50).toFixed(2),
            }
          : {}),
      };
      p4[`skip${skip}`] = {
        rlsOnP50: rlsOn.p50,
        rlsOffP50: rlsOff.p50,
        ratio: +(rlsOn.p50 / rlsOff.p50).toFixed(2),
        roundRatios: p4Rounds.ratios,
        rlsOffNoScopeP50: rlsOffNoScope.p50,
        ratioWithScopeStatement: +(rlsOn.p50 / rlsOffNoScope.p50).toFixed(2),
      };
    }

    // The HTTP floor: an authenticated route that answers a constant (session lookup, hooks, serialization).
    const floor = await measure(() => fetchText('/api/auth/security-questions'), 200, 100);
    for (const v of Object.values(p3) as Record<string, number>[]) {
      v.authenticatedNoopP50 = floor.p50;
      v.apiMinusNoopP50 = +((v.apiP50 ?? 0) - floor.p50).toFixed(2);
    }

    // P2: typeahead search, common and rare terms, against an unindexed ILIKE over the same contacts.
    const p2: Record<string, unknown> = {};
    const terms = {
      common: 'smith',
      commonPrefix: 'joh',
      rare: 'a0000777',
      accent: 'jose',
      typo: 'willliams',
    };
    for (const [name, term] of Object.entries(terms)) {
      const s = await measure(
        () => fetchText(`/api/search/global/backoffice/${encodeURIComponent(term)}?v=2`),
        30,
      );
      const hits = (
        (await call(`/api/search/global/backoffice/${encodeURIComponent(term)}?v=2`)).Records as unknown[]
      ).length;
      const pattern = `%${term}%`;
      const ilike = await measure(
        () =>
          withTenantTx(db, scope, (tx) =>
            tx.execute(
              sql`select contact_id from contacts where tenant_id = ${tenant.id} and not is_deleted and (display_name ilike ${pattern} or email ilike ${pattern} or account_number ilike ${pattern} or city ilike ${pattern}) order by display_name, contact_id limit 20`,
            ),
          ),
        5,
        1,
      );
      // The search's own SQL on the same pool (no HTTP), and an ILIKE that finds every match (what ranking needs).
      const direct = await measure(
        () => withTenantTx(db, scope, (tx) => searchDocuments(tx, tenant.id, 'staff', searchTerms(term))),
        20,
      );
      const ilikeAll = await measure(
        () =>
          withTenantTx(db, scope, (tx) =>
            tx.execute(
              sql`select count(*) from contacts where tenant_id = ${tenant.id} and not is_deleted and (display_name ilike ${pattern} or email ilike ${pattern} or account_number ilike ${pattern} or city ilike ${pattern})`,
            ),
          ),
        3,
        0,
      );
      p2[name] = {
        term,
        hits,
        ...s,
        sqlP50: direct.p50,
        ilikeP50: ilike.p50,
        ilikeAllMatchesP50: ilikeAll.p50,
        speedup: +(ilike.p50 / s.p50).toFixed(1),
        speedupSql: +(ilike.p50 / direct.p50).toFixed(1),
        speedupAllMatches: +(ilikeAll.p50 / s.p50).toFixed(1),
        // Both halves of the bar. The search ranks every match, so the unindexed ILIKE it is held against is the
        // one that finds every match; the first-20 ILIKE (`speedup`) stops early on a frequent prefix.
        pass: s.p95 <= 100 && ilikeAll.p50 / s.p50 >= 10,
      };
    }

    // P5: export through the job: first byte, rows per second, peak memory for all rows versus about a tenth.
    // The memory is the server's process's: on PostgreSQL its own (read from /proc), on PGlite the bench's.
    const rss = () => server?.rss() ?? process.memoryUsage().rss;
    const exportRun = async (body: unknown) => {
      // On PGlite both runs start from a collected heap (`npm run bench` passes --expose-gc), so their deltas
      // compare; the server's own process on PostgreSQL cannot be made to collect from here.
      if (!server) (globalThis as { gc?: () => void }).gc?.();
      const rssBefore = rss();
      let peak = rssBefore;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rss());
      }, 25);
      const started = performance.now();
      const answer = await call('/api/contacts/contacts/contactData?$skip=0&$top=999999999', body);
      const id = String(answer.PendingDownloadFileId);
      // Storage writes beside the key and renames when complete: the first byte is the first non-empty file of
      // this export, partial or whole, seen by a sampler independent of the polling below.
      const folder = join(dataDir, 'files', tenant.id, 'exports');
      let firstByte = 0;
      const watcher = setInterval(() => {
        if (firstByte) return;
        try {
          for (const name of readdirSync(folder)) {
            if (name.startsWith(`${id}.csv`) && statSync(join(folder, name)).size > 0) {
              firstByte = performance.now() - started;
              return;
            }
          }
        } catch {
          // not created yet
        }
      }, 5);
      for (;;) {
        const ready = await status(`/api/files/ready/${id}`);
        if (ready === 200) break;
        if (ready >= 400) throw new Error(`export failed: ${ready}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      clearInterval(watcher);
      const ms = performance.now() - started;
      clearInterval(sampler);
      return {
        firstByteMs: Math.round(firstByte),
        ms: Math.round(ms),
        peakRssDeltaMiB: +((peak - rssBefore) / 2 ** 20).toFixed(1),
        peakRssMiB: +(peak / 2 ** 20).toFixed(1),
      };
    };
    const [lastOfTenth] = rowsOf<{ id: string }>(
      await withTenantTx(db, scope, (tx) =>
        tx.execute(
          sql`select contact_id as id from contacts where tenant_id = ${tenant.id} order by contact_id offset ${Math.floor(count / 10) - 1} limit 1`,
        ),
      ),
    );
    const tenthBody = {
      Id: 9999,
      Criteria: [{ PropertyName: 'ContactId', Operator: 'le', Value: Number(lastOfTenth?.id) }],
    };
    // The first export long enough to need it grows V8's heap once to its working size (garbage between major
    // collections, the same for any longer export): that first run is reported as `cold`. The bar compares the
    // export of all rows with a tenth of them, each measured from a collected heap after that first run.
    const cold = await exportRun({});
    const tenth = await exportRun(tenthBody);
    const all = await exportRun({});
    const p5 = {
      rows: count,
      ...all,
      rowsPerSecond: Math.round(count / (all.ms / 1000)),
      tenthRows: Math.floor(count / 10),
      tenthPeakRssDeltaMiB: tenth.peakRssDeltaMiB,
      memoryRatio: +(Math.max(all.peakRssDeltaMiB, 1) / Math.max(tenth.peakRssDeltaMiB, 1)).toFixed(2),
      peakRssMiB: all.peakRssMiB,
      tenthPeakRssMiB: tenth.peakRssMiB,
      peakRssRatio: +(all.peakRssMiB / tenth.peakRssMiB).toFixed(2),
      cold: {
        ms: cold.ms,
        rowsPerSecond: Math.round(count / (cold.ms / 1000)),
        peakRssDeltaMiB: cold.peakRssDeltaMiB,
      },
    };
    client.close();
    await closeServer();
    return { kind, contacts: count, ...(seed ? { seed } : {}), p1, p1Matrix, p2, p3, p4, p5 };
  } finally {
    await server?.stop();
    await database?.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    if (kind === 'postgres' && !reuse)
      execFileSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--if-exists', dbName]);
  }
}
