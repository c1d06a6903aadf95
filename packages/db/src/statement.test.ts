import { PGlite } from '@electric-sql/pglite';
import { PgDialect } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/pglite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allOf, ident, joinFragments, q, raw, render, runFragment, toDrizzle } from './statement.ts';

describe('fragments', () => {
  it('number every value in order, nested fragments included, and inline only server text', () => {
    const inner = q`b = ${2} or c = ${'three'}`;
    const f = q`select ${raw('x')} from ${ident('t"1')} where a = ${1} and (${inner}) and d = ${null}`;
    expect(render(f)).toEqual({
      text: 'select x from "t""1" where a = $1 and (b = $2 or c = $3) and d = $4',
      params: [1, 2, 'three', null],
    });
  });

  it('join and combine conditions, and say when there is none', () => {
    expect(render(joinFragments([q`${1}`, q`${2}`, q`${3}`], ', '))).toEqual({
      text: '$1, $2, $3',
      params: [1, 2, 3],
    });
    expect(render(joinFragments([], ', '))).toEqual({ text: '', params: [] });
    expect(allOf([null, undefined])).toBeUndefined();
    expect(render(allOf([q`a = ${1}`]) ?? q``)).toEqual({ text: 'a = $1', params: [1] });
    expect(render(allOf([q`a = ${1}`, null, q`b = ${2} or c`]) ?? q``)).toEqual({
      text: '(a = $1) and (b = $2 or c)',
      params: [1, 2],
    });
  });

  it('render as Drizzle renders the same statement (property: any mix of values and nesting)', () => {
    const dialect = new PgDialect();
    const value = fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null));
    fc.assert(
      fc.property(fc.array(value, { maxLength: 6 }), fc.array(value, { maxLength: 4 }), (outer, nested) => {
        const inner = joinFragments(
          nested.map((v) => q`n = ${v}`),
          ' or ',
        );
        const f = q`select 1 where ${joinFragments(
          outer.map((v) => q`v = ${v}`),
          ' and ',
        )} and (${inner}) and ${raw('true')}`;
        const ours = render(f);
        const theirs = dialect.sqlToQuery(toDrizzle(f));
        expect(theirs.sql).toBe(ours.text);
        expect(theirs.params).toEqual(ours.params);
      }),
    );
  });
});

describe('runFragment', () => {
  let pglite: PGlite;
  let db: ReturnType<typeof drizzle>;
  beforeAll(async () => {
    pglite = new PGlite();
    db = drizzle(pglite);
    await pglite.exec(
      "create table t (id bigint, at timestamptz, day date, doc jsonb, name text); insert into t values (1, '2026-11-22 07:00:00+00', '2026-11-22', '{\"a\": 1}', 'one'), (2, null, null, null, 'two')",
    );
  });
  afterAll(() => pglite.close());

  it('answers rows keyed by column, dates and timestamps as the database text, as tx.execute does', async () => {
    const f = q`select id, at, day, doc, name from t where name = any(${['one', 'two']}) order by id`;
    const [ours, theirs] = await db.transaction(async (tx) => [
      await runFragment(tx as never, f),
      (await tx.execute(toDrizzle(f))).rows,
    ]);
    expect(ours).toEqual(theirs);
    expect(ours[0]).toMatchObject({ name: 'one', day: '2026-11-22', doc: { a: 1 } });
    expect(typeof ours[0]?.at).toBe('string');
    expect(ours[1]).toMatchObject({ at: null, day: null, doc: null, name: 'two' });
  });

  it('keeps a value that looks like SQL a value', async () => {
    const evil = "one' or '1'='1";
    const rows = await db.transaction((tx) =>
      runFragment(tx as never, q`select id from t where name = ${evil}`),
    );
    expect(rows).toEqual([]);
  });
});
