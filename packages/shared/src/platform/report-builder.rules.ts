/**
 * The report builder's rules (issue 20): any list saved as a report, with grouping (one or two levels), aggregates
 * (count, sum, average, minimum, maximum of number and money fields) and a chart. A definition names only declared
 * fields of its resource: columns any declared field, criteria the filterable ones, the sort a sortable one, groups
 * a groupable one (`groupableFields`) and aggregates a number or money field (`aggregatableFields`). The server
 * checks every definition with `reportDefinitionProblems` before it reaches SQL; the builder offers only what passes.
 * Money stays in integer cents: sums, minima and maxima are exact, an average is rounded once, half away from zero,
 * through the money module.
 */
import { z } from 'zod';
import { roundDiv } from './fields/money.ts';
import {
  filterCriterionSchema,
  reportCatalogueItemSchema,
  reportRunResponseSchema,
} from './list-protocol.schema.ts';
import {
  REPORT_MAX_PARAMETERS,
  reportParameterProblems,
  reportParameterSchema,
  reportParameterValuesSchema,
} from './report-parameters.rules.ts';
import type { FieldDeclaration, FieldType, ResourceDeclaration } from './resource.ts';

export const AGGREGATE_FUNCTIONS = ['count', 'sum', 'avg', 'min', 'max'] as const;
export type AggregateFunction = (typeof AGGREGATE_FUNCTIONS)[number];
export const AGGREGATE_LABELS: Record<AggregateFunction, string> = {
  count: 'Count',
  sum: 'Sum',
  avg: 'Average',
  min: 'Minimum',
  max: 'Maximum',
};

export const CHART_TYPES = ['bar', 'line', 'pie'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

/** How a date groups: by its value, its month or its year (a date and time in the association's timezone). */
export const DATE_BUCKETS = ['value', 'month', 'year'] as const;
export type DateBucket = (typeof DATE_BUCKETS)[number];

export const REPORT_MAX_GROUP_LEVELS = 2;
export const REPORT_MAX_AGGREGATES = 10;
/** Group rows (subtotals included) a grouped report answers at most; beyond, it says it was cut. */
export const REPORT_MAX_GROUP_ROWS = 500;

const GROUPABLE_TYPES: readonly FieldType[] = [
  'text',
  'select',
  'selectValid',
  'boolean',
  'country',
  'lookup',
  'date',
  'datetime',
  'number',
  'email',
  'timezone',
];
const AGGREGATABLE_TYPES: readonly FieldType[] = ['number', 'currency'];
const DATE_TYPES: readonly FieldType[] = ['date', 'datetime'];

const fieldName = z.string().min(1).max(100);

export const reportGroupSchema = z.object({
  field: fieldName,
  bucket: z.enum(DATE_BUCKETS).default('value'),
});
export type ReportGroup = z.infer<typeof reportGroupSchema>;
export const reportAggregateSchema = z.object({
  fn: z.enum(AGGREGATE_FUNCTIONS),
  field: fieldName.nullable().default(null),
});
export type ReportAggregate = z.infer<typeof reportAggregateSchema>;
export const reportChartSchema = z.object({
  type: z.enum(CHART_TYPES),
  /** The aggregate drawn (`aggregateKey`). */
  measure: z.string().max(120),
});
export type ReportChart = z.infer<typeof reportChartSchema>;

/** Groups ordered by a total (`aggregateKey`), smallest or largest first; subgroups within their group too. */
export const reportGroupOrderSchema = z.object({
  measure: z.string().max(120),
  direction: z.enum(['asc', 'desc']),
});
export type ReportGroupOrder = z.infer<typeof reportGroupOrderSchema>;

/** What a report built on a list is: the list (resource, columns, filter, sort) plus grouping and a chart. */
/**
 * The fields the association adds to a list (custom fields, decision 0112) that a report may show as columns,
 * filter and sort by: their declarations by name (`cf_12`), which of them filter and which sort. They are not
 * grouped or totalled.
 */
export const reportExtraFieldsSchema = z.object({
  Fields: z.record(z.string(), z.looseObject({ label: z.string(), type: z.string() })),
  Filterable: z.array(z.string()),
  Sortable: z.array(z.string()),
});
export type ReportExtraFields = Omit<z.infer<typeof reportExtraFieldsSchema>, 'Fields'> & {
  Fields: Record<string, FieldDeclaration>;
};

/** A resource with the extra fields a report over it may name (columns, filters, sorts). */
export function withReportExtraFields<R extends ResourceFields>(
  r: R,
  extra: ReportExtraFields | undefined,
): R {
  if (!extra || Object.keys(extra.Fields).length === 0) return r;
  return {
    ...r,
    fields: { ...r.fields, ...extra.Fields },
    filterable: [...r.filterable, ...extra.Filterable],
    sortable: [...r.sortable, ...extra.Sortable],
  };
}

export const reportDefinitionSchema = z.object({
  resource: fieldName,
  columns: z.array(fieldName).max(50).default([]),
  criteria: z.array(filterCriterionSchema).max(50).default([]),
  sort: z
    .object({ field: fieldName, direction: z.enum(['asc', 'desc']) })
    .nullable()
    .default(null),
  groupBy: z.array(reportGroupSchema).max(REPORT_MAX_GROUP_LEVELS).default([]),
  aggregates: z.array(reportAggregateSchema).max(REPORT_MAX_AGGREGATES).default([]),
  chart: reportChartSchema.nullable().default(null),
  /** How the groups are ordered: by their key (null, the default) or by one of their totals. */
  groupOrder: reportGroupOrderSchema.nullable().default(null),
  /** Values asked when the report runs, each filtering a field (report-parameters.rules.ts). */
  parameters: z.array(reportParameterSchema).max(REPORT_MAX_PARAMETERS).default([]),
});
export type ReportDefinition = z.infer<typeof reportDefinitionSchema>;
export type ReportDefinitionInput = z.input<typeof reportDefinitionSchema>;

/** A report saved by a user of the association: private to them, or shared with the staff. */
export const savedReportInputSchema = z.object({
  Title: z.string().trim().min(1, 'Give the report a title.').max(200),
  Description: z.string().max(2000).default(''),
  IsShared: z.boolean().default(false),
  Definition: reportDefinitionSchema,
});
export type SavedReportInput = z.input<typeof savedReportInputSchema>;
export const savedReportSchema = z.object({
  SavedReportId: z.number().int(),
  ReportId: z.string(),
  Title: z.string(),
  Description: z.string(),
  IsShared: z.boolean(),
  IsOwner: z.boolean(),
  OwnerName: z.string(),
  Definition: reportDefinitionSchema,
  UpdatedAt: z.string(),
});
export type SavedReport = z.infer<typeof savedReportSchema>;

/** The ReportId of a saved report in the report engine's routes and the favourites. */
export const SAVED_REPORT_PREFIX = 'saved-';
export const savedReportId = (id: number): string => `${SAVED_REPORT_PREFIX}${id}`;
export function savedReportNumber(reportId: string): number | null {
  const m = /^saved-(\d{1,15})$/.exec(reportId);
  return m ? Number(m[1]) : null;
}

/** A grouped report's answer: its levels, measures and rows (each group, its subtotals and the grand total). */
export const reportGroupingResultSchema = z.object({
  Levels: z.array(z.object({ field: z.string(), title: z.string() })),
  Measures: z.array(
    z.object({ key: z.string(), title: z.string(), fn: z.enum(AGGREGATE_FUNCTIONS), money: z.boolean() }),
  ),
  Rows: z.array(
    z.object({
      /** 0 is the grand total, 1 a first-level group (a subtotal when there are two levels), 2 a second-level one. */
      Level: z.number().int().min(0).max(REPORT_MAX_GROUP_LEVELS),
      Keys: z.array(z.union([z.string(), z.number(), z.boolean(), z.null()])),
      Labels: z.array(z.string()),
      Values: z.record(z.string(), z.number().nullable()),
    }),
  ),
  Truncated: z.boolean(),
  Chart: reportChartSchema.nullable(),
});
export type ReportGroupingResult = z.infer<typeof reportGroupingResultSchema>;
export type ReportGroupRow = ReportGroupingResult['Rows'][number];

/** A report run's answer: the page of rows, and for a grouped report the groups (its rows are then the groups). */
export const reportRunAnswerSchema = reportRunResponseSchema.extend({
  Grouping: reportGroupingResultSchema.nullable(),
});
export type ReportRunAnswer = z.infer<typeof reportRunAnswerSchema>;

/** What a dashboard pin shows: the report (chart, groups or count) or one total as a figure. */
export const REPORT_PIN_DISPLAYS = ['report', 'figure'] as const;
export const reportPinInputSchema = z.object({
  Display: z.enum(REPORT_PIN_DISPLAYS).default('report'),
  /** The total a figure shows (`aggregateKey`; `count` is the number of records of an ungrouped report). */
  Measure: z.string().max(120).nullable().default(null),
  /** The parameter values the widget runs with. */
  Parameters: reportParameterValuesSchema.default({}),
});
export type ReportPinInput = z.input<typeof reportPinInputSchema>;
export const reportPinSchema = z.object({
  Display: z.enum(REPORT_PIN_DISPLAYS),
  Measure: z.string().nullable(),
  Parameters: z.record(z.string(), z.unknown()),
});
export type ReportPin = z.infer<typeof reportPinSchema>;

/** A report in the catalogue: shipped or saved (whose, shared or private), grouped, charted, pinned. */
export const reportCatalogueEntrySchema = reportCatalogueItemSchema.extend({
  ResourceTitle: z.string(),
  Grouped: z.boolean(),
  Chart: z.enum(CHART_TYPES).nullable(),
  IsPinned: z.boolean(),
  /** The caller's pin of it: what it shows and with which values. */
  Pin: reportPinSchema.nullable(),
  /** A saved report's parameters (asked when it runs). */
  Parameters: z.array(reportParameterSchema),
  /** Its totals (the count first) a figure may show. */
  Measures: z.array(z.object({ Key: z.string(), Title: z.string() })),
  Saved: z
    .object({
      SavedReportId: z.number().int(),
      IsShared: z.boolean(),
      IsOwner: z.boolean(),
      OwnerName: z.string(),
    })
    .nullable(),
});
export type ReportCatalogueEntry = z.infer<typeof reportCatalogueEntrySchema>;

type ResourceFields = Pick<
  ResourceDeclaration,
  'fields' | 'filterable' | 'sortable' | 'columns' | 'key' | 'search'
>;

const hasColumn = (f: FieldDeclaration) => !(f.column ?? '').includes('.');

/** Fields a report may group by: a filterable or sortable field of a groupable type (each has a column and an index). */
export function groupableFields(r: ResourceFields): string[] {
  const candidates = new Set([...r.filterable, ...r.sortable]);
  return [...candidates].filter((name) => {
    const f = r.fields[name];
    return f !== undefined && hasColumn(f) && GROUPABLE_TYPES.includes(f.type) && name !== r.key;
  });
}

/** Fields a report may sum, average, or take the least or most of: number and money fields that are not ids. */
export function aggregatableFields(r: ResourceFields): string[] {
  const candidates = new Set([...r.sortable, ...r.filterable, ...r.columns.map((c) => c.field)]);
  return [...candidates].filter((name) => {
    const f = r.fields[name];
    return (
      f !== undefined &&
      hasColumn(f) &&
      AGGREGATABLE_TYPES.includes(f.type) &&
      name !== r.key &&
      !/Id$/.test(name)
    );
  });
}

/** Whether a field is a date (and so may group by month or year). */
export const isDateField = (f: FieldDeclaration | undefined): boolean => !!f && DATE_TYPES.includes(f.type);

export function aggregateKey(a: Pick<ReportAggregate, 'fn' | 'field'>): string {
  return a.fn === 'count' ? 'count' : `${a.fn}_${a.field ?? ''}`;
}

export function aggregateTitle(r: Pick<ResourceDeclaration, 'fields'>, a: ReportAggregate): string {
  if (a.fn === 'count') return 'Count';
  const label = (a.field ? r.fields[a.field]?.label : undefined) ?? a.field ?? '';
  return `${AGGREGATE_LABELS[a.fn]} of ${label.toLowerCase()}`;
}

/** The measures a grouped report answers: a count always first, then the aggregates asked (each once). */
export function measuresOf(definition: { aggregates: readonly ReportAggregate[] }): ReportAggregate[] {
  const out: ReportAggregate[] = [{ fn: 'count', field: null }];
  for (const a of definition.aggregates) {
    if (!out.some((o) => aggregateKey(o) === aggregateKey(a))) out.push(a);
  }
  return out;
}

/**
 * What is wrong with a definition over a resource, one message each (empty when it may run). Only declared fields
 * pass: this is what keeps a request's field names out of SQL.
 */
export function reportDefinitionProblems(r: ResourceFields, d: ReportDefinition): string[] {
  const problems: string[] = [];
  const label = (name: string) => r.fields[name]?.label ?? name;
  for (const c of d.columns) if (!r.fields[c]) problems.push(`${c} is not a field of this list.`);
  for (const c of d.criteria)
    if (!r.filterable.includes(c.PropertyName))
      problems.push(`The list cannot be filtered by ${c.PropertyName}.`);
  if (d.sort && !r.sortable.includes(d.sort.field))
    problems.push(`The list cannot be sorted by ${d.sort.field}.`);
  const groupable = groupableFields(r);
  const seen = new Set<string>();
  for (const g of d.groupBy) {
    if (!groupable.includes(g.field)) problems.push(`The report cannot be grouped by ${g.field}.`);
    else if (g.bucket !== 'value' && !isDateField(r.fields[g.field]))
      problems.push(`${label(g.field)} is not a date: group it by its value.`);
    if (seen.has(g.field)) problems.push(`${label(g.field)} is grouped twice.`);
    seen.add(g.field);
  }
  const aggregatable = aggregatableFields(r);
  for (const a of d.aggregates) {
    if (a.fn === 'count') {
      if (a.field !== null) problems.push('A count counts rows: it takes no field.');
    } else if (!a.field || !aggregatable.includes(a.field))
      problems.push(
        `${AGGREGATE_LABELS[a.fn]} needs a number or money field; ${a.field ?? 'none'} is not one.`,
      );
  }
  if (d.aggregates.length > 0 && d.groupBy.length === 0)
    problems.push('Totals need a grouping: choose what to group by.');
  if (d.chart) {
    if (d.groupBy.length === 0) problems.push('A chart needs a grouping: choose what to group by.');
    if (!measuresOf(d).some((m) => aggregateKey(m) === d.chart?.measure))
      problems.push('The chart draws a total the report does not have.');
  }
  if (d.groupOrder) {
    if (d.groupBy.length === 0) problems.push('Ordering by a total needs a grouping.');
    else if (!measuresOf(d).some((m) => aggregateKey(m) === d.groupOrder?.measure))
      problems.push('The groups are ordered by a total the report does not have.');
  }
  problems.push(...reportParameterProblems(r, d.parameters ?? []));
  return problems;
}

/** How a group's value reads: a choice by its name, yes or no, a month as "Mar 2026", nothing as "(none)". */
export function groupLabel(
  field: FieldDeclaration | undefined,
  bucket: DateBucket,
  value: unknown,
  lookupName?: string | null,
): string {
  if (value === null || value === undefined || value === '') return '(none)';
  if (lookupName) return lookupName;
  if (field?.options) {
    const option = field.options.find((o) => String(o.Id) === String(value));
    if (option) return option.Name;
  }
  if (typeof value === 'boolean' || field?.type === 'boolean')
    return value === true || value === 'true' || value === 't' ? 'Yes' : 'No';
  if (bucket === 'month') {
    const m = /^(\d{4})-(\d{2})/.exec(String(value));
    if (m) return `${MONTHS[Number(m[2]) - 1] ?? m[2]} ${m[1]}`;
  }
  return String(value);
}
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A measure's value as the database answered it (a number, or a numeric's text), as the report answers it: counts
 * and money in whole units (money in cents: an average rounded once, half away from zero); other averages to
 * two decimals. Null stays null (no rows to average).
 */
export function measureValue(fn: AggregateFunction, money: boolean, value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const text = String(value);
  if (fn === 'count') return Number(text);
  if (money || fn !== 'avg') {
    if (/^-?\d+$/.test(text)) return Number(text);
    return roundDecimal(text, 0);
  }
  return roundDecimal(text, 2);
}

function roundDecimal(text: string, places: number): number | null {
  const m = /^(-?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i.exec(text.trim());
  if (!m) return null;
  const [, sign = '', whole = '', fraction = '', exp] = m;
  let units = BigInt(`${sign}${whole}${fraction}` || '0');
  let scale = fraction.length - (exp ? Number(exp) : 0);
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  const shift = scale - places;
  const rounded = shift > 0 ? roundDiv(units, 10n ** BigInt(shift)) : units * 10n ** BigInt(-shift);
  return Number(rounded) / 10 ** places;
}

type Value = string | number | boolean | null;

/**
 * One finest group as the database answers it (`group by` every level, which PostgreSQL runs in parallel, where a
 * `rollup` is not): its keys and labels, its count, and per totalled field the partial values every measure is
 * made of: the sum (a numeric's text), the number of values, the least and the most.
 */
export interface GroupPartial {
  keys: Value[];
  labels: string[];
  count: number;
  fields: Record<string, { sum: string | null; n: number; min: string | null; max: string | null }>;
}

interface Accumulator {
  count: number;
  fields: Record<
    string,
    { sum: bigint; fraction: boolean; sumText: number; n: number; min: number | null; max: number | null }
  >;
}

const isInteger = (text: string) => /^-?\d+$/.test(text);

function accumulate(into: Accumulator, p: GroupPartial): void {
  into.count += p.count;
  for (const [f, v] of Object.entries(p.fields)) {
    const a = into.fields[f] ?? { sum: 0n, fraction: false, sumText: 0, n: 0, min: null, max: null };
    into.fields[f] = a;
    if (v.sum !== null) {
      if (isInteger(v.sum)) a.sum += BigInt(v.sum);
      else a.fraction = true;
      a.sumText += Number(v.sum);
    }
    a.n += v.n;
    if (v.min !== null) a.min = a.min === null ? Number(v.min) : Math.min(a.min, Number(v.min));
    if (v.max !== null) a.max = a.max === null ? Number(v.max) : Math.max(a.max, Number(v.max));
  }
}

function finish(
  a: Accumulator,
  measures: readonly ReportAggregate[],
  money: (field: string) => boolean,
): Record<string, number | null> {
  const values: Record<string, number | null> = {};
  for (const m of measures) {
    const key = aggregateKey(m);
    if (m.fn === 'count') {
      values[key] = a.count;
      continue;
    }
    const f = a.fields[m.field ?? ''];
    if (!f || f.n === 0) {
      values[key] = null;
      continue;
    }
    const sum = f.fraction ? null : f.sum;
    if (m.fn === 'min') values[key] = f.min;
    else if (m.fn === 'max') values[key] = f.max;
    else if (m.fn === 'sum') values[key] = sum === null ? f.sumText : Number(sum);
    else if (sum === null) values[key] = Math.round((f.sumText / f.n) * 100) / 100;
    // An average from its exact sum and count, rounded once, half away from zero (money to the cent).
    else if (money(m.field ?? '')) values[key] = Number(roundDiv(sum, BigInt(f.n)));
    else values[key] = Number(roundDiv(sum * 100n, BigInt(f.n))) / 100;
  }
  return values;
}

/**
 * Rolls the finest groups (in their order) up into the report's rows: with one level each group; with two, each
 * first-level group's subtotal before its groups; then the grand total. Exact: counts and sums add up, an average
 * is made once from the rolled-up sum and count.
 */
export function rollupGroups(
  partials: readonly GroupPartial[],
  levels: number,
  aggregates: readonly ReportAggregate[],
  money: (field: string) => boolean = () => false,
): { Level: number; Keys: Value[]; Labels: string[]; Values: Record<string, number | null> }[] {
  const measures = measuresOf({ aggregates });
  const empty = (): Accumulator => ({ count: 0, fields: {} });
  const out: { Level: number; Keys: Value[]; Labels: string[]; Values: Record<string, number | null> }[] = [];
  const total = empty();
  let i = 0;
  while (i < partials.length) {
    const head = partials[i] as GroupPartial;
    if (levels < 2) {
      const a = empty();
      accumulate(a, head);
      accumulate(total, head);
      out.push({
        Level: 1,
        Keys: [head.keys[0] ?? null],
        Labels: [head.labels[0] ?? ''],
        Values: finish(a, measures, money),
      });
      i++;
      continue;
    }
    const sub = empty();
    const children: typeof out = [];
    while (i < partials.length && (partials[i] as GroupPartial).keys[0] === head.keys[0]) {
      const p = partials[i] as GroupPartial;
      const a = empty();
      accumulate(a, p);
      accumulate(sub, p);
      accumulate(total, p);
      children.push({
        Level: 2,
        Keys: [p.keys[0] ?? null, p.keys[1] ?? null],
        Labels: [p.labels[0] ?? '', p.labels[1] ?? ''],
        Values: finish(a, measures, money),
      });
      i++;
    }
    out.push(
      {
        Level: 1,
        Keys: [head.keys[0] ?? null, null],
        Labels: [head.labels[0] ?? '', ''],
        Values: finish(sub, measures, money),
      },
      ...children,
    );
  }
  out.push({
    Level: 0,
    Keys: Array.from({ length: levels }, () => null),
    Labels: Array.from({ length: levels }, () => ''),
    Values: finish(total, measures, money),
  });
  return out;
}

/**
 * Groups rows in memory the way the database's `group by rollup` does: every group of the first level, each with
 * its second-level groups after it, then the grand total. The oracle of the tests, and what a small client-side
 * table could use; the server groups in SQL.
 */
export function groupInMemory(
  rows: readonly Record<string, unknown>[],
  groupBy: readonly string[],
  aggregates: readonly ReportAggregate[],
  money: (field: string) => boolean = () => false,
): { Level: number; Keys: Value[]; Values: Record<string, number | null> }[] {
  const measures = measuresOf({ aggregates });
  const summarize = (part: readonly Record<string, unknown>[]) => {
    const values: Record<string, number | null> = {};
    for (const m of measures) {
      const key = aggregateKey(m);
      if (m.fn === 'count') {
        values[key] = part.length;
        continue;
      }
      const nums = part
        .map((r) => r[m.field ?? ''])
        .filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
      if (nums.length === 0) {
        values[key] = null;
        continue;
      }
      const sum = nums.reduce((a, b) => a + b, 0);
      if (m.fn === 'sum') values[key] = sum;
      else if (m.fn === 'min') values[key] = Math.min(...nums);
      else if (m.fn === 'max') values[key] = Math.max(...nums);
      else if (!Number.isSafeInteger(sum)) values[key] = sum / nums.length;
      else if (money(m.field ?? '')) values[key] = Number(roundDiv(BigInt(sum), BigInt(nums.length)));
      else values[key] = Number(roundDiv(BigInt(sum) * 100n, BigInt(nums.length))) / 100;
    }
    return values;
  };
  const keyOf = (r: Record<string, unknown>, f: string): Value => {
    const v = r[f];
    return v === undefined ? null : (v as Value);
  };
  const compare = (a: Value, b: Value) =>
    a === b ? 0 : a === null ? 1 : b === null ? -1 : String(a) < String(b) ? -1 : 1;
  const out: { Level: number; Keys: Value[]; Values: Record<string, number | null> }[] = [];
  const [first, second] = groupBy;
  if (first !== undefined) {
    const firstKeys = [...new Set(rows.map((r) => keyOf(r, first)))].sort(compare);
    for (const k1 of firstKeys) {
      const part = rows.filter((r) => keyOf(r, first) === k1);
      out.push({ Level: 1, Keys: second !== undefined ? [k1, null] : [k1], Values: summarize(part) });
      if (second === undefined) continue;
      const secondKeys = [...new Set(part.map((r) => keyOf(r, second)))].sort(compare);
      for (const k2 of secondKeys)
        out.push({
          Level: 2,
          Keys: [k1, k2],
          Values: summarize(part.filter((r) => keyOf(r, second) === k2)),
        });
    }
  }
  out.push({ Level: 0, Keys: groupBy.map(() => null), Values: summarize(rows) });
  return out;
}

/**
 * The groups ordered by a total (`rollupGroups`' rows, in key order): first-level groups by their value (a subtotal
 * with two levels), each one's subgroups kept after it and ordered the same way, the grand total last. A group
 * without a value (no rows to average) comes last either way; equal values keep their key order.
 */
export function orderGroupRows<R extends { Level: number; Values: Record<string, number | null> }>(
  rows: readonly R[],
  order: ReportGroupOrder | null,
): R[] {
  if (!order) return [...rows];
  const sign = order.direction === 'asc' ? 1 : -1;
  const compare = (a: R, b: R) => {
    const x = a.Values[order.measure] ?? null;
    const y = b.Values[order.measure] ?? null;
    if (x === y) return 0;
    if (x === null) return 1;
    if (y === null) return -1;
    return (x - y) * sign;
  };
  const blocks: { head: R; children: R[] }[] = [];
  const totals: R[] = [];
  for (const row of rows) {
    if (row.Level === 0) totals.push(row);
    else if (row.Level === 1) blocks.push({ head: row, children: [] });
    else blocks.at(-1)?.children.push(row);
  }
  // Array.prototype.sort is stable: equal totals keep their key order.
  blocks.sort((a, b) => compare(a.head, b.head));
  return [...blocks.flatMap((b) => [b.head, ...[...b.children].sort(compare)]), ...totals];
}

/** The points a chart draws: each first-level group (its subtotal) with the chart's measure. */
export function chartPoints(result: Pick<ReportGroupingResult, 'Rows' | 'Chart'>): {
  label: string;
  value: number;
}[] {
  const measure = result.Chart?.measure ?? 'count';
  return result.Rows.filter((r) => r.Level === 1).map((r) => ({
    label: r.Labels[0] ?? '',
    value: r.Values[measure] ?? 0,
  }));
}

/**
 * The grouped table as CSV cells: one line per row, its levels' labels (a subtotal's second level reads
 * "Subtotal", the grand total's first "Total"), then each measure (money as a decimal amount).
 */
export function groupedCsvRows(result: ReportGroupingResult): string[][] {
  const header = [...result.Levels.map((l) => l.title), ...result.Measures.map((m) => m.title)];
  const lines = result.Rows.map((row) => {
    const labels = result.Levels.map((_, i) => {
      if (row.Level === 0) return i === 0 ? 'Total' : '';
      if (i >= row.Level) return 'Subtotal';
      return row.Labels[i] ?? '';
    });
    const values = result.Measures.map((m) => {
      const v = row.Values[m.key];
      if (v === null || v === undefined) return '';
      return m.money ? centsText(v) : String(v);
    });
    return [...labels, ...values];
  });
  return [header, ...lines];
}

function centsText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
