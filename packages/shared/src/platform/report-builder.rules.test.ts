import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invoicesResource } from '../billing/billing.resource.ts';
import { contactsResource } from '../contacts/contacts.resource.ts';
import { membershipsResource } from '../memberships/memberships.resource.ts';
import {
  aggregatableFields,
  aggregateKey,
  chartPoints,
  groupableFields,
  groupedCsvRows,
  groupInMemory,
  groupLabel,
  measureValue,
  reportDefinitionProblems,
  reportDefinitionSchema,
  rollupGroups,
} from './report-builder.rules.ts';

const def = (over: Record<string, unknown>) => reportDefinitionSchema.parse({ resource: 'x', ...over });

describe('what a report may name', () => {
  it('groups by declared filterable or sortable fields of a groupable type, never the key or a money field', () => {
    const contacts = groupableFields(contactsResource);
    expect(contacts).toEqual(expect.arrayContaining(['Status', 'ContactType', 'StateProvince', 'City']));
    expect(contacts).not.toContain('ContactId');
    expect(contacts).not.toContain('Notes');
    expect(groupableFields(invoicesResource)).not.toContain('TotalCents');
  });

  it('sums and averages number and money fields only, never ids', () => {
    expect(aggregatableFields(invoicesResource)).toEqual(
      expect.arrayContaining(['TotalCents', 'BalanceCents']),
    );
    expect(aggregatableFields(invoicesResource)).not.toContain('InvoiceId');
    expect(aggregatableFields(membershipsResource)).toEqual(['TermTotal']);
    expect(aggregatableFields(contactsResource)).toEqual([]);
  });

  it('refuses every undeclared or unsuitable name with a message', () => {
    expect(
      reportDefinitionProblems(
        invoicesResource,
        def({
          columns: ['Number', 'TotalCents'],
          groupBy: [{ field: 'Status' }],
          aggregates: [{ fn: 'sum', field: 'TotalCents' }],
          chart: { type: 'bar', measure: 'sum_TotalCents' },
        }),
      ),
    ).toEqual([]);
    const problems = reportDefinitionProblems(
      invoicesResource,
      def({
        columns: ['Number', 'password_hash'],
        criteria: [{ PropertyName: 'Memo', Operator: 'eq', Value: 'x' }],
        sort: { field: 'Memo', direction: 'asc' },
        groupBy: [{ field: 'Status', bucket: 'month' }, { field: 'Status' }],
        aggregates: [
          { fn: 'sum', field: 'Status' },
          { fn: 'count', field: 'TotalCents' },
          { fn: 'avg', field: 'InvoiceId' },
        ],
        chart: { type: 'pie', measure: 'max_TotalCents' },
      }),
    );
    expect(problems).toEqual([
      'password_hash is not a field of this list.',
      'The list cannot be filtered by Memo.',
      'The list cannot be sorted by Memo.',
      'Status is not a date: group it by its value.',
      'Status is grouped twice.',
      'Sum needs a number or money field; Status is not one.',
      'A count counts rows: it takes no field.',
      'Average needs a number or money field; InvoiceId is not one.',
      'The chart draws a total the report does not have.',
    ]);
    expect(
      reportDefinitionProblems(contactsResource, def({ chart: { type: 'bar', measure: 'count' } })),
    ).toEqual(['A chart needs a grouping: choose what to group by.']);
    expect(() => def({ groupBy: [{ field: 'A' }, { field: 'B' }, { field: 'C' }] })).toThrow();
  });
});

describe('values as the report shows them', () => {
  it('rounds a money average once, half away from zero, and keeps counts and sums exact', () => {
    expect(measureValue('count', false, '1000000')).toBe(1_000_000);
    expect(measureValue('sum', true, '123456789012')).toBe(123_456_789_012);
    expect(measureValue('avg', true, '1250.5000000000000000')).toBe(1251);
    expect(measureValue('avg', true, '-1250.5')).toBe(-1251);
    expect(measureValue('avg', true, '1250.4999999999')).toBe(1250);
    expect(measureValue('avg', false, '2.345')).toBe(2.35);
    expect(measureValue('min', true, null)).toBeNull();
  });

  it('names groups by their choice, yes or no, month, or (none)', () => {
    const status = contactsResource.fields.Status;
    expect(groupLabel(status, 'value', 'active')).toBe('Active');
    expect(groupLabel(status, 'value', null)).toBe('(none)');
    expect(groupLabel(contactsResource.fields.IsListed, 'value', true)).toBe('Yes');
    expect(groupLabel(contactsResource.fields.CreatedAt, 'month', '2026-03')).toBe('Mar 2026');
    expect(groupLabel(membershipsResource.fields.MembershipTypeId, 'value', 4, 'Individual')).toBe(
      'Individual',
    );
  });
});

const rowArb = fc.record({
  Status: fc.constantFrom('active', 'lapsed', null),
  State: fc.constantFrom('IL', 'WI', 'MN'),
  Total: fc.option(fc.integer({ min: -100_000, max: 10_000_000 }), { nil: null }),
});

describe('grouping (property)', () => {
  it('subtotals add up to their groups and the grand total to every row; min <= avg <= max', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 60 }), (rows) => {
        const aggregates = [
          { fn: 'sum', field: 'Total' },
          { fn: 'avg', field: 'Total' },
          { fn: 'min', field: 'Total' },
          { fn: 'max', field: 'Total' },
        ] as const;
        const out = groupInMemory(rows, ['Status', 'State'], [...aggregates], () => true);
        const total = out.at(-1);
        expect(total?.Level).toBe(0);
        expect(total?.Values.count).toBe(rows.length);
        const firsts = out.filter((r) => r.Level === 1);
        expect(firsts.reduce((a, r) => a + (r.Values.count ?? 0), 0)).toBe(rows.length);
        const sumOf = (list: typeof out) => list.reduce((a, r) => a + (r.Values.sum_Total ?? 0), 0);
        expect(sumOf(firsts)).toBe(total?.Values.sum_Total ?? 0);
        for (const first of firsts) {
          const seconds = out.filter((r) => r.Level === 2 && r.Keys[0] === first.Keys[0]);
          expect(seconds.reduce((a, r) => a + (r.Values.count ?? 0), 0)).toBe(first.Values.count);
          expect(sumOf(seconds)).toBe(first.Values.sum_Total ?? 0);
        }
        for (const r of out) {
          const { min_Total: min, max_Total: max, avg_Total: avg } = r.Values;
          if (min === null || min === undefined) continue;
          expect(Number.isInteger(avg)).toBe(true);
          expect(min).toBeLessThanOrEqual(avg as number);
          expect(avg).toBeLessThanOrEqual(max as number);
        }
      }),
    );
  });

  it('rolls the finest groups up exactly as grouping every row does', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 60 }), fc.boolean(), (rows, money) => {
        const aggregates = [
          { fn: 'sum', field: 'Total' },
          { fn: 'avg', field: 'Total' },
          { fn: 'min', field: 'Total' },
          { fn: 'max', field: 'Total' },
        ] as const;
        const expected = groupInMemory(rows, ['Status', 'State'], [...aggregates], () => money);
        // The finest groups as the database answers them, in the same order.
        const finest = expected
          .filter((r) => r.Level === 2)
          .map((r) => {
            const part = rows.filter((x) => x.Status === r.Keys[0] && x.State === r.Keys[1]);
            const nums = part.map((x) => x.Total).filter((v): v is number => v !== null);
            return {
              keys: r.Keys,
              labels: r.Keys.map((k) => String(k)),
              count: part.length,
              fields: {
                Total: {
                  sum: nums.length ? String(nums.reduce((a, b) => a + b, 0)) : null,
                  n: nums.length,
                  min: nums.length ? String(Math.min(...nums)) : null,
                  max: nums.length ? String(Math.max(...nums)) : null,
                },
              },
            };
          });
        const rolled = rollupGroups(finest, 2, [...aggregates], () => money);
        expect(rolled.map(({ Level, Keys, Values }) => ({ Level, Keys, Values }))).toEqual(expected);
      }),
    );
  });

  it('draws each first-level group and writes the grouped table as CSV with subtotals and a total', () => {
    const rows = [
      { Status: 'open', Total: 1000 },
      { Status: 'open', Total: 2550 },
      { Status: 'paid', Total: 99 },
    ];
    const grouped = groupInMemory(rows, ['Status'], [{ fn: 'sum', field: 'Total' }], () => true);
    const result = {
      Levels: [{ field: 'Status', title: 'Status' }],
      Measures: [
        { key: 'count', title: 'Count', fn: 'count' as const, money: false },
        {
          key: aggregateKey({ fn: 'sum', field: 'Total' }),
          title: 'Sum of total',
          fn: 'sum' as const,
          money: true,
        },
      ],
      Rows: grouped.map((g) => ({ ...g, Labels: g.Keys.map((k) => String(k ?? '')) })),
      Truncated: false,
      Chart: { type: 'pie' as const, measure: 'sum_Total' },
    };
    expect(chartPoints(result)).toEqual([
      { label: 'open', value: 3550 },
      { label: 'paid', value: 99 },
    ]);
    expect(groupedCsvRows(result)).toEqual([
      ['Status', 'Count', 'Sum of total'],
      ['open', '2', '35.50'],
      ['paid', '1', '0.99'],
      ['Total', '3', '36.49'],
    ]);
  });
});
