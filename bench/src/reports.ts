/**
 * Grouped reports at scale (issue 20, P15: a grouped report over 1,000,000 contacts, count by status and state,
 * p95 <= 500 ms on PostgreSQL): contacts loaded by COPY, a report saved through the API and run through the report
 * engine (`POST /api/reportExecution/run/saved-N`: session, tenant transaction, row-level security, the rollup
 * statement, serialization), timed to the answer's last byte. Beside it: other shapes a user can build (one level,
 * a filter, a date by month, a money-like total on memberships is not loaded here), and the statement alone as the
 * owner, to show what the API adds.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, openDatabase, withTenantTx } from '@guildhall/db';
import { createTenant, createUser } from '@guildhall/db/seed/factories';
import { bulkSeedContacts, postgresTarget } from '@guildhall/seed/bulk';
import { buildApp } from '@guildhall/server';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../packages/server/src/platform/config.ts';
import { RawHttpClient } from './raw-http.ts';

interface Stats {
  p50: number;
  p95: number;
  max: number;
  n: number;
}

function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => +(s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0).toFixed(1);
  return { p50: at(0.5), p95: at(0.95), max: +(s.at(-1) ?? 0).toFixed(1), n: s.length };
}

const SHAPES: Record<string, Record<string, unknown>> = {
  statusAndState: {
    resource: 'contacts',
    groupBy: [{ field: 'Status' }, { field: 'StateProvince' }],
    chart: { type: 'bar', measure: 'count' },
  },
  status: { resource: 'contacts', groupBy: [{ field: 'Status' }], chart: { type: 'pie', measure: 'count' } },
  stateOfIndividuals: {
    resource: 'contacts',
    criteria: [{ PropertyName: 'ContactType', Operator: 'eq', Value: 'individual' }],
    groupBy: [{ field: 'StateProvince' }],
  },
  createdByMonth: { resource: 'contacts', groupBy: [{ field: 'CreatedAt', bucket: 'month' }] },
};

export async function measureReports(
  count: number,
  runs = 30,
  databaseName = `reports_bench_${process.pid}`,
) {
  const url = `postgres://postgres@127.0.0.1:5432/${databaseName}`;
  execFileSync('createdb', ['-h', '127.0.0.1', '-U', 'postgres', databaseName]);
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-reports-bench-'));
  let database: Database | null = null;
  let close: (() => Promise<void>) | undefined;
  try {
    database = await openDatabase({ databaseUrl: url, poolSize: 4 });
    await database.migrate();
    const tenant = await createTenant(database.db, {
      name: 'Bench Association',
      slug: `bench-${process.pid}`,
    });
    const user = await createUser(database.db, {
      tenantId: tenant.id,
      username: `bench.${process.pid}`,
      password: 'bench-password-2026',
      role: 'admin',
    });
    const loadStarted = performance.now();
    const target = postgresTarget(url);
    await bulkSeedContacts(target, { tenantId: tenant.id, count });
    await target.close();
    await database.ownerDb.execute(sql`vacuum analyze contacts`);
    const loadMs = Math.round(performance.now() - loadStarted);

    const config = { ...loadConfig({}), dataDir, publicUrl: 'http://bench.local', smtpUrl: undefined };
    const app = await buildApp({ database, config });
    close = () => app.close();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const client = new RawHttpClient(origin);
    const login = await client.send(
      'POST',
      '/api/auth/login',
      { 'content-type': 'application/json' },
      JSON.stringify({ username: user.username, password: user.password }),
    );
    const cookie =
      String((login.headers['set-cookie'] as string[] | undefined)?.[0] ?? '').split(';')[0] ?? '';
    if (!cookie) throw new Error(`sign-in failed: ${login.status} ${login.text}`);
    const headers = { cookie, 'content-type': 'application/json', origin };

    const shapes: Record<string, Stats & { groups: number; total: number }> = {};
    for (const [name, definition] of Object.entries(SHAPES)) {
      const saved = await client.send(
        'POST',
        '/api/reports/saved',
        headers,
        JSON.stringify({ Title: `Bench ${name}`, IsShared: true, Definition: definition }),
      );
      if (saved.status !== 200) throw new Error(`saving ${name} answered ${saved.status} ${saved.text}`);
      const reportId = (JSON.parse(saved.text) as { ReportId: string }).ReportId;
      const run = () =>
        client.send('POST', `/api/reportExecution/run/${reportId}?format=json`, headers, '{}');
      let answer = await run();
      for (let i = 0; i < 3; i++) answer = await run();
      if (answer.status !== 200) throw new Error(`running ${name} answered ${answer.status} ${answer.text}`);
      const samples: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        const res = await run();
        samples.push(performance.now() - t);
        if (res.status !== 200) throw new Error(`${name} answered ${res.status}`);
      }
      const body = JSON.parse(answer.text) as {
        TotalRecordAvailable: number;
        Grouping: { Rows: { Level: number }[] };
      };
      shapes[name] = {
        ...stats(samples),
        groups: body.Grouping.Rows.filter((r) => r.Level === 1).length,
        total: body.TotalRecordAvailable,
      };
      console.log(name, JSON.stringify(shapes[name]));
    }

    // The statement's work alone (as the application role in the tenant's transaction, no HTTP, no JSON).
    const sqlSamples: number[] = [];
    for (let i = 0; i < runs + 3; i++) {
      const t = performance.now();
      await withTenantTx(database.db, { tenantId: tenant.id }, (tx) =>
        tx.execute(sql`select status, state_province, count(*)
          from contacts where tenant_id = ${tenant.id} and not is_deleted
          group by status, state_province order by 1, 2`),
      );
      if (i >= 3) sqlSamples.push(performance.now() - t);
    }
    const main = shapes.statusAndState as Stats;
    const worst = Object.entries(shapes).reduce((a, b) => (b[1].p95 > a[1].p95 ? b : a));
    return {
      contacts: count,
      loadMs,
      runs,
      shapes,
      sqlAlone: stats(sqlSamples),
      worst: { shape: worst[0], p95: worst[1].p95 },
      pass: main.p95 <= 500,
    };
  } finally {
    await close?.();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
    execFileSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--if-exists', databaseName]);
  }
}
