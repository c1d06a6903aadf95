import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineQuery, isQuery, type QueryParameter } from './query.ts';
import {
  bindQueryParameters,
  filterQueries,
  inferredParameters,
  numberedSql,
  placeholderNamesOf,
  QUERY_TEXT_MAX,
  queryDeclarationProblems,
  queryFilterApplies,
  splitPlaceholders,
} from './query-tool.rules.ts';

const list = [
  {
    name: 'contacts.withoutEmail',
    title: 'Contacts without email',
    description: 'No address',
    group: 'Contacts',
  },
  { name: 'billing.unpaid', title: 'Unpaid invoices', description: 'Over 90 days', group: 'Billing' },
  { name: 'events.noShows', title: 'Event no-shows', description: 'Registered, never came', group: 'Events' },
];

describe('the filter of the list of queries (spec 001: applied from 3 characters)', () => {
  it.each([
    ['', 3],
    ['e', 3],
    ['em', 3],
    ['  em  ', 3],
    ['ema', 1],
    ['EMAIL', 1],
    ['bil', 1],
    ['90 days', 1],
    ['contacts email', 1],
    ['xyz', 0],
  ])('%j keeps %i queries', (text, count) => {
    expect(filterQueries(list, text)).toHaveLength(count);
  });

  it('applies only from 3 characters, whatever is typed', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), (text) => {
        expect(queryFilterApplies(text)).toBe(text.trim().length >= 3);
        if (!queryFilterApplies(text)) expect(filterQueries(list, text)).toEqual(list);
      }),
    );
  });
});

describe('splitPlaceholders', () => {
  it.each([
    ['select :a', ['a']],
    ['select :a, :b_2 from x where y = :a', ['a', 'b_2', 'a']],
    ["select ':not' , :yes", ['yes']],
    ["select 'it''s :not', :yes", ['yes']],
    ["select E'\\' :not', :yes", ['yes']],
    ['select ":not", :yes', ['yes']],
    ['select 1::int, :x::date', ['x']],
    ['select 1 -- :not\n, :yes', ['yes']],
    ['select /* :not /* nested :no */ still :no */ :yes', ['yes']],
    ['select $$ :not $$, $tag$ :no $tag$, :yes', ['yes']],
    ['select a[1:2] from t', []],
    ['select :', []],
    ['select $1', []],
  ])('%j names %j', (sql, names) => {
    expect(splitPlaceholders(sql).names).toEqual(names);
  });

  it('numbers each placeholder in order, keeping the rest of the text', () => {
    const split = splitPlaceholders("select :a, ':a', :b::date where x = :a");
    expect(numberedSql(split)).toBe("select $1, ':a', $2::date where x = $3");
    expect(split.strings.join('')).toBe("select , ':a', ::date where x = ");
  });

  it('keeps every character of SQL without placeholders', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', ' ', "'", '"', '$', '-', '/', '*', '\n', '1') }),
        (sql) => {
          const split = splitPlaceholders(sql);
          expect(split.names).toEqual([]);
          expect(numberedSql(split)).toBe(sql);
        },
      ),
    );
  });
});

describe('declarations', () => {
  const q = (sql: string, parameters: QueryParameter[]) =>
    defineQuery({ name: 'x.y', title: 'X', description: '', group: 'X', sql, parameters });

  it('is recognised as a query', () => {
    expect(isQuery(q('select 1', []))).toBe(true);
    expect(isQuery({ kind: 'report' })).toBe(false);
    expect(isQuery(null)).toBe(false);
  });

  it('names a date range placeholder pair', () => {
    expect(placeholderNamesOf({ name: 'p', label: 'P', type: 'dateRange' })).toEqual(['p_start', 'p_end']);
  });

  it('finds what is wrong with a declaration', () => {
    expect(queryDeclarationProblems(q('select :a', [{ name: 'a', label: 'A', type: 'text' }]))).toEqual([]);
    expect(
      queryDeclarationProblems(q('select :p_start, :p_end', [{ name: 'p', label: 'P', type: 'dateRange' }])),
    ).toEqual([]);
    expect(queryDeclarationProblems(q('select :a, :b', [{ name: 'a', label: 'A', type: 'text' }]))).toEqual([
      ':b is not a declared parameter.',
    ]);
    expect(
      queryDeclarationProblems(
        q('select 1', [
          { name: 'a b', label: 'A', type: 'text' },
          { name: 's', label: 'S', type: 'select' },
        ]),
      ),
    ).toEqual([
      'Parameter name a b is not a plain name.',
      'Parameter a b is not used by the SQL.',
      'Parameter s is not used by the SQL.',
      'Select parameter s has no options and no lookup.',
    ]);
  });

  it('infers text parameters from a written query, once each, labelled', () => {
    expect(inferredParameters('select :since::date, :contactType, :since, :min_amount')).toEqual([
      { name: 'since', label: 'Since', type: 'text' },
      { name: 'contactType', label: 'Contact type', type: 'text' },
      { name: 'min_amount', label: 'Min amount', type: 'text' },
    ]);
  });
});

describe('bindQueryParameters', () => {
  const now = new Date('2026-11-25T15:00:00Z');
  const tz = 'America/Chicago';
  const params: QueryParameter[] = [
    { name: 'city', label: 'City', type: 'text' },
    { name: 'n', label: 'Count', type: 'number', required: true },
    { name: 'since', label: 'Since', type: 'date' },
    { name: 'period', label: 'Period', type: 'dateRange' },
    { name: 'status', label: 'Status', type: 'select', options: [{ Key: 'active', Value: 'Active' }] },
    { name: 'kind', label: 'Kind', type: 'select', lookup: 'select 1' },
  ];
  const bind = (form: Record<string, unknown>, keys = { kind: ['a', 'b'] }) =>
    bindQueryParameters(params, form, now, tz, keys);

  it('binds every type from form text', () => {
    expect(
      bind({ city: ' Boston ', n: '2.5', since: '2026-01-31', period: '7', status: 'active', kind: 'b' }),
    ).toEqual({
      values: {
        city: 'Boston',
        n: 2.5,
        since: '2026-01-31',
        period_start: '2026-10-01',
        period_end: '2026-10-31',
        status: 'active',
        kind: 'b',
      },
      errors: {},
    });
  });

  it('leaves optional parameters null and requires the required ones', () => {
    const r = bind({});
    expect(r.values).toEqual({
      city: null,
      n: null,
      since: null,
      period_start: null,
      period_end: null,
      status: null,
      kind: null,
    });
    expect(r.errors).toEqual({ n: ['Count is required.'] });
  });

  it('uses a default when the field is absent, not when it was sent empty', () => {
    const withDefault: QueryParameter[] = [{ name: 'n', label: 'N', type: 'number', default: '2' }];
    expect(bindQueryParameters(withDefault, {}, now, tz).values).toEqual({ n: 2 });
    expect(bindQueryParameters(withDefault, { n: '' }, now, tz).values).toEqual({ n: null });
  });

  it.each([
    [{ n: 'two' }, 'n', 'Count must be a number.'],
    [{ n: '1e400' }, 'n', 'Count must be a number.'],
    [{ n: '1', since: '2026-02-30' }, 'since', 'Since: enter a date as yyyy-mm-dd.'],
    [{ n: '1', period: '38' }, 'period', 'Period is not a date range option.'],
    [{ n: '1', period: 'x' }, 'period', 'Period is not a date range option.'],
    [{ n: '1', period: '0', period_StartDate: '2026-13-01' }, 'period', 'Period: enter dates as yyyy-mm-dd.'],
    [
      { n: '1', period: '0', period_StartDate: '2026-02-01', period_EndDate: '2026-01-01' },
      'period',
      'Period: the start is after the end.',
    ],
    [{ n: '1', status: 'gone' }, 'status', 'Status: choose one of the options.'],
    [{ n: '1', kind: 'c' }, 'kind', 'Kind: choose one of the options.'],
    [
      { n: '1', city: 'x'.repeat(QUERY_TEXT_MAX + 1) },
      'city',
      `City is longer than ${QUERY_TEXT_MAX} characters.`,
    ],
  ])('refuses %j', (form, field, message) => {
    expect(bind(form).errors).toEqual({ [field]: [message] });
  });

  it('binds a custom range with an open end, and a list value by its first entry', () => {
    const r = bind({ n: ['3', '4'], period: '0', period_StartDate: '2026-01-01' });
    expect(r.values.n).toBe(3);
    expect(r.values.period_start).toBe('2026-01-01');
    expect(r.values.period_end).toBeNull();
  });

  it('a custom range with no dates is no range; required, it is refused', () => {
    expect(bind({ n: '1', period: '0' }).values.period_start).toBeNull();
    const required: QueryParameter[] = [{ name: 'p', label: 'P', type: 'dateRange', required: true }];
    expect(bindQueryParameters(required, { p: '0' }, now, tz).errors).toEqual({ p: ['P is required.'] });
    expect(bindQueryParameters(required, {}, now, tz).errors).toEqual({ p: ['P is required.'] });
  });

  it('a lookup select without read keys accepts nothing', () => {
    expect(bindQueryParameters(params, { n: '1', kind: 'a' }, now, tz).errors).toEqual({
      kind: ['Kind: choose one of the options.'],
    });
  });

  it('a number parameter binds exactly the numbers it reads', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), (n) => {
        expect(bind({ n: String(n) }).values.n).toBe(n);
      }),
    );
  });
});
