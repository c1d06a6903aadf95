/**
 * Grouped reports (issue 20): one statement groups a list's rows (its filter planned by `planList`, so the same
 * where clause and row-level security as the list) by one or two declared fields with `group by rollup`, answering
 * every group, each first-level group's subtotal and the grand total together, with a count and the asked sums,
 * averages, minima and maxima. Only the resource's declared fields reach SQL (checked by
 * `reportDefinitionProblems` before this runs); column and alias names are the engine's own; values are parameters.
 */
import { type Fragment, ident, q, raw, runFragment, type Tx } from '@guildhall/db';
import {
  aggregateKey,
  aggregateTitle,
  DEFAULT_TENANT_SETTINGS,
  type FieldDeclaration,
  groupLabel,
  measuresOf,
  measureValue,
  REPORT_MAX_GROUP_ROWS,
  type ReportAggregate,
  type ReportChart,
  type ReportGroup,
  type ReportGroupingResult,
} from '@guildhall/shared';
import { badRequest } from '../errors.ts';
import type { BoundResource } from './registry.ts';

export interface Grouping {
  groupBy: readonly ReportGroup[];
  aggregates: readonly ReportAggregate[];
  chart: ReportChart | null;
}

const SQL_FUNCTIONS = { count: 'count', sum: 'sum', avg: 'avg', min: 'min', max: 'max' } as const;

/** The key (and, for a lookup, the looked-up name) a row groups under at one level, with the join it needs. */
function levelSql(
  bound: BoundResource,
  resources: readonly BoundResource[],
  group: ReportGroup,
  level: number,
  timeZone: string,
): { key: Fragment; label: Fragment | null; join: Fragment | null } {
  const field = bound.resource.fields[group.field] as FieldDeclaration;
  const col = bound.sqlColumns[group.field];
  if (!col) throw badRequest(`The report cannot be grouped by ${group.field}.`);
  const zoned = field.type === 'datetime' ? q`(${col} at time zone ${timeZone})` : q`${col}`;
  if (group.bucket === 'month') return { key: q`to_char(${zoned}, 'YYYY-MM')`, label: null, join: null };
  if (group.bucket === 'year') return { key: q`to_char(${zoned}, 'YYYY')`, label: null, join: null };
  if (field.type === 'datetime') return { key: q`${zoned}::date::text`, label: null, join: null };
  if (field.type === 'date') return { key: q`${col}::text`, label: null, join: null };
  const sourceName = field.type === 'lookup' ? field.lookup?.source : undefined;
  const target = sourceName ? resources.find((r) => r.resource.name === sourceName) : undefined;
  const display = field.lookup?.display;
  const displayColumn = target && display ? target.columns[display] : undefined;
  if (!target || !displayColumn) return { key: q`${col}`, label: null, join: null };
  // The looked-up record's name, read under the same row-level security (the tenant's own records only).
  const alias = ident(`$j${level}`);
  const at = (name: string) => raw(`${alias.text}.${ident(name).text}`);
  const join = q`left join ${target.sqlSource} as ${alias} on ${at(target.tenantColumn.name)} = ${bound.sqlTenant} and ${at(target.keyColumn.name)} = ${col}`;
  return { key: q`${col}`, label: q`${at(displayColumn.name)}::text`, join };
}

/** The statement of a grouped report and how to read its rows. */
export function groupedStatement(
  bound: BoundResource,
  resources: readonly BoundResource[],
  tenantId: string,
  where: Fragment | undefined,
  grouping: Grouping,
  timeZone: string,
): Fragment {
  const levels = grouping.groupBy.map((g, i) => levelSql(bound, resources, g, i, timeZone));
  const measures = measuresOf(grouping);
  const valueFields = [...new Set(measures.flatMap((m) => (m.field ? [m.field] : [])))];
  const inner: Fragment[] = [];
  levels.forEach((l, i) => {
    inner.push(q`${l.key} as ${ident(`k${i}`)}`);
    inner.push(l.label ? q`${l.label} as ${ident(`l${i}`)}` : q`null::text as ${ident(`l${i}`)}`);
  });
  valueFields.forEach((f, i) => {
    const col = bound.sqlColumns[f];
    if (!col) throw badRequest(`The report cannot total ${f}.`);
    inner.push(q`${col} as ${ident(`v${i}`)}`);
  });
  if (inner.length === 0) inner.push(q`1 as one`);
  const joins = levels.flatMap((l) => (l.join ? [l.join] : []));
  const scoped = where
    ? q`${bound.sqlTenant} = ${tenantId} and ${where}`
    : q`${bound.sqlTenant} = ${tenantId}`;
  const innerSql = q`select ${joinList(inner)} from ${bound.sqlSource} ${joinList(joins, ' ')} where ${scoped}`;
  const outer: Fragment[] = [];
  const groupSets: string[] = [];
  const order: string[] = [];
  levels.forEach((_, i) => {
    const k = ident(`k${i}`).text;
    const l = ident(`l${i}`).text;
    outer.push(q`${raw(k)}, ${raw(l)}, grouping(${raw(k)}) as ${ident(`$g${i}`)}`);
    groupSets.push(`(${k}, ${l})`);
    // A first-level group before its second-level groups (its subtotal heads them), the grand total last.
    order.push(`grouping(${k}) ${i === 0 ? 'asc' : 'desc'}`, `${l} asc nulls last`, `${k} asc nulls last`);
  });
  for (const m of measures) {
    const key = ident(aggregateKey(m));
    if (m.fn === 'count') outer.push(q`count(*) as ${key}`);
    else {
      const v = ident(`v${valueFields.indexOf(m.field ?? '')}`);
      outer.push(q`${raw(SQL_FUNCTIONS[m.fn])}(${v}) as ${key}`);
    }
  }
  const groupBy = groupSets.length > 0 ? raw(`group by rollup (${groupSets.join(', ')})`) : raw('');
  const orderBy = order.length > 0 ? raw(`order by ${order.join(', ')}`) : raw('');
  return q`select ${joinList(outer)} from (${innerSql}) s ${groupBy} ${orderBy} limit ${REPORT_MAX_GROUP_ROWS + 1}`;
}

function joinList(parts: readonly Fragment[], separator = ', '): Fragment {
  if (parts.length === 0) return q``;
  return parts.slice(1).reduce((acc, p) => q`${acc}${raw(separator)}${p}`, parts[0] as Fragment);
}

/** Runs a grouped report: its groups, subtotals and grand total, and the number of rows it covers. */
export async function runGrouped(
  tx: Tx,
  bound: BoundResource,
  resources: readonly BoundResource[],
  tenantId: string,
  where: Fragment | undefined,
  grouping: Grouping,
  timeZone = DEFAULT_TENANT_SETTINGS.defaultTimezone,
): Promise<{ result: ReportGroupingResult; total: number }> {
  const { resource } = bound;
  const rows = await runFragment<Record<string, unknown>>(
    tx,
    groupedStatement(bound, resources, tenantId, where, grouping, timeZone),
  );
  const truncated = rows.length > REPORT_MAX_GROUP_ROWS;
  const measures = measuresOf(grouping).map((m) => ({
    aggregate: m,
    key: aggregateKey(m),
    title: aggregateTitle(resource, m),
    fn: m.fn,
    money: m.field ? resource.fields[m.field]?.type === 'currency' : false,
  }));
  const levels = grouping.groupBy.length;
  let total = 0;
  const out: ReportGroupingResult['Rows'] = [];
  for (const row of rows.slice(0, REPORT_MAX_GROUP_ROWS)) {
    const bits = grouping.groupBy.map((_, i) => Number(row[`$g${i}`] ?? 0));
    const level = levels === 0 ? 0 : bits[0] === 1 ? 0 : bits[1] === 1 ? 1 : levels;
    const keys = grouping.groupBy.map((g, i) =>
      i < level ? keyValue(resource.fields[g.field], g, row[`k${i}`]) : null,
    );
    const labels = grouping.groupBy.map((g, i) =>
      i < level ? groupLabel(resource.fields[g.field], g.bucket, keys[i], lookupName(row[`l${i}`])) : '',
    );
    const values: Record<string, number | null> = {};
    for (const m of measures) values[m.key] = measureValue(m.fn, m.money, row[m.key]);
    if (level === 0) total = values.count ?? 0;
    out.push({ Level: level, Keys: keys, Labels: labels, Values: values });
  }
  // A cut answer may lack the grand total (it comes last): count apart then.
  if (truncated || !out.some((r) => r.Level === 0)) total = await countOf(tx, bound, tenantId, where);
  return {
    total,
    result: {
      Levels: grouping.groupBy.map((g) => ({
        field: g.field,
        title: titleOf(resource.fields[g.field], g),
      })),
      Measures: measures.map(({ key, title, fn, money }) => ({ key, title, fn, money })),
      Rows: out,
      Truncated: truncated,
      Chart: grouping.chart,
    },
  };
}

async function countOf(tx: Tx, bound: BoundResource, tenantId: string, where: Fragment | undefined) {
  const scoped = where
    ? q`${bound.sqlTenant} = ${tenantId} and ${where}`
    : q`${bound.sqlTenant} = ${tenantId}`;
  const [r] = await runFragment<{ n: unknown }>(
    tx,
    q`select count(*) as n from ${bound.sqlSource} where ${scoped}`,
  );
  return Number(r?.n ?? 0);
}

function titleOf(field: FieldDeclaration | undefined, g: ReportGroup): string {
  const label = field?.label ?? g.field;
  return g.bucket === 'month' ? `${label} (month)` : g.bucket === 'year' ? `${label} (year)` : label;
}

function lookupName(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function keyValue(
  field: FieldDeclaration | undefined,
  g: ReportGroup,
  value: unknown,
): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (g.bucket !== 'value') return String(value);
  if (field?.type === 'boolean') return value === true || value === 't' || value === 'true';
  if (field?.type === 'number' || field?.type === 'lookup') {
    const n = Number(value);
    return Number.isFinite(n) ? n : String(value);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  return String(value);
}
