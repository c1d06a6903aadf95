/**
 * Memberships bars (issue 16), on real PostgreSQL (database `memberships_bench_<pid>`, dropped at the end):
 *   - the renewal run over `renewals` memberships due creates their renewal invoices through the billing engine in
 *     <= 60 s (at 100,000); run again it creates nothing; a run killed halfway (a child process, SIGKILL once about
 *     half of a second set is invoiced) and restarted finishes with exactly one invoice per membership: no
 *     duplicates, no gaps.
 *   - the memberships list at `list` memberships meets P1 (p95 <= 50 ms, total included) filtered by status and
 *     expiring in a date range, over HTTP to a running app.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, openDatabase, rowsOf, withTenantTx } from '@guildhall/db';
import { createTenant, createUser } from '@guildhall/db/seed/factories';
import { buildApp } from '@guildhall/server';
import { addDays, todayIn } from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import { runRenewals } from '../../packages/server/src/features/memberships/memberships.billing.ts';
import { loadConfig } from '../../packages/server/src/platform/config.ts';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return +(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0).toFixed(1);
};

async function one<T>(database: Database, tenantId: string, query: ReturnType<typeof sql>): Promise<T> {
  return rowsOf<T>(await withTenantTx(database.db, { tenantId }, (tx) => tx.execute(query)))[0] as T;
}

/** An association with one Individual type ($200 a year, renewal invoices 30 days before the end). */
async function association(database: Database, origin: string, name: string) {
  const tenant = await createTenant(database.db, { name });
  const username = `bench.${name.toLowerCase().replace(/\W+/g, '')}`;
  const password = 'bench-memberships-pass-2026';
  await createUser(database.db, { tenantId: tenant.id, username, password, role: 'admin' });
  const login = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const call = async (method: string, path: string, body?: unknown) => {
    const started = performance.now();
    const res = await fetch(`${origin}${path}`, {
      method,
      headers: { cookie, origin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text}`);
    return { json: JSON.parse(text) as Record<string, unknown>, ms };
  };
  const type = await call('POST', '/api/memberships/types/typeSave', {
    Name: 'Individual',
    TermKind: 'anniversary',
    DurationMonths: 12,
    IsActive: true,
    RenewalDaysBefore: 30,
    GraceDays: 30,
  });
  const typeId = (type.json.Data as Record<string, number>).MembershipTypeId as number;
  await call('POST', '/api/memberships/fees/feeSave', {
    MembershipTypeId: typeId,
    FeeId: 1,
    Name: 'Dues',
    OriginalPrice: 20_000,
    BillFrequencyTypeId: 12,
  });
  return { tenant, typeId, call };
}

/**
 * `count` contacts and their memberships (set-based). `due`: all active, their terms ending in 10 days; otherwise
 * every status, terms ending across two years.
 */
async function load(database: Database, tenantId: string, typeId: number, count: number, due: boolean) {
  const today = todayIn('America/Chicago');
  await withTenantTx(database.db, { tenantId }, async (tx) => {
    await tx.execute(sql`insert into contacts (tenant_id, contact_type, first_name, last_name, display_name, status)
      select ${tenantId}, 'individual', 'Member', 'No ' || g, 'No ' || g || ', Member', 'active'
      from generate_series(1, ${count}) g`);
    await tx.execute(sql`insert into memberships (tenant_id, contact_id, contact_name, name, membership_type_id,
        status, status_date, join_date, term_start, term_end, bill_frequency_type_id, term_total)
      select c.tenant_id, c.contact_id, c.display_name, 'Individual', ${typeId},
        ${due ? sql`'active'` : sql`(array['active','active','active','active','active','active','grace','lapsed','dropped','pending'])[1 + c.contact_id % 10]`},
        ${today}::date, ${today}::date - 400,
        t.term_end - 364, t.term_end, 12, 20000
      from contacts c
      -- As the renewal run leaves them: an active or pending term ends ahead, a grace one ended within the type's
      -- 30 grace days, a lapsed or dropped one before that (spread by id, the statuses by the id's last digit).
      cross join lateral (select ${
        due
          ? sql`${addDays(today, 10)}::date`
          : sql`case 1 + c.contact_id % 10 when 7 then ${today}::date - 1 - (c.contact_id * 7919 % 30)::int
              when 8 then ${today}::date - 31 - (c.contact_id * 7919 % 700)::int
              when 9 then ${today}::date - 31 - (c.contact_id * 7919 % 700)::int
              else ${today}::date + (c.contact_id * 7919 % 730)::int end`
      } as term_end) t
      where c.tenant_id = ${tenantId}`);
  });
  // Vacuumed and analysed as their owner, as autovacuum keeps a table that is mostly read: counts are then read from
  // the indexes alone (the visibility map), where a table just filled sends every counted row to the heap.
  await database.ownerDb.execute(sql`vacuum analyze contacts`);
  await database.ownerDb.execute(sql`vacuum analyze memberships`);
}

/** The renewal rows made so far (cheap: the kill loop asks it every 200 ms). */
async function renewalCount(database: Database, tenantId: string) {
  const { rows } = await one<{ rows: number }>(
    database,
    tenantId,
    sql`select count(*)::int as rows from membership_invoices where tenant_id = ${tenantId} and kind = 'renewal'`,
  );
  return rows;
}

/**
 * What the runs made, checked whole. The tables were just filled by the run: analysed first (as their owner: the
 * application's role may not), or the planner still believes them nearly empty and compares every membership with
 * every renewal row (minutes at 100,000).
 */
async function renewalRows(database: Database, tenantId: string) {
  await database.ownerDb.execute(sql`analyze membership_invoices`);
  await database.ownerDb.execute(sql`analyze invoices`);
  return one<{ rows: number; members: number; invoices: number; billed: number; orphans: number }>(
    database,
    tenantId,
    sql`select
      (select count(*)::int from membership_invoices where tenant_id = ${tenantId} and kind = 'renewal') as rows,
      (select count(distinct membership_id)::int from membership_invoices where tenant_id = ${tenantId} and kind = 'renewal') as members,
      (select count(distinct invoice_id)::int from membership_invoices where tenant_id = ${tenantId} and kind = 'renewal') as invoices,
      (select count(*)::int from invoices where tenant_id = ${tenantId} and source_kind = 'membership') as billed,
      (select count(*)::int from memberships m where m.tenant_id = ${tenantId} and not exists (select 1 from membership_invoices i
        where i.tenant_id = m.tenant_id and i.membership_id = m.membership_id and i.kind = 'renewal')) as orphans`,
  );
}

export async function measureMemberships(options: {
  renewals: number;
  resume: number;
  list: number;
  runs: number;
}) {
  // MEMBERSHIPS_BENCH_KEEP=1 keeps the database to look at its plans (drop it with dropdb afterwards).
  const keep = Boolean(process.env.MEMBERSHIPS_BENCH_KEEP);
  const dbName = `memberships_bench_${process.pid}`;
  const url = `postgres://postgres@127.0.0.1:5432/${dbName}`;
  execFileSync('createdb', ['-h', '127.0.0.1', '-U', 'postgres', dbName]);
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-memberships-'));
  let database: Database | null = null;
  let close: (() => Promise<void>) | undefined;
  try {
    database = await openDatabase({ databaseUrl: url, poolSize: 10 });
    await database.migrate();
    const config = { ...loadConfig({}), dataDir, publicUrl: 'http://bench.local', smtpUrl: undefined };
    const app = await buildApp({ database, config });
    close = () => app.close();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

    // 1. The renewal run over `renewals` memberships due, then again.
    const renew = await association(database, origin, 'Bench renewals');
    await load(database, renew.tenant.id, renew.typeId, options.renewals, true);
    let started = performance.now();
    const first = await runRenewals(database, app.services, renew.tenant.id);
    const firstMs = performance.now() - started;
    console.error(`renewal run: ${first.invoiced} invoiced in ${Math.round(firstMs)} ms`);
    started = performance.now();
    const second = await runRenewals(database, app.services, renew.tenant.id);
    const secondMs = performance.now() - started;
    const afterRuns = await renewalRows(database, renew.tenant.id);

    // 2. Killed halfway and restarted: a child process runs the renewals and is killed once half are invoiced.
    const resume = await association(database, origin, 'Bench resume');
    await load(database, resume.tenant.id, resume.typeId, options.resume, true);
    const child = spawn(
      process.execPath,
      [join(import.meta.dirname, 'memberships-renew-child.ts'), url, resume.tenant.id],
      { stdio: 'ignore' },
    );
    let killedAt = 0;
    for (;;) {
      await new Promise((r) => setTimeout(r, 200));
      const rows = await renewalCount(database, resume.tenant.id);
      if (rows >= options.resume / 2 || child.exitCode !== null) {
        child.kill('SIGKILL');
        killedAt = rows;
        break;
      }
    }
    await new Promise((r) =>
      child.exitCode !== null || child.signalCode !== null ? r(null) : child.once('exit', r),
    );
    const beforeRestart = await renewalRows(database, resume.tenant.id);
    const restarted = await runRenewals(database, app.services, resume.tenant.id);
    const afterRestart = await renewalRows(database, resume.tenant.id);

    // 3. The memberships list at `list` memberships: filtered by status and expiring in a date range, total included.
    const list = await association(database, origin, 'Bench list');
    await load(database, list.tenant.id, list.typeId, options.list, false);
    const today = todayIn('America/Chicago');
    const cases: Record<string, [string, unknown]> = {
      activeExpiringIn30Days: [
        '&$orderby=TermEnd%20asc',
        {
          Id: 9999,
          Criteria: [
            { PropertyName: 'Status', Operator: 'eq', Value: 'active' },
            { PropertyName: 'TermEnd', Operator: 'between', Value: today, Value2: addDays(today, 30) },
          ],
        },
      ],
      graceExpiredLast90Days: [
        '&$orderby=TermEnd%20desc',
        {
          Id: 9999,
          Criteria: [
            { PropertyName: 'Status', Operator: 'eq', Value: 'grace' },
            { PropertyName: 'TermEnd', Operator: 'between', Value: addDays(today, -90), Value2: today },
          ],
        },
      ],
      activeExpiringThisYearByName: [
        '&$orderby=ContactName%20asc',
        {
          Id: 9999,
          Criteria: [
            { PropertyName: 'Status', Operator: 'eq', Value: 'active' },
            { PropertyName: 'TermEnd', Operator: 'between', Value: today, Value2: addDays(today, 365) },
          ],
        },
      ],
      allByTermEnd: ['&$orderby=TermEnd%20asc', {}],
    };
    const listResults: Record<string, { p50Ms: number; p95Ms: number; total: number; rows: number }> = {};
    for (const [name, [query, body]] of Object.entries(cases)) {
      const path = `/api/memberships/memberships/membershipData?$top=50${query}`;
      for (let i = 0; i < 5; i++) await list.call('POST', path, body);
      const times: number[] = [];
      let last: Record<string, unknown> = {};
      for (let i = 0; i < options.runs; i++) {
        const r = await list.call('POST', path, body);
        times.push(r.ms);
        last = r.json;
      }
      const rows = (last.Results ?? []) as unknown[];
      listResults[name] = {
        p50Ms: pct(times, 50),
        p95Ms: pct(times, 95),
        total: Number(last.TotalRecordAvailable ?? -1),
        rows: Array.isArray(rows) ? rows.length : -1,
      };
    }
    const filtered = [listResults.activeExpiringIn30Days, listResults.graceExpiredLast90Days].map(
      (r) => r?.p95Ms ?? Number.POSITIVE_INFINITY,
    );
    return {
      renewals: {
        bar: 'the renewal run over 100,000 memberships due creates their invoices in <= 60 s on PostgreSQL; run again it creates nothing; killed halfway and restarted it finishes without duplicates or gaps',
        memberships: options.renewals,
        firstRun: {
          ...first,
          ms: Math.round(firstMs),
          invoicesPerSecond: +(first.invoiced / (firstMs / 1000)).toFixed(1),
        },
        secondRun: { ...second, ms: Math.round(secondMs) },
        afterRuns,
        killedAndRestarted: {
          memberships: options.resume,
          killedAtRows: killedAt,
          beforeRestart,
          restartedInvoiced: restarted.invoiced,
          afterRestart,
          exactlyOnce:
            afterRestart.rows === options.resume &&
            afterRestart.members === options.resume &&
            afterRestart.invoices === options.resume &&
            afterRestart.billed === options.resume &&
            afterRestart.orphans === 0,
        },
        pass:
          first.invoiced === options.renewals &&
          second.invoiced === 0 &&
          afterRuns.billed === options.renewals &&
          firstMs * (100_000 / options.renewals) <= 60_000,
      },
      list: {
        bar: 'P1 on the memberships list at 500,000 memberships: p95 <= 50 ms, total included, filtered by status and expiring in a date range',
        memberships: options.list,
        runs: options.runs,
        cases: listResults,
        pass: filtered.every((p) => p <= 50),
      },
    };
  } finally {
    await close?.().catch(() => undefined);
    await database?.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    try {
      if (keep) console.error(`kept the database ${dbName}`);
      else execFileSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--if-exists', '--force', dbName]);
    } catch {
      // left for the next run's clean-up
    }
  }
}
