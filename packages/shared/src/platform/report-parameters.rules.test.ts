import { describe, expect, it } from 'vitest';
import { orderGroupRows } from './report-builder.rules.ts';
import { bindReportParameters, describeParameterValues, parameterKind } from './report-parameters.rules.ts';
import type { FieldDeclaration } from './resource.ts';

const FIELDS: Record<string, FieldDeclaration> = {
  Joined: { type: 'date', label: 'Joined' },
  At: { type: 'datetime', label: 'At' },
  Status: {
    type: 'select',
    label: 'Status',
    options: [
      { Id: 'active', Name: 'Active' },
      { Id: 'lapsed', Name: 'Lapsed' },
    ],
  },
  TypeId: { type: 'lookup', label: 'Type', lookup: { source: 'types' } },
  Amount: { type: 'currency', label: 'Amount' },
  Name: { type: 'text', label: 'Name' },
  Notes: { type: 'richText' as FieldDeclaration['type'], label: 'Notes' },
};
const p = (field: string, required = false) => ({ name: field, label: field, field, required });
// 10:00 UTC on 15 March 2026 is the 15th in Chicago too.
const NOW = new Date('2026-03-15T10:00:00Z');
const bind = (params: ReturnType<typeof p>[], values: Record<string, unknown>) =>
  bindReportParameters(params, FIELDS, values, NOW, 'America/Chicago');

describe('report parameters', () => {
  it('asks a date range for dates, one value for choices and numbers, a text for texts', () => {
    expect(parameterKind(FIELDS.Joined)).toBe('dateRange');
    expect(parameterKind(FIELDS.At)).toBe('dateRange');
    expect(parameterKind(FIELDS.Status)).toBe('choice');
    expect(parameterKind(FIELDS.TypeId)).toBe('choice');
    expect(parameterKind(FIELDS.Amount)).toBe('number');
    expect(parameterKind(FIELDS.Name)).toBe('text');
    expect(parameterKind(FIELDS.Notes)).toBeNull();
  });

  it('binds a range option to the days it covers on the day it runs', () => {
    expect(bind([p('Joined')], { Joined: { Range: 7 } }).criteria).toEqual([
      { PropertyName: 'Joined', Operator: 'ge', Value: '2026-02-01' },
      { PropertyName: 'Joined', Operator: 'le', Value: '2026-02-28' },
    ]);
    // The option id alone is the same value.
    expect(bind([p('Joined')], { Joined: 7 }).criteria).toHaveLength(2);
  });

  it("binds a date and time from midnight of the first day to midnight after the last, in the association's zone", () => {
    expect(
      bind([p('At')], { At: { Range: 0, StartDate: '2026-03-01', EndDate: '2026-03-01' } }).criteria,
    ).toEqual([
      { PropertyName: 'At', Operator: 'ge', Value: '2026-03-01T06:00:00.000Z' },
      { PropertyName: 'At', Operator: 'lt', Value: '2026-03-02T06:00:00.000Z' },
    ]);
  });

  it('leaves an open end open and an optional parameter out', () => {
    expect(
      bind([p('Joined')], { Joined: { Range: 0, StartDate: null, EndDate: '2026-01-31' } }).criteria,
    ).toEqual([{ PropertyName: 'Joined', Operator: 'le', Value: '2026-01-31' }]);
    expect(bind([p('Joined'), p('Status')], {})).toEqual({ criteria: [], errors: {} });
  });

  it('binds choices by their declared id, numbers and texts', () => {
    expect(
      bind([p('Status'), p('TypeId'), p('Amount'), p('Name')], {
        Status: 'lapsed',
        TypeId: '12',
        Amount: '2500',
        Name: 'Smith',
      }).criteria,
    ).toEqual([
      { PropertyName: 'Status', Operator: 'eq', Value: 'lapsed' },
      { PropertyName: 'TypeId', Operator: 'eq', Value: 12 },
      { PropertyName: 'Amount', Operator: 'eq', Value: 2500 },
      { PropertyName: 'Name', Operator: 'contains', Value: 'Smith' },
    ]);
  });

  it('names each missing or wrong value', () => {
    const { errors } = bind([p('Joined', true), p('Status'), p('Amount')], {
      Status: 'gone',
      Amount: 'many',
    });
    expect(errors).toEqual({
      Joined: ['Joined is required.'],
      Status: ['Status is not one of its choices.'],
      Amount: ['Amount must be a number.'],
    });
    expect(bind([p('Joined')], { Joined: { Range: 40 } }).errors.Joined).toEqual([
      'Joined is not a date range.',
    ]);
    expect(bind([p('Joined')], { Joined: { Range: 0, StartDate: '2026-13-01' } }).errors.Joined).toEqual([
      'Joined: enter dates as yyyy-mm-dd.',
    ]);
    expect(bind([p('Status')], { Status: ['active', 'lapsed'] }).errors.Status).toEqual([
      'Status takes one value.',
    ]);
  });

  it('reads kept values as a line', () => {
    expect(
      describeParameterValues([p('Joined'), p('Status'), p('Name')], FIELDS, {
        Joined: { Range: 7 },
        Status: 'active',
      }),
    ).toBe('Joined: Last Month · Status: Active');
    expect(
      describeParameterValues([p('Joined')], FIELDS, { Joined: { Range: 0, StartDate: '2026-01-01' } }),
    ).toBe('Joined: 2026-01-01 to …');
    // A lookup: its record's name once the screen has read it, its number until then.
    expect(describeParameterValues([p('TypeId')], FIELDS, { TypeId: 12 })).toBe('TypeId: 12');
    expect(describeParameterValues([p('TypeId')], FIELDS, { TypeId: 12 }, { TypeId: 'Student' })).toBe(
      'TypeId: Student',
    );
    expect(describeParameterValues([p('TypeId')], FIELDS, { TypeId: 12 }, { TypeId: null })).toBe(
      'TypeId: 12',
    );
  });
});

describe('groups ordered by a total', () => {
  const row = (Level: number, label: string, count: number | null) => ({
    Level,
    Labels: [label],
    Values: { count },
  });
  const rows = [
    row(1, 'A', 2),
    row(2, 'A1', 1),
    row(2, 'A2', 1),
    row(1, 'B', 5),
    row(2, 'B1', 1),
    row(2, 'B2', 4),
    row(1, 'C', null),
    row(1, 'D', 2),
    row(0, '', 9),
  ];
  const labels = (r: { Labels: string[] }[]) => r.map((x) => x.Labels[0]);
  it('orders first-level groups with their subgroups after them, the total last', () => {
    expect(labels(orderGroupRows(rows, { measure: 'count', direction: 'desc' }))).toEqual([
      'B',
      'B2',
      'B1',
      'A',
      'A1',
      'A2',
      'D',
      'C',
      '',
    ]);
    expect(labels(orderGroupRows(rows, { measure: 'count', direction: 'asc' }))).toEqual([
      'A',
      'A1',
      'A2',
      'D',
      'B',
      'B1',
      'B2',
      'C',
      '',
    ]);
  });
  it('keeps the key order without an order', () => {
    expect(orderGroupRows(rows, null)).toEqual(rows);
  });
});
