import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, rowsOf } from './client.ts';
import { KEPT_STATEMENTS, keptStatementsOf } from './kept-statements.ts';
import { localEngine, type PgliteTxClient, pgliteTransaction } from './pglite-tx.ts';
import { kept, q, raw, render, runFragments } from './statement.ts';
import { withOpeningTx } from './tenant-scope.ts';

let pglite: PGlite;
let db: Db;
beforeAll(async () => {
  pglite = new PGlite();
  db = drizzle(pglite) as unknown as Db;
  await pglite.exec('create table notes (id serial primary key, body text not null unique)');
});
afterAll(() => pglite.close());

const bodies = async () =>
  (await pglite.query<{ body: string }>('select body from notes order by id')).rows.map((r) => r.body);

describe('a statement in one call', () => {
  it('answers what PGlite answers for the same statement and values (property: values of every kind)', async () => {
    const text = `select $1::int as i, $2::text as s, $3::boolean as b, $4::jsonb as j, $5::int[] as ia,
      $6::text[] as ta, $7::numeric as n, $8::bigint as big, $9::text as nothing`;
    const value = fc.tuple(
      fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
      fc.string().filter((s) => !s.includes('\0')),
      fc.boolean(),
      fc.dictionary(
        fc.string().filter((s) => !s.includes('\0')),
        fc.oneof(fc.integer(), fc.boolean()),
      ),
      fc.array(fc.integer({ min: -1000, max: 1000 }), { maxLength: 5 }),
      fc.array(
        fc.string().filter((s) => !s.includes('\0')),
        { maxLength: 4 },
      ),
      fc.integer(),
      fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    );
    await fc.assert(
      fc.asyncProperty(value, async (values) => {
        const params = [...values, null];
        const theirs = (await pglite.query(text, params)).rows;
        const ours = await pgliteTransaction(pglite, 'select 1', (client) => client.query(text, params));
        expect(ours.rows).toEqual(theirs);
      }),
      { numRuns: 60 },
    );
  });

  it('sends dates and bytes as the same instant and the same bytes', async () => {
    const at = new Date('2026-11-24T18:30:00.123Z');
    const bytes = new Uint8Array([0, 1, 2, 254, 255]);
    const [row] = (
      await pgliteTransaction(pglite, 'select 1', (client) =>
        client.query(
          `select $1::timestamptz = '2026-11-24T18:30:00.123Z'::timestamptz as same, $2::bytea as bytes`,
          [at, bytes],
        ),
      )
    ).rows as { same: boolean; bytes: Uint8Array }[];
    expect(row?.same).toBe(true);
    expect([...(row?.bytes ?? [])]).toEqual([...bytes]);
  });
  it("fails with the engine's error, its code and fields as PGlite's own error carries them", async () => {
    await pglite.exec("insert into notes (body) values ('taken')");
    const text = 'insert into notes (body) values ($1)';
    const theirs = await pglite.query(text, ['taken']).catch((e: unknown) => e);
    const ours = await pgliteTransaction(pglite, 'select 1', (client) => client.query(text, ['taken'])).catch(
      (e: unknown) => e,
    );
    const fields = ['message', 'code', 'severity', 'detail', 'schema', 'table', 'constraint', 'routine'];
    const pick = (e: unknown) =>
      Object.fromEntries(fields.map((f) => [f, (e as Record<string, unknown>)[f]]));
    expect(pick(ours)).toEqual(pick(theirs));
    expect(pick(ours)).toMatchObject({ code: '23505', constraint: 'notes_body_key', table: 'notes' });
    expect(ours).toBeInstanceOf(Error);
  });
});

describe('a transaction opened with its first statement', () => {
  it("answers the opening statement's rows and commits what the callback wrote", async () => {
    const seen = await withOpeningTx(db, "select 'opened' as word, 2 as n", async (tx, rows) => {
      await tx.execute(sql`insert into notes (body) values (${'kept'})`);
      return rows;
    });
    expect(seen).toEqual([{ word: 'opened', n: 2 }]);
    expect(await bodies()).toContain('kept');
  });

  it('rolls back everything when the callback fails, and the database goes on', async () => {
    await expect(
      withOpeningTx(db, 'select 1', async (tx) => {
        await tx.execute(sql`insert into notes (body) values (${'lost'})`);
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    await expect(withOpeningTx(db, 'select 1 / 0', async () => 'never')).rejects.toThrow(/division by zero/);
    expect(await bodies()).not.toContain('lost');
    expect(await withOpeningTx(db, 'select 1', async () => 'fine')).toBe('fine');
    expect(pglite.isInTransaction()).toBe(false);
  });

  it('fails, and commits nothing, when a statement failed and the callback went on', async () => {
    await expect(
      withOpeningTx(db, 'select 1', async (tx) => {
        await tx.execute(sql`insert into notes (body) values (${'half'})`);
        await tx.execute(sql`insert into notes (body) values (${'kept'})`).catch(() => undefined);
        return 'done';
      }),
    ).rejects.toThrow(/rolled back/);
    expect(await bodies()).not.toContain('half');
  });

  it('can be ended by its last statements, in their call', async () => {
    const rows = await withOpeningTx(db, 'select 1', async (tx) => {
      await tx.execute(sql`insert into notes (body) values (${'by pipeline'})`);
      return runFragments(
        tx,
        [q`select count(*)::int as n from notes where body = ${'by pipeline'}`, q`select 2 as two`],
        {
          commit: true,
        },
      );
    });
    expect(rows).toEqual([[{ n: 1 }], [{ two: 2 }]]);
    expect(await bodies()).toContain('by pipeline');
    await expect(
      withOpeningTx(db, 'select 1', async (tx) => {
        await tx.execute(sql`insert into notes (body) values (${'not by pipeline'})`);
        return runFragments(tx, [q`select 1 as one`, q`select 1 / ${0}::int as boom`], { commit: true });
      }),
    ).rejects.toMatchObject({ cause: { code: '22012' } });
    expect(await bodies()).not.toContain('not by pipeline');
  });

  it('refuses statements once it has ended', async () => {
    let client: PgliteTxClient | undefined;
    await pgliteTransaction(pglite, 'select 1', async (c) => {
      client = c;
      await c.pipeline([{ text: 'select 1', params: [] }], { commit: true });
    });
    await expect(client?.query('select 1')).rejects.toThrow(/ended/);
  });

  it('runs alone: transactions started together run one after the other, never interleaved', async () => {
    const order: string[] = [];
    const one = (name: string) =>
      withOpeningTx(db, `select '${name}' as name`, async (tx) => {
        order.push(`${name} begins`);
        await tx.execute(sql`insert into notes (body) values (${name})`);
        await new Promise((done) => setTimeout(done, 5));
        const [count] = rowsOf<{ n: number }>(
          await tx.execute(sql`select count(*)::int as n from notes where body like 'together %'`),
        );
        order.push(`${name} ends`);
        return count?.n;
      });
    const counts = await Promise.all([one('together a'), one('together b'), one('together c')]);
    expect(counts).toEqual([1, 2, 3]);
    expect(order).toEqual([
      'together a begins',
      'together a ends',
      'together b begins',
      'together b ends',
      'together c begins',
      'together c ends',
    ]);
  });

  it('keeps what it committed in a data folder across a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pglite-tx-'));
    try {
      const first = new PGlite({ dataDir });
      await first.exec('create table kept (v text)');
      await withOpeningTx(drizzle(first) as unknown as Db, 'select 1', async (tx) => {
        await tx.execute(sql`insert into kept values (${'after restart'})`);
      });
      await first.close();
      const second = new PGlite({ dataDir });
      expect((await second.query('select v from kept')).rows).toEqual([{ v: 'after restart' }]);
      await second.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('statements kept prepared (decision 0197)', () => {
  const names = async () =>
    (
      await pglite.query<{ name: string; statement: string }>(
        'select name, statement from pg_prepared_statements',
      )
    ).rows;
  const shape = (i: number) => kept(q`select ${i}::int + ${raw(String(i))} as n`);

  it('parses a shape once, closes the least recently used beyond the limit, and answers every call', async () => {
    const registry = keptStatementsOf(localEngine(pglite));
    const before = (await names()).length;
    await pgliteTransaction(pglite, 'select 1', async (client) => {
      for (let round = 0; round < 2; round++) {
        const rows = await client.pipeline([render(kept(q`select ${round}::int as r`))]);
        expect(rows[0]?.rows).toEqual([{ r: round }]);
      }
    });
    expect((await names()).length).toBe(before + 1);
    // Beyond the limit the oldest is closed at the next call.
    for (let i = 0; i <= KEPT_STATEMENTS; i++)
      await pgliteTransaction(pglite, 'select 1', (client) => client.pipeline([render(shape(i))]));
    await pgliteTransaction(pglite, 'select 1', (client) => client.pipeline([render(shape(1))]));
    expect(registry.size).toBe(KEPT_STATEMENTS);
    expect((await names()).length).toBe(KEPT_STATEMENTS);
  });

  it('parses anew, under a new name, a kept statement whose call failed', async () => {
    const failing = { text: 'select 1/0', params: [] };
    // The failure before the statement's parse (never parsed) and after it (parsed).
    for (const [i, order] of [(s: never) => [failing, s], (s: never) => [s, failing]].entries()) {
      const statement = render(kept(q`select ${'x'}::text as ${raw(`t${i}`)}`));
      await expect(
        pgliteTransaction(pglite, 'select 1', (client) => client.pipeline(order(statement as never))),
      ).rejects.toThrow(/division by zero/);
      const again = await pgliteTransaction(pglite, 'select 1', (client) => client.pipeline([statement]));
      expect(again[0]?.rows).toEqual([{ [`t${i}`]: 'x' }]);
      expect((await names()).filter((n) => n.statement === statement.text)).toHaveLength(1);
    }
  });
});
