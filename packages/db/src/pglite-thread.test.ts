import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, rowsOf } from './client.ts';
import { PgliteThread } from './pglite-thread.ts';
import { withOpeningTx } from './tenant-scope.ts';

let thread: PgliteThread;
let db: Db;

beforeAll(async () => {
  thread = await PgliteThread.start();
  db = drizzle({ client: thread as never }) as unknown as Db;
  await thread.exec('create table notes (id int generated always as identity, body text not null, at date)');
});
afterAll(() => thread.close());

describe('PGlite in a worker thread', () => {
  it('leaves the event loop free while a long transaction runs: a timer set at its start fires before it ends', async () => {
    let fired = false;
    let firedBeforeEnd = false;
    const timer = setTimeout(() => {
      fired = true;
    }, 1);
    await withOpeningTx(db, 'select 1', async (tx) => {
      // Many statements back to back, as an import runs them: in the main thread their answers settled promises
      // one after the other and no timer or socket got a turn until the transaction ended.
      for (let i = 0; i < 400 && !fired; i++)
        await tx.execute(sql`insert into notes (body) values (${`note ${i}`})`);
      await tx.execute(sql`select count(*) from generate_series(1, 200000)`);
      firedBeforeEnd = fired;
    });
    clearTimeout(timer);
    expect(firedBeforeEnd).toBe(true);
  });

  it("answers rows with PGlite's parsers (dates as Drizzle's driver reads them, arrays) and fails with the engine's error fields", async () => {
    await thread.query('insert into notes (body, at) values ($1, $2)', ['dated', '2026-11-25']);
    const [row] = await db
      .execute(sql`select body, at, array[1, 2] as list from notes where body = 'dated'`)
      .then(rowsOf);
    expect(row).toEqual({ body: 'dated', at: '2026-11-25', list: [1, 2] });
    await expect(thread.query('insert into notes (body) values (null)')).rejects.toMatchObject({
      code: '23502',
      column: 'body',
      table: 'notes',
    });
    // The thread goes on after an error.
    expect((await thread.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
  });

  it("runs Drizzle's own transactions and rolls one back when its callback fails", async () => {
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into notes (body) values ('rolled back')`);
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into notes (body) values ('committed')`);
    });
    const bodies = rowsOf<{ body: string }>(await db.execute(sql`select body from notes`)).map((r) => r.body);
    expect(bodies).toContain('committed');
    expect(bodies).not.toContain('rolled back');
  });

  it('copies rows from a blob, and a dump starts another thread with the same rows', async () => {
    await thread.query("copy notes (body) from '/dev/blob'", [], {
      blob: new Blob(['copied one\ncopied two\n']),
    });
    const clone = await PgliteThread.start({ loadDataDir: await thread.dumpDataDir() });
    try {
      const { rows } = await clone.query("select body from notes where body like 'copied %' order by body");
      expect(rows).toEqual([{ body: 'copied one' }, { body: 'copied two' }]);
    } finally {
      await clone.close();
    }
    await expect(clone.query('select 1')).rejects.toThrow(/closed|stopped/);
  });
});
