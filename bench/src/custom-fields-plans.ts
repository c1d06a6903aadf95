/**
 * The plans of the custom-fields list bench's cases (bench/src/custom-fields.ts), on a database it seeded and kept
 * (`--cf-database`): each statement of a list request (the definitions, the total, the page) explained with
 * ANALYZE and BUFFERS as the application role under row-level security, as the list runs them. For finding where a
 * case's time goes between bench runs:
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/gh_cf1m node bench/src/custom-fields-plans.ts [case …]
 * Cases: filteredDeep (a dropdown value sorted by a custom date at $skip 20,000), textContains (a text contains
 * sorted by name), dateSort, customDateSortSkip100000 (the bench's date sort at $skip 100,000), choiceSort. `PLAN_RUNS` (default 3) runs each statement that many times and prints the
 * last plan and every run's execution time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Fragment, openDatabase, q, raw, rowsOf, runFragment, withTenantTx } from '@guildhall/db';
import { buildApp } from '@guildhall/server';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../packages/server/src/platform/config.ts';
import { extraFieldsOf } from '../../packages/server/src/platform/resources/extra-fields.ts';
import { listPage } from '../../packages/server/src/platform/resources/resource.service.ts';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL names a database the custom-fields bench kept');
const runs = Number(process.env.PLAN_RUNS ?? 3);
const database = await openDatabase({ databaseUrl: url, poolSize: 2 });
const [tenant] = rowsOf<{ id: string }>(
  await database.ownerDb.execute(sql`select id from tenants where slug = 'bench-cf'`),
);
if (!tenant) throw new Error('no tenant bench-cf');
const fields = rowsOf<{ id: number; name: string }>(
  await database.ownerDb.execute(
    sql`select custom_field_id as id, name from custom_fields where tenant_id = ${tenant.id} and entity = 'Contact'`,
  ),
);
const cf = (name: string) => `cf_${fields.find((f) => f.name === name)?.id}`;
const dataDir = mkdtempSync(join(tmpdir(), 'gh-cf-plans-'));
const app = await buildApp({
  database,
  config: { ...loadConfig({}), dataDir, publicUrl: 'http://bench.local', smtpUrl: undefined },
});
const bound = app.resources.find((r) => r.resource.name === 'contacts');
if (!bound) throw new Error('no contacts resource');
const where = (...Criteria: unknown[]) => ({ Id: 9999, Criteria });
const cases: Record<string, { query: Record<string, unknown>; body: Record<string, unknown> }> = {
  filteredDeep: {
    query: {
      $top: 50,
      $skip: Number(process.env.PLAN_SKIP ?? 20_000),
      $orderby: `${cf('Certified on')} asc`,
    },
    body: where({ PropertyName: cf('Chapter'), Operator: 'eq', Value: 3 }),
  },
  filteredTop: {
    query: { $top: 50, $skip: 0, $orderby: `${cf('Certified on')} asc` },
    body: where({ PropertyName: cf('Chapter'), Operator: 'eq', Value: 3 }),
  },
  textContains: {
    query: { $top: 50, $skip: 0, $orderby: 'DisplayName asc' },
    body: where({ PropertyName: cf('Diet'), Operator: 'contains', Value: 'diet 42' }),
  },
  dateSort: { query: { $top: 50, $skip: 0, $orderby: `${cf('Certified on')} asc` }, body: {} },
  customDateSortSkip100000: {
    query: {
      $top: 50,
      $skip: Number(process.env.PLAN_SKIP ?? 100_000),
      $orderby: `${cf('Certified on')} asc`,
    },
    body: {},
  },
  choiceSort: { query: { $top: 50, $skip: 0, $orderby: `${cf('Chapter')} desc` }, body: {} },
};
const chosen = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(cases);
try {
  for (const name of chosen) {
    const c = cases[name];
    if (!c) throw new Error(`no case ${name}`);
    await withTenantTx(database.db, { tenantId: tenant.id }, async (tx) => {
      const extra = await extraFieldsOf(tx, tenant.id, bound);
      const page = listPage(bound, tenant.id, c.query as never, c.body as never, 50, extra);
      for (const [i, statement] of page.statements.entries()) {
        const times: number[] = [];
        let plan: string[] = [];
        for (let k = 0; k < runs; k++) {
          plan = (
            await runFragment<{ 'QUERY PLAN': string }>(
              tx,
              q`explain (analyze, buffers${process.env.PLAN_TIMING ? raw('') : raw(', timing off')}) ${statement as Fragment}`,
            )
          ).map((r) => r['QUERY PLAN']);
          const at = plan.find((l) => l.startsWith('Execution Time'));
          times.push(Number(at?.match(/[\d.]+/)?.[0] ?? Number.NaN));
        }
        console.log(`\n== ${name}, statement ${i + 1} of ${page.statements.length}: ${times.join(' / ')} ms`);
        console.log(plan.join('\n'));
      }
    });
  }
} finally {
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
