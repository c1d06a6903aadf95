/**
 * Record ids are numbered per association (decision 0071) by `gh_next_id`, the default of every numbered id column
 * (made cheaper per row in migration 0098, decision 0182): each association draws from its own sequence of the
 * table, one after the other, and a transaction without an association draws nothing. Runs on PGlite and, with
 * TEST_DATABASE_URL, on PostgreSQL.
 */
import { q, runFragment, withTenantTx } from '@guildhall/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenant, type TenantWithUsers, type TestContext, testApp } from './helpers.ts';

let ctx: TestContext;
let a: TenantWithUsers;
let b: TenantWithUsers;

beforeAll(async () => {
  ctx = await testApp();
  a = await seedTenant(ctx.database);
  b = await seedTenant(ctx.database);
});
afterAll(() => ctx.close());

const draw = (tenantId: string, n: number) =>
  withTenantTx(ctx.database.db, { tenantId }, async (tx) =>
    (
      await runFragment<{ id: string | number }>(
        tx,
        q`select gh_next_id('invoices') as id from generate_series(1, ${n}) order by 1`,
      )
    ).map((r) => Number(r.id)),
  );

/** The database's message of a failed statement (the driver wraps it in its own). */
const failure = (run: () => Promise<unknown>) =>
  run().then(
    () => 'no error',
    (e: Error & { cause?: Error }) => `${e.message} ${e.cause?.message ?? ''}`,
  );

describe('ids numbered per association', () => {
  it("draws consecutive ids from the association's own sequence, whatever another association draws", async () => {
    const first = await draw(a.tenant.id, 3);
    const other = await draw(b.tenant.id, 5);
    const next = await draw(a.tenant.id, 2);
    expect(first[1]).toBe((first[0] as number) + 1);
    expect(first[2]).toBe((first[0] as number) + 2);
    expect(next).toEqual([(first[2] as number) + 1, (first[2] as number) + 2]);
    expect(other[4]).toBe((other[0] as number) + 4);
  });

  it('refuses to draw an id without an association', async () => {
    expect(
      await failure(() => runFragment(ctx.database.db as never, q`select gh_next_id('invoices')`)),
    ).toMatch(/no tenant is set/);
  });

  it('refuses a table that is not numbered per association', async () => {
    expect(
      await failure(() =>
        withTenantTx(ctx.database.db, { tenantId: a.tenant.id }, (tx) =>
          runFragment(tx, q`select gh_next_id('no_such_table')`),
        ),
      ),
    ).toMatch(/does not draw per-tenant ids/);
  });
});
