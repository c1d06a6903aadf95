/**
 * Grouped reports (issue 20): one statement groups a list's rows (its filter planned by `planList`, so the same
 * where clause and row-level security as the list) by one or two declared fields with a plain `group by` (which
 * PostgreSQL runs in parallel; a `rollup` it does not), answering each finest group's count and, per totalled field,
 * its sum, number of values, least and most; `rollupGroups` (shared) adds them up into the subtotals and the grand
 * total exactly, and makes each average once. Only the resource's declared fields reach SQL (checked by
 * `reportDefinitionProblems` before this runs); column and alias names are the engine's own; values are parameters.
 */
import { type Fragment, ident, q, raw, runFragment, type Tx } from '@guildhall/db';
import {
  aggregateKey,
  aggregateTitle,
  DEFAULT_TENANT_SETTINGS,
  type FieldDeclaration,
  type GroupPartial,
  groupLabel,
  measuresOf,
  REPORT_MAX_GROUP_ROWS,
  type ReportAggregate,
  type ReportChart,
  type ReportGroup,
  type ReportGroupingResult,
  rollupGroups,
} from '@guildhall/shared';
import { badRequest } from '../errors.ts';
import type { BoundResource } from './registry.ts';

export interface Grouping {
  groupBy: readonly ReportGroup[];
  aggregates: readonly ReportAggregate[];
  chart: ReportChart | null;
}

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
  const groupCols: string[] = [];
  const order: string[] = [];
  levels.forEach((_, i) => {
    const k = ident(`k${i}`).text;
    const l = ident(`l${i}`).text;
    outer.push(q`${raw(k)}, ${raw(l)}`);
    groupCols.push(k, l);
    order.push(`${l} asc nulls last`, `${k} asc nulls last`);
  });
  // The finest groups only, each with the partial values every measure is made of: a plain `group by` runs in
  // parallel (a `rollup` does not); subtotals and the total are added up from them exactly (rollupGroups).
  outer.push(q`count(*) as ${ident('$count')}`);
  valueFields.forEach((_, i) => {
    const v = ident(`v${i}`).text;
    outer.push(
      q`sum(${raw(v)})::text as ${ident(`$s${i}`)}, count(${raw(v)}) as ${ident(`$n${i}`)}, min(${raw(v)})::text as ${ident(`$lo${i}`)}, max(${raw(v)})::text as ${ident(`$hi${i}`)}`,
    );
  });
  const groupBy = groupCols.length > 0 ? raw(`group by ${groupCols.join(', ')}`) : raw('');
  const orderBy = order.length > 0 ? raw(`order by ${order.join(', ')}`) : raw('');
  return q`select ${joinList(outer)} from (${innerSql}) s ${groupBy} ${orderBy} limit ${REPORT_MAX_SOURCE_GROUPS + 1}`;
}

/** Finest groups a grouped report reads at most (its rows are then cut to REPORT_MAX_GROUP_ROWS). */
export const REPORT_MAX_SOURCE_GROUPS = 10_000;

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
  const measures = measuresOf(grouping).map((m) => ({
    key: aggregateKey(m),
    title: aggregateTitle(resource, m),
    fn: m.fn,
    money: m.field ? resource.fields[m.field]?.type === 'currency' : false,
  }));
  const valueFields = [...new Set(measuresOf(grouping).flatMap((m) => (m.field ? [m.field] : [])))];
  const cut = rows.length > REPORT_MAX_SOURCE_GROUPS;
  let read = rows.slice(0, REPORT_MAX_SOURCE_GROUPS);
  // A cut answer may end inside a first-level group: leave that group out rather than show a partial subtotal.
  const lastKey = read.at(-1)?.k0;
  if (cut && grouping.groupBy.length === 2) read = read.filter((r) => r.k0 !== lastKey);
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  const partials: GroupPartial[] = read.map((row) => {
    const keys = grouping.groupBy.map((g, i) => keyValue(resource.fields[g.field], g, row[`k${i}`]));
    return {
      keys,
      labels: grouping.groupBy.map((g, i) =>
        groupLabel(resource.fields[g.field], g.bucket, keys[i], lookupName(row[`l${i}`])),
      ),
      count: Number(row.$count ?? 0),
      fields: Object.fromEntries(
        valueFields.map((f, i) => [
          f,
          {
            sum: text(row[`$s${i}`]),
            n: Number(row[`$n${i}`] ?? 0),
            min: text(row[`$lo${i}`]),
            max: text(row[`$hi${i}`]),
          },
        ]),
      ),
    };
  });
  const isMoney = (f: string) => resource.fields[f]?.type === 'currency';
  const all = rollupGroups(partials, grouping.groupBy.length, measuresOf(grouping), isMoney);
  const truncated = cut || all.length > REPORT_MAX_GROUP_ROWS + 1;
  // The rows shown: the first groups, then the grand total (counted apart when the groups were cut).
  const grand = all.at(-1) as (typeof all)[number];
  const out = [...all.slice(0, Math.min(all.length - 1, REPORT_MAX_GROUP_ROWS)), grand];
  const total = cut ? await countOf(tx, bound, tenantId, where) : (grand.Values.count ?? 0);
  if (cut) grand.Values = { count: total };
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
