/**
 * Billing bars (issue 15), on real PostgreSQL over HTTP to a running app (database `billing_bench_<pid>`, dropped at
 * the end):
 *   - `pdfs`: `pdfCount` invoices of four lines each (names such as Łukasz Żółć) issued through the API, then every
 *     one of their PDFs downloaded through `GET /api/billing/invoices/:id/pdf`, four at a time: the wall time of all
 *     of them (bar: 1,000 in at most 20 s), each answer's p50/p95, the PDFs' average size, and the CPU time per PDF
 *     (the app and its client in this process: a figure that barely moves with the load of a shared machine).
 *   - `aging`: `agingInvoices` open invoices (of `agingInvoices / 10` contacts, due dates spread over a year) loaded
 *     by SQL, then the receivables aging report `GET /api/billing/reports/aging` `agingRuns` times (bar: p95 <= 300 ms).
 *   - `import`: "Create invoices from file" with `importRows` rows (one invoice each, 2,000 contacts found by account
 *     number, two revenue accounts), uploaded, dry-run and committed through the API; the commit's wall time from the
 *     commit request to the job's `done` (bar: 10,000 rows in at most 30 s), with the load average around it.
 * The ledger property test and the idempotency and race bars are API tests (billing.ledger.test.ts,
 * billing.test.ts, billing-cards.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, openDatabase, rowsOf, withTenantTx } from '@guildhall/db';
import { createTenant, createUser } from '@guildhall/db/seed/factories';
import { buildApp } from '@guildhall/server';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../packages/server/src/platform/config.ts';

// biome-ignore lint/suspicious/noExplicitAny: answers of our own API, read field by field
type Json = any;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return +(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0).toFixed(1);
};

export async function measureBilling(options: {
  pdfCount: number;
  agingInvoices: number;
  agingRuns: number;
  importRows?: number;
}) {
  const dbName = `billing_bench_${process.pid}`;
  execFileSync('createdb', ['-h', '127.0.0.1', '-U', 'postgres', dbName]);
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-billing-'));
  let database: Database | null = null;
  try {
    database = await openDatabase({
      databaseUrl: `postgres://postgres@127.0.0.1:5432/${dbName}`,
      poolSize: 10,
    });
    await database.migrate();
    const config = { ...loadConfig({}), dataDir, publicUrl: 'http://bench.local', smtpUrl: undefined };
    const app = await buildApp({ database, config });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const login = async (name: string) => {
      const tenant = await createTenant(database!.db, { name });
      const username = `bench.${tenant.id.slice(0, 8)}`;
      await createUser(database!.db, {
        tenantId: tenant.id,
        username,
        password: 'bench-billing-2026',
        role: 'admin',
      });
      const res = await fetch(`${origin}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: 'bench-billing-2026' }),
      });
      const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      return { tenant, cookie };
    };
    const caller =
      (cookie: string) =>
      async (
        method: string,
        path: string,
        body?: unknown,
      ): Promise<{ status: number; ms: number; bytes: number; json: Json }> => {
        const started = performance.now();
        const res = await fetch(`${origin}${path}`, {
          method,
          headers: { cookie, origin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        const buffer = Buffer.from(await res.arrayBuffer());
        const ms = performance.now() - started;
        const isJson = (res.headers.get('content-type') ?? '').includes('json');
        return {
          status: res.status,
          ms,
          bytes: buffer.length,
          json: isJson ? JSON.parse(buffer.toString('utf8')) : null,
        };
      };

    // 1. Invoice PDFs.
    let pdfs: Record<string, unknown> | null = null;
    if (options.pdfCount > 0) {
      const pdfTenant = await login('Bench billing PDFs');
      const call = caller(pdfTenant.cookie);
      await withTenantTx(database.db, { tenantId: pdfTenant.tenant.id }, (tx) =>
        tx.execute(sql`insert into contacts (tenant_id, first_name, last_name, display_name, status, address1, city, postal_code)
          select ${pdfTenant.tenant.id}, 'Łukasz', 'Żółć ' || g, 'Żółć ' || g || ', Łukasz', 'active', 'ul. Świętokrzyska ' || g, 'Kraków', '31-000'
          from generate_series(1, 100) g`),
      );
      const contacts = rowsOf<{ contact_id: unknown }>(
        await withTenantTx(database.db, { tenantId: pdfTenant.tenant.id }, (tx) =>
          tx.execute(
            sql`select contact_id from contacts where tenant_id = ${pdfTenant.tenant.id} order by contact_id`,
          ),
        ),
      ).map((r) => Number(r.contact_id));
      const invoiceIds: number[] = [];
      const issueStarted = performance.now();
      for (let i = 0; i < options.pdfCount; i++) {
        const r = await call('POST', '/api/billing/invoices/issue', {
          contactId: contacts[i % contacts.length],
          lines: [
            {
              description: 'Annual membership dues',
              unitPriceCents: 12_000,
              quantity: 1,
              discountCents: 1_000,
            },
            { description: 'Conference ticket — early bird', unitPriceCents: 4_500, quantity: 2 },
            { description: 'Workshop: Zarządzanie stowarzyszeniem', unitPriceCents: 3_000, quantity: 1 },
            { description: 'Journal subscription', unitPriceCents: 2_500, quantity: 1 },
          ],
        });
        if (r.status !== 200) throw new Error(`issue answered ${r.status}: ${JSON.stringify(r.json)}`);
        invoiceIds.push(Number(r.json.invoiceId));
      }
      const issueMs = performance.now() - issueStarted;
      if (invoiceIds.length > 0) await call('GET', `/api/billing/invoices/${invoiceIds[0]}/pdf`);
      const pdfMs: number[] = [];
      let bytes = 0;
      let failures = 0;
      const queue = [...invoiceIds];
      // The CPU time of this process (the app and its HTTP client) while the PDFs render: unlike the wall time it
      // barely moves with other work on the machine.
      const cpuBefore = process.cpuUsage();
      const started = performance.now();
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
            const r = await call('GET', `/api/billing/invoices/${id}/pdf`);
            if (r.status !== 200) failures++;
            pdfMs.push(r.ms);
            bytes += r.bytes;
          }
        }),
      );
      const pdfWallMs = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      pdfs = {
        invoices: options.pdfCount,
        linesEach: 4,
        concurrency: 4,
        issueAllMs: Math.round(issueMs),
        wallMs: Math.round(pdfWallMs),
        p50ms: pct(pdfMs, 50),
        p95ms: pct(pdfMs, 95),
        averageBytes: Math.round(bytes / Math.max(1, pdfMs.length)),
        cpuMsPerPdf: +((cpu.user + cpu.system) / 1000 / Math.max(1, pdfMs.length)).toFixed(1),
        failures,
        bar: '1,000 invoice PDFs render in at most 20 s',
        pass: failures === 0 && pdfWallMs <= 20_000 * (options.pdfCount / 1000),
      };
    }

    // 2. Receivables aging over many open invoices.
    let aging: Record<string, unknown> | null = null;
    if (options.agingInvoices > 0) {
      const agingTenant = await login('Bench billing aging');
      const agingCall = caller(agingTenant.cookie);
      const tenantId = agingTenant.tenant.id;
      const contactCount = Math.max(1, Math.floor(options.agingInvoices / 10));
      const loadStarted = performance.now();
      await withTenantTx(database.db, { tenantId }, async (tx) => {
        await tx.execute(sql`insert into contacts (tenant_id, first_name, last_name, display_name, status)
          select ${tenantId}, 'Member', 'No. ' || g, 'No. ' || g || ', Member', 'active' from generate_series(1, ${contactCount}) g`);
        await tx.execute(sql`insert into invoices (tenant_id, number, contact_id, contact_name, status, issue_date, due_date,
            subtotal_cents, discount_cents, tax_cents, total_cents, applied_cents, written_off_cents, balance_cents, currency)
          select ${tenantId}, 'INV-' || lpad(g::text, 7, '0'), c.contact_id, c.display_name,
            case when g % 4 = 0 then 'partially_paid' else 'open' end,
            current_date - (g % 400) - 30, current_date - (g % 400) + 30,
            10000 + (g % 50) * 100, 0, 0, 10000 + (g % 50) * 100, case when g % 4 = 0 then 2500 else 0 end, 0,
            10000 + (g % 50) * 100 - case when g % 4 = 0 then 2500 else 0 end, 'USD'
          from generate_series(1, ${options.agingInvoices}) g
          join contacts c on c.tenant_id = ${tenantId} and c.last_name = 'No. ' || (1 + g % ${contactCount})`);
      });
      await database.db.execute(sql`analyze invoices`);
      const loadMs = performance.now() - loadStarted;
      const first = await agingCall('GET', '/api/billing/reports/aging');
      if (first.status !== 200)
        throw new Error(`aging answered ${first.status}: ${JSON.stringify(first.json)}`);
      const agingMs: number[] = [];
      for (let i = 0; i < options.agingRuns; i++)
        agingMs.push((await agingCall('GET', '/api/billing/reports/aging')).ms);
      aging = {
        openInvoices: first.json.totals.invoiceCount,
        contacts: first.json.totals.contactCount,
        loadMs: Math.round(loadMs),
        runs: options.agingRuns,
        p50ms: pct(agingMs, 50),
        p95ms: pct(agingMs, 95),
        totals: first.json.totals,
        bar: 'the aging report over 200,000 open invoices answers in p95 <= 300 ms',
        pass: pct(agingMs, 95) <= 300,
      };
    }
    // 3. Create invoices from file.
    const importRows = options.importRows ?? 0;
    let imported: Record<string, unknown> | null = null;
    if (importRows > 0) {
      const importTenant = await login('Bench billing import');
      const importCall = caller(importTenant.cookie);
      const itId = importTenant.tenant.id;
      await withTenantTx(database.db, { tenantId: itId }, async (tx) => {
        await tx.execute(sql`insert into contacts (tenant_id, first_name, last_name, display_name, status, account_number)
          select ${itId}, 'Łukasz', 'Żółć ' || g, 'Żółć ' || g || ', Łukasz', 'active', 'B-' || g from generate_series(1, 2000) g`);
        await tx.execute(sql`insert into ledger_accounts (tenant_id, code, name, kind)
          values (${itId}, '4100', 'Dues', 'revenue'), (${itId}, '4200', 'Events', 'revenue')`);
      });
      const lines = ['Account number,Item,Quantity,Unit price,Revenue account,Due date'];
      for (let i = 0; i < importRows; i++)
        lines.push(
          `B-${1 + (i % 2000)},${i % 2 ? 'Gala ticket' : 'Annual dues 2027'},${1 + (i % 3)},${(45 + (i % 100)).toFixed(2)},${i % 2 ? 'Events' : 'Dues'},2027-01-31`,
        );
      const form = new FormData();
      form.append('file', new Blob([lines.join('\n')], { type: 'text/csv' }), 'invoices.csv');
      const up = await fetch(`${origin}/api/billing/invoices/import/upload`, {
        method: 'POST',
        headers: { cookie: importTenant.cookie, origin },
        body: form,
      });
      const upJson = (await up.json()) as Json;
      if (up.status !== 200) throw new Error(`upload answered ${up.status}: ${JSON.stringify(upJson)}`);
      const body = { ImportId: upJson.ImportId, Mapping: upJson.Mapping };
      const dry = await importCall('POST', '/api/billing/invoices/import/dryRun', body);
      if (dry.status !== 200) throw new Error(`dry run answered ${dry.status}: ${JSON.stringify(dry.json)}`);
      const loadBefore = loadavg().map((x) => +x.toFixed(1));
      const started = performance.now();
      const commit = await importCall('POST', '/api/billing/invoices/import/commit', body);
      if (commit.status !== 202) throw new Error(`commit answered ${commit.status}`);
      let state: Json = commit.json;
      while (state.Status !== 'done' && state.Status !== 'failed') {
        await new Promise((r) => setTimeout(r, 100));
        state = (await importCall('GET', `/api/billing/invoices/import/${upJson.ImportId}`)).json;
      }
      const commitMs = performance.now() - started;
      const trial = (await importCall('GET', '/api/billing/ledger/trial-balance')).json;
      imported = {
        rows: importRows,
        invoicesCreated: state.Created,
        status: state.Status,
        error: state.Error,
        dryRunMs: Math.round(dry.ms),
        commitMs: Math.round(commitMs),
        ledgerBalanced: trial.debits === trial.credits,
        loadAverageBefore: loadBefore,
        loadAverageAfter: loadavg().map((x) => +x.toFixed(1)),
        bar: '"Create invoices from file" with 10,000 rows commits in at most 30 s on PostgreSQL',
        pass: state.Status === 'done' && commitMs <= 30_000 * (importRows / 10_000),
      };
    }
    await app.close();
    return { import: imported, pdfs, aging };
  } finally {
    await database?.close();
    execFileSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--if-exists', dbName]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
