/**
 * Fragments run in a tenant transaction, alone and several in one round trip (pipelined on PostgreSQL, one call
 * into the engine on PGlite). Runs on both databases (TEST_DATABASE_URL for PostgreSQL).
 */
import { q, readInOneTrip, runFragment, runFragments, withTenantTx } from '@guildhall/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenant, type TenantWithUsers, type TestContext, testApp } from './helpers.ts';

let ctx: TestContext;
let t: TenantWithUsers;

beforeAll(async () => {
  ctx = await testApp({}, 3);
  t = await seedTenant(ctx.database);
});
afterAll(() => ctx.close());

const scope = () => ({ tenantId: t.tenant.id, userId: t.admin.id });

describe('several fragments in one call', () => {
  it('answer each statement its own rows, in order, read as one statement alone reads them', async () => {
    const statements = [
      q`select ${7}::int as n, ${'a'}::text as s`,
      q`select generate_series(1, ${3}) as i`,
      q`select timestamptz '2026-11-22 07:00:00+00' as at, date '2026-11-22' as day, ${{ a: [1] }}::jsonb as doc`,
      q`select 1 as never where false`,
    ];
    const [together, alone] = await withTenantTx(ctx.database.db, scope(), async (tx) => {
      const each = [];
      for (const s of statements) each.push(await runFragment(tx, s));
      return [await runFragments(tx, statements), each];
    });
    expect(together).toEqual(alone);
    expect(together[0]).toEqual([{ n: 7, s: 'a' }]);
    expect(together[1]).toEqual([{ i: 1 }, { i: 2 }, { i: 3 }]);
    expect(together[2]?.[0]).toMatchObject({ day: '2026-11-22', doc: { a: [1] } });
    expect(typeof together[2]?.[0]?.at).toBe('string');
    expect(together[3]).toEqual([]);
  });

  it('see the scope and the writes of their own transaction', async () => {
    const marker = `pipeline-${Date.now()}`;
    const [, seen] = await withTenantTx(ctx.database.db, scope(), async (tx) => {
      await tx.execute(
        sql`insert into help_texts (tenant_id, state_name, title, content) values (${t.tenant.id}, ${marker}, 'x', 'x')`,
      );
      return runFragments(tx, [
        q`select current_setting('app.tenant_id') as tenant`,
        q`select count(*)::int as n from help_texts where state_name = ${marker}`,
      ]);
    }).then((rows) => [null, rows] as const);
    expect(seen).toEqual([[{ tenant: t.tenant.id }], [{ n: 1 }]]);
  });

  it('fail as a whole when one statement fails, roll back, and give every connection back', async () => {
    const marker = `pipeline-fail-${Date.now()}`;
    // More failures than the pool has connections: a connection left waiting would block the last call forever.
    for (let i = 0; i < 8; i++) {
      await expect(
        withTenantTx(ctx.database.db, scope(), async (tx) => {
          await tx.execute(
            sql`insert into help_texts (tenant_id, state_name, title, content) values (${t.tenant.id}, ${`${marker}-${i}`}, 'x', 'x')`,
          );
          return runFragments(tx, [q`select 1 as one`, q`select 1 / ${0}::int as boom`, q`select 2 as two`]);
        }),
      ).rejects.toMatchObject({ cause: { message: expect.stringMatching(/division by zero/) } });
    }
    const [left] = await withTenantTx(ctx.database.db, scope(), (tx) =>
      runFragment<{ n: number }>(
        tx,
        q`select count(*)::int as n from help_texts where state_name like ${`${marker}%`}`,
      ),
    );
    expect(left).toEqual({ n: 0 });
  });

  it('can end the transaction with their round trip: the writes before them are committed once', async () => {
    const marker = `pipeline-commit-${Date.now()}`;
    const insert = sql`insert into help_texts (tenant_id, state_name, title, content) values (${t.tenant.id}, ${marker}, 'x', 'x')`;
    const rows = await withTenantTx(ctx.database.db, scope(), async (tx) => {
      await tx.execute(insert);
      return runFragments(tx, [q`select 1 as one`, q`select 2 as two`], { commit: true });
    });
    expect(rows).toEqual([[{ one: 1 }], [{ two: 2 }]]);
    // A single statement may carry the commit too, and a failing one commits nothing.
    await withTenantTx(ctx.database.db, scope(), (tx) =>
      runFragments(tx, [q`select 1 as one`], { commit: true }),
    );
    await expect(
      withTenantTx(ctx.database.db, scope(), async (tx) => {
        await tx.execute(sql`update help_texts set title = 'changed' where state_name = ${marker}`);
        return runFragments(tx, [q`select 1 / ${0}::int as boom`], { commit: true });
      }),
    ).rejects.toMatchObject({ cause: { code: '22012' } });
    const [seen] = await withTenantTx(ctx.database.db, scope(), (tx) =>
      runFragment<{ n: number; title: string }>(
        tx,
        q`select count(*)::int as n, min(title) as title from help_texts where state_name = ${marker}`,
      ),
    );
    expect(seen).toEqual({ n: 1, title: 'x' });
  });

  it('fail, and commit nothing, when a statement failed and the transaction went on', async () => {
    const marker = `swallowed-${Date.now()}`;
    await expect(
      withTenantTx(ctx.database.db, scope(), async (tx) => {
        await tx.execute(
          sql`insert into help_texts (tenant_id, state_name, title, content) values (${t.tenant.id}, ${marker}, 'x', 'x')`,
        );
        await runFragment(tx, q`select 1 / ${0}::int as boom`).catch(() => undefined);
        return 'done';
      }),
    ).rejects.toThrow(/rolled back/);
    const [left] = await withTenantTx(ctx.database.db, scope(), (tx) =>
      runFragment<{ n: number }>(
        tx,
        q`select count(*)::int as n from help_texts where state_name = ${marker}`,
      ),
    );
    expect(left).toEqual({ n: 0 });
  });

  it('refuse a value that does not fit its parameter as an error of the call, not of the process', async () => {
    await expect(
      withTenantTx(ctx.database.db, scope(), (tx) =>
        runFragments(tx, [q`select ${'not a number'}::int as n`, q`select 1 as one`]),
      ),
    ).rejects.toMatchObject({ cause: { code: '22P02' } });
    const [ok] = await withTenantTx(ctx.database.db, scope(), (tx) =>
      runFragments(tx, [q`select 1 as one`, q`select 2 as two`]),
    );
    expect(ok).toEqual([{ one: 1 }]);
  });
});

describe('a read in one round trip', () => {
  const helpTitles = q`select title from help_texts where state_name like 'one-trip-%' order by title`;

  it('runs its statements in order in one transaction: the first scopes the ones after it', async () => {
    const theirs = await seedTenant(ctx.database);
    for (const [tenant, title] of [
      [t.tenant.id, 'one-trip-mine'],
      [theirs.tenant.id, 'one-trip-theirs'],
    ] as const) {
      await withTenantTx(ctx.database.db, { tenantId: tenant }, (tx) =>
        tx.execute(
          sql`insert into help_texts (tenant_id, state_name, title, content) values (${tenant}, ${title}, ${title}, 'x')`,
        ),
      );
    }
    const [scoped, rows, again] = await readInOneTrip(ctx.database.db, [
      q`select set_config('app.tenant_id', ${t.tenant.id}, true) as tenant`,
      helpTitles,
      q`select current_setting('app.tenant_id', true) as tenant, now() = statement_timestamp() as fresh`,
    ]);
    expect(scoped).toEqual([{ tenant: t.tenant.id }]);
    expect(rows).toEqual([{ title: 'one-trip-mine' }]);
    // Still the same transaction (its start time is older than the statement's only when it began before it).
    expect(again?.[0]?.tenant).toBe(t.tenant.id);
    // Without a scope, row-level security shows no tenant's rows; and the scope did not outlive its transaction.
    const [unscoped] = await readInOneTrip(ctx.database.db, [helpTitles]);
    expect(unscoped).toEqual([]);
  });

  it('fails as a whole when a statement fails, commits nothing, and gives every connection back', async () => {
    const marker = `one-trip-fail-${Date.now()}`;
    for (let i = 0; i < 8; i++) {
      await expect(
        readInOneTrip(ctx.database.db, [
          q`select set_config('app.tenant_id', ${t.tenant.id}, true)`,
          q`insert into help_texts (tenant_id, state_name, title, content) values (${t.tenant.id}, ${`${marker}-${i}`}, 'x', 'x')`,
          q`select 1 / ${0}::int as boom`,
          q`select 2 as two`,
        ]),
      ).rejects.toMatchObject({ cause: { code: '22012' } });
    }
    const [left] = await withTenantTx(ctx.database.db, scope(), (tx) =>
      runFragment<{ n: number }>(
        tx,
        q`select count(*)::int as n from help_texts where state_name like ${`${marker}%`}`,
      ),
    );
    expect(left).toEqual({ n: 0 });
    expect(await readInOneTrip(ctx.database.db, [q`select 1 as one`])).toEqual([[{ one: 1 }]]);
  });
});
