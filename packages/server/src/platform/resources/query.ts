/**
 * Turns a list request into SQL pieces, using only the fields a resource declares sortable, filterable or
 * searchable: anything else is a 400 naming the field, and never reaches SQL. Values are always parameters.
 * The pieces are fragments (statement.ts), rendered without Drizzle's builder on every list request.
 */
import { allOf, type Fragment, joinFragments, q, type Raw, raw, tenants } from '@guildhall/db';
import {
  type CriteriaItem,
  DEFAULT_TENANT_SETTINGS,
  FILTER_ADVANCED,
  FILTER_NONE,
  type FieldDeclaration,
  type FilterCriterion,
  type ListRequest,
  listIndexes,
  listSplitValues,
  MAX_FILTER_VALUES,
  parseBooleanInput,
  type ResourceDeclaration,
} from '@guildhall/shared';
import { getTableName } from 'drizzle-orm';
import { badRequest } from '../errors.ts';
import {
  type ExtraFields,
  type ExtraFilterMode,
  type KeyRow,
  NO_EXTRA_FIELDS,
  type SortRun,
} from './extra-fields.ts';
import type { SearchIndexPlan } from './hooks.ts';
import { trigramSearchPlan } from './list-search.ts';
import { type BoundResource, columnSql } from './registry.ts';

export interface ListPlan {
  where: Fragment | undefined;
  /**
   * The page's conditions when they differ from the total's: an extra field's filter tested per row as the page's
   * index yields it (decision 0112), where the total reads the matches as a set.
   */
  pageWhere?: Fragment | undefined;
  /** The order, with the key last (identifiers, directions and an extra field's sort value). */
  orderBy: Fragment;
  /**
   * A page sorted by one extra field (a custom field): its runs in order, each read through an index (decision
   * 0112); `orderBy` then serves only the export and the search box's sort in memory.
   */
  runs?: SortRun[];
  /**
   * Writes the page statement makes (items of its WITH): a page filtered by one criterion and sorted by another
   * extra field asking for the structure that serves the pair (ExtraListField.filteredSort, decision 0196).
   */
  asks?: Fragment[];
  /**
   * A filter holding a field to a few values (`in`) where an index holds that field equal before the sort: the
   * page is one run per value through that index, each in the page's order, merged in that order (a Merge
   * Append). `where` is the page's conditions without the `in`; `values` each run's own condition.
   */
  merge?: { where: Fragment | undefined; values: Fragment[] };
  /** No condition beyond the live records of the tenant (no filter, no search, not a draft): see SortRun.keys. */
  everyRecord: boolean;
  /**
   * The advanced filter's criteria when all are on extra fields (no search, not a draft): tested on a key read from
   * an extra field's index (SortRun.keys), probed per key or read as a set.
   */
  keyFilter?: (mode: ExtraFilterMode) => (row: KeyRow) => Fragment;
  /**
   * With `keyFilter`, sorted by declared fields alone: the fewest records a criterion keeps (a scalar, from kept
   * counts or the field's index), and the page's conditions without the criteria. The page then chooses by the
   * filter's share how to read (`listStatement`).
   */
  keyCount?: (tenantId: string, atMost?: Fragment) => Fragment | undefined;
  /**
   * With `keyCount` and one criterion whose count is read from the values (ExtraListField.matches): the keys it
   * keeps. The page reads them once; their number is the list's total, answered by the page (`listStatement`).
   */
  keyMatches?: (tenantId: string) => Fragment | undefined;
  baseWhere?: Fragment | undefined;
  /** The fields of the order, each with its direction, the key last. */
  sorts: { field: string; direction: 'asc' | 'desc' }[];
  /**
   * A search box served by a search index (decision 0101): `where` holds it as the keys of every match; a page
   * is read by `listSearchStatements` from `whereWithoutSearch` and this plan.
   */
  searchIndex?: {
    plan: SearchIndexPlan;
    whereWithoutSearch: Fragment | undefined;
    /** The order to read the list in for a term most rows match, when a list index serves it with the filter. */
    walkOrder?: Fragment;
  };
  criteriaItems: CriteriaItem[];
  sort: { columnName: string; direction: 'asc' | 'desc' };
}

export function parseOrderBy(
  bound: BoundResource,
  orderby: string | undefined,
  extra: ExtraFields = NO_EXTRA_FIELDS,
): { field: string; direction: 'asc' | 'desc' }[] {
  const { resource } = bound;
  if (!orderby || orderby.trim() === '')
    return [{ field: resource.defaultSort.field, direction: resource.defaultSort.direction }];
  return orderby.split(',').map((part) => {
    const [field = '', dir = 'asc', ...rest] = part.trim().split(/\s+/);
    const direction = dir.toLowerCase();
    if (rest.length > 0 || (direction !== 'asc' && direction !== 'desc')) {
      throw badRequest(`The sort "${part.trim()}" is not understood; use "Field asc" or "Field desc".`, {
        $orderby: ['Not understood.'],
      });
    }
    if (!resource.sortable.includes(field) && !extra.get(field)?.sortRuns) {
      throw badRequest(`The list cannot be sorted by ${field || '(nothing)'}.`, {
        $orderby: [`${field || '(nothing)'} is not a sortable field.`],
      });
    }
    return { field, direction };
  });
}

function like(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function coerce(field: FieldDeclaration, value: unknown): unknown {
  switch (field.type) {
    case 'number':
    case 'currency':
    case 'flags':
    case 'lookup':
    case 'image': {
      const n = Number(value);
      if (!Number.isFinite(n)) throw badRequest(`${field.label} needs a number to filter by.`);
      return n;
    }
    case 'boolean': {
      const b = parseBooleanInput(value as string | number | boolean | null);
      if (b === null) throw badRequest(`${field.label} needs yes or no to filter by.`);
      return b;
    }
    default:
      if (typeof value !== 'string' && typeof value !== 'number')
        throw badRequest(`${field.label} needs a value to filter by.`);
      return String(value);
  }
}

function criterionSql(
  bound: BoundResource,
  c: FilterCriterion,
  extra: ExtraFields,
  mode: 'set' | 'probe' = 'set',
): Fragment {
  const { resource } = bound;
  const added = extra.get(c.PropertyName);
  if (added?.filter && !resource.fields[c.PropertyName]) {
    if (Array.isArray(c.Value) && c.Value.length > MAX_FILTER_VALUES)
      throw badRequest(`${added.declaration.label}: a filter may list at most ${MAX_FILTER_VALUES} values.`);
    return added.filter(c, mode);
  }
  if (!resource.filterable.includes(c.PropertyName)) {
    throw badRequest(`The list cannot be filtered by ${c.PropertyName}.`, {
      [c.PropertyName]: [`${c.PropertyName} is not a filterable field.`],
    });
  }
  const field = resource.fields[c.PropertyName] as FieldDeclaration;
  const col = bound.sqlColumns[c.PropertyName] as Raw;
  if (c.Operator === 'isEmpty') return q`(${col} is null or ${col}::text = '')`;
  if (c.Operator === 'isNotEmpty') return q`(${col} is not null and ${col}::text <> '')`;
  if (Array.isArray(c.Value) && c.Value.length > MAX_FILTER_VALUES) {
    throw badRequest(
      `${field.label}: a filter may list at most ${MAX_FILTER_VALUES.toLocaleString('en-US')} values.`,
      {
        [c.PropertyName]: [`At most ${MAX_FILTER_VALUES.toLocaleString('en-US')} values.`],
      },
    );
  }
  if (field.type === 'multiSelect') {
    const values = (Array.isArray(c.Value) ? c.Value : [c.Value]).map(String);
    if (c.Operator !== 'eq' && c.Operator !== 'in' && c.Operator !== 'contains')
      throw badRequest(`${field.label} can be filtered with eq, in or contains only.`);
    return c.Operator === 'in'
      ? q`exists (select 1 from jsonb_array_elements_text(${col}) e where e in (${valueList(values)}))`
      : q`${col} @> ${JSON.stringify(values)}::jsonb`;
  }
  if (field.type === 'flags') {
    const mask = coerce(field, c.Value) as number;
    if (c.Operator !== 'eq')
      throw badRequest(`${field.label} can be filtered with eq (has all these flags) only.`);
    return q`(${col} & ${mask}) = ${mask}`;
  }
  if (c.Operator === 'contains' || c.Operator === 'startsWith') {
    const text = String(coerce({ ...field, type: 'text' }, c.Value));
    const pattern = c.Operator === 'contains' ? like(text) : `${like(text).slice(1)}`;
    return q`${col}::text ilike ${pattern}`;
  }
  if (c.Operator === 'in') {
    const values = (Array.isArray(c.Value) ? c.Value : [c.Value]).map((v) => coerce(field, v));
    if (values.length === 0) return q`false`;
    return q`${col} in (${valueList(values)})`;
  }
  if (c.Operator === 'between') {
    return q`${col} between ${coerce(field, c.Value)} and ${coerce(field, c.Value2)}`;
  }
  const v = coerce(field, c.Value);
  const op = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' }[c.Operator];
  return q`${col} ${raw(op as string)} ${v}`;
}

/** Values as a parameter list (`$1, $2, …`). */
function valueList(values: readonly unknown[]): Fragment {
  return joinFragments(
    values.map((v) => q`${v}`),
    ', ',
  );
}

function displayValue(field: FieldDeclaration, c: FilterCriterion): string {
  const show = (v: unknown) => {
    const option = field.options?.find((o) => o.Id === v);
    return option ? option.Name : v === true ? 'Yes' : v === false ? 'No' : String(v ?? '');
  };
  if (c.Operator === 'isEmpty') return 'is empty';
  if (c.Operator === 'isNotEmpty') return 'is not empty';
  if (c.Operator === 'between') return `${show(c.Value)} to ${show(c.Value2)}`;
  if (Array.isArray(c.Value)) return c.Value.map(show).join(', ');
  return show(c.Value);
}

/**
 * A draft older than the tenant's draft duration (`draftDurationMinutes`, counted from its last save) has expired:
 * lists, exports, reports and reads ignore it. Null for a resource without drafts (`is_draft` and `updated_at`).
 */
export function expiredDraft(bound: BoundResource): Fragment | null {
  const { isDraft, updatedAt } = bound.properties;
  if (!isDraft || !updatedAt) return null;
  const t = raw(`"${getTableName(tenants)}"`);
  const settings = raw(`${t.text}."${tenants.settings.name}"`);
  const id = raw(`${t.text}."${tenants.id.name}"`);
  const minutes = q`coalesce((select (${settings}->>'draftDurationMinutes')::int from ${t} where ${id} = ${bound.sqlTenant}), ${DEFAULT_TENANT_SETTINGS.draftDurationMinutes})`;
  return q`(${columnSql(bound, isDraft)} and ${columnSql(bound, updatedAt)} < now() - make_interval(mins => ${minutes}))`;
}

export function planList(
  bound: BoundResource,
  request: ListRequest,
  orderby: string | undefined,
  search: string | undefined,
  extra: ExtraFields = NO_EXTRA_FIELDS,
): ListPlan {
  const { resource } = bound;
  const conditions: Fragment[] = [];
  const probes: Fragment[] = [];
  const criteriaItems: CriteriaItem[] = [];
  const deleted = resource.softDelete ? bound.sqlColumns[resource.softDelete.deleted] : undefined;
  if (deleted) conditions.push(q`not ${deleted}`);
  const expired = expiredDraft(bound);
  if (expired) conditions.push(q`not ${expired}`);
  const countedFrom = conditions.length;
  const filterId = request.Id ?? FILTER_NONE;
  // The criteria that hold a declared field equal to one value, and those that hold one to a few (`in`).
  const equal: string[] = [];
  const splits: { at: number; criterion: FilterCriterion }[] = [];
  let unheld = 0;
  let probed = false;
  const noteEqual = (c: FilterCriterion) => {
    if (resource.fields[c.PropertyName] && c.Operator === 'eq') return equal.push(c.PropertyName);
    unheld++;
    if (resource.fields[c.PropertyName] && listSplitValues(c))
      splits.push({ at: conditions.length - 1, criterion: c });
  };
  if (filterId === FILTER_ADVANCED) {
    for (const c of request.Criteria ?? []) {
      conditions.push(criterionSql(bound, c, extra));
      noteEqual(c);
      if (extra.has(c.PropertyName) && !resource.fields[c.PropertyName]) {
        probes.push(criterionSql(bound, c, extra, 'probe'));
        probed = true;
      } else probes.push(conditions[conditions.length - 1] as Fragment);
      const field = (resource.fields[c.PropertyName] ??
        extra.get(c.PropertyName)?.declaration) as FieldDeclaration;
      criteriaItems.push({
        DisplayName: field.label,
        CriteriaDisplayValue: displayValue(field, c),
        PropertyName: c.PropertyName,
        ShowValueOnTag: true,
      });
    }
  } else if (filterId !== FILTER_NONE) {
    const named = resource.filters.find((f) => f.Id === filterId);
    if (!named) throw badRequest(`There is no filter ${filterId} on this list.`, { Id: ['Unknown filter.'] });
    for (const c of named.Criteria) {
      conditions.push(criterionSql(bound, { ...c, Value: c.Value, Value2: c.Value2 }, extra));
      noteEqual(c);
    }
    criteriaItems.push({
      DisplayName: named.Name,
      CriteriaDisplayValue: null,
      PropertyName: null,
      ShowValueOnTag: false,
    });
  }
  const text = (search ?? request.SearchText ?? '').trim();
  let searchIndex: ListPlan['searchIndex'];
  if (text !== '' && resource.search.length > 0) {
    const pattern = like(text);
    const indexed = bound.hooks.searchIndex ? bound.hooks.searchIndex(text) : trigramSearchPlan(bound, text);
    if (indexed) searchIndex = { plan: indexed, whereWithoutSearch: allOf([...conditions]) };
    conditions.push(
      indexed
        ? q`${bound.sqlKey} in (${indexed.keys})`
        : q`(${joinFragments(
            resource.search.map((f) => q`${bound.sqlColumns[f]}::text ilike ${pattern}`),
            ' or ',
          )})`,
    );
    criteriaItems.push({
      DisplayName: 'Search',
      CriteriaDisplayValue: text,
      PropertyName: null,
      ShowValueOnTag: true,
    });
  }
  const sorts = parseOrderBy(bound, orderby, extra);
  const sortedBy = extra.get(sorts[0]?.field ?? '');
  const runs =
    sorts.length === 1 && sortedBy?.sortRuns && sorts[0] ? sortedBy.sortRuns(sorts[0].direction) : undefined;
  // The key last: a stable order, so paging never repeats or skips a row. It runs the way the sort before it runs,
  // so one index read forwards or backwards yields the whole order (decision 0100); `name desc, id asc` would sort.
  const last = sorts[sorts.length - 1];
  if (!sorts.some((s) => s.field === resource.key))
    sorts.push({ field: resource.key, direction: last?.direction ?? 'asc' });
  const orderBy = joinFragments(
    sorts.map((s) => {
      const column = bound.sqlColumns[s.field];
      if (column) return q`${column} ${raw(s.direction)}`;
      // An extra field: its sort value, the rows without one last whichever the direction (as its runs are).
      return q`${extra.get(s.field)?.sortValue ?? raw('null')} ${raw(s.direction)} nulls last`;
    }),
    ', ',
  );
  const first = sorts[0] ?? { field: resource.defaultSort.field, direction: resource.defaultSort.direction };
  // The page's conditions: the same, an extra field's filter as a probe (only the advanced filter holds them).
  const pageConditions =
    probes.length > 0 && !searchIndex && filterId === FILTER_ADVANCED
      ? [...conditions.slice(0, countedFrom), ...probes, ...conditions.slice(countedFrom + probes.length)]
      : undefined;
  // A term most rows match may be found by reading the list in its order: only where an index yields that order
  // with the filter held equal, so the read is bounded by the rows it tests.
  if (
    searchIndex &&
    unheld === 0 &&
    sorts.length <= 2 &&
    sorts.every(
      (s) => resource.fields[s.field] && bound.sqlColumns[s.field] && s.direction === sorts[0]?.direction,
    ) &&
    servedBy(
      resource,
      new Set(equal),
      sorts.map((s) => s.field).filter((f) => !equal.includes(f)),
    )
  )
    searchIndex.walkOrder = orderBy;
  const split = runs || searchIndex || probed ? null : splitPlan(bound, conditions, equal, splits, sorts);
  const criteria = filterId === FILTER_ADVANCED ? (request.Criteria ?? []) : [];
  const onExtraOnly =
    criteria.length > 0 &&
    criteria.length === conditions.length - countedFrom &&
    !bound.properties.isDraft &&
    criteria.every((c) => !resource.fields[c.PropertyName] && extra.get(c.PropertyName)?.filter);
  const keyFilter = onExtraOnly
    ? (mode: ExtraFilterMode) => (row: KeyRow) =>
        allOf(criteria.map((c) => extra.get(c.PropertyName)?.filter?.(c, mode, row) ?? q`false`)) ?? q`true`
    : undefined;
  // Sorted by declared fields only (no runs): the criteria's counts say how selective the filter is.
  const keyCount =
    keyFilter && !runs && sorts.every((s) => bound.sqlColumns[s.field])
      ? (tenantId: string, atMost?: Fragment) => {
          const counts = criteria.flatMap(
            (c) => extra.get(c.PropertyName)?.count?.(c, tenantId, atMost) ?? [],
          );
          if (counts.length <= 1) return counts[0];
          return q`least(${joinFragments(counts, ', ')})`;
        }
      : undefined;
  const [only] = criteria;
  // One criterion on another extra field, sorted by an extra field: the pair's kept order when it is ready, and the
  // page asks for it when it is not (decision 0196).
  const paired =
    onExtraOnly && criteria.length === 1 && only && runs && sorts[0]
      ? sortedBy?.filteredSort?.(sorts[0].direction, only)
      : undefined;
  const matchesOf = only && criteria.length === 1 ? extra.get(only.PropertyName)?.matches : undefined;
  const keyMatches =
    keyCount && only && matchesOf ? (tenantId: string) => matchesOf(only, tenantId) ?? undefined : undefined;
  return {
    where: allOf(conditions),
    ...(keyFilter ? { keyFilter } : {}),
    ...(keyMatches ? { keyMatches } : {}),
    ...(keyCount ? { keyCount, baseWhere: allOf(conditions.slice(0, countedFrom)) } : {}),
    ...(pageConditions ? { pageWhere: allOf(pageConditions) } : {}),
    orderBy,
    ...(runs ? { runs: paired?.runs ?? runs } : {}),
    ...(paired?.asks?.length ? { asks: paired.asks } : {}),
    ...(split?.merge ? { merge: split.merge } : {}),
    ...(split?.runs ? { runs: split.runs, pageWhere: split.pageWhere } : {}),
    everyRecord: conditions.length === countedFrom && !bound.properties.isDraft,
    sorts,
    ...(searchIndex ? { searchIndex } : {}),
    criteriaItems,
    sort: { columnName: first.field, direction: first.direction },
  };
}

/** Column types whose values compare in the database as they do here once coerced (numbers, text, booleans). */
const SPLIT_TYPES = /^(smallint|integer|bigint|serial|bigserial|text|varchar(\(\d+\))?|boolean)$/;

const indexesOf = new WeakMap<ResourceDeclaration, readonly (readonly string[])[]>();

/** Whether a list index holds these fields equal (in some order) and then yields `order`, the key last. */
function servedBy(
  resource: ResourceDeclaration,
  held: ReadonlySet<string>,
  order: readonly string[],
): boolean {
  let indexes = indexesOf.get(resource);
  if (!indexes) {
    indexes = listIndexes(resource).map((i) => i.fields);
    indexesOf.set(resource, indexes);
  }
  return indexes.some((fields) => {
    let i = 0;
    while (i < fields.length && held.has(fields[i] as string)) i++;
    return order.every((f, j) => fields[i + j] === f);
  });
}

/**
 * A page filtered by a field equal to one of a few values (`in`), read as one run per value (LIST_SPLIT_VALUES_UP_TO;
 * PostgreSQL cannot keep an index's order through `= ANY`, so the plain statement walks the sort's index and skips
 * every row of the other values): when an index holds the field equal and then yields the sort, each run is that
 * index read for one value. Sorted by another field, the runs are merged in the sort's order (`merge`); sorted by
 * the field itself, the runs are read one after the other in the order of their values (`runs`). Only for one
 * sort field (the key after it) of a large resource, values the database compares as they are compared here.
 */
function splitPlan(
  bound: BoundResource,
  conditions: readonly Fragment[],
  equal: readonly string[],
  splits: readonly { at: number; criterion: FilterCriterion }[],
  sorts: readonly { field: string; direction: 'asc' | 'desc' }[],
): { merge?: ListPlan['merge']; runs?: SortRun[]; pageWhere?: Fragment | undefined } | null {
  const { resource } = bound;
  if (resource.scale === 'small' || splits.length === 0) return null;
  const [sort, key] = sorts;
  if (!sort || sorts.length > 2 || (key && (key.field !== resource.key || key.direction !== sort.direction)))
    return null;
  for (const { at, criterion } of splits) {
    const field = criterion.PropertyName;
    const column = bound.columns[field];
    const declared = resource.fields[field] as FieldDeclaration;
    if (!column || !SPLIT_TYPES.test(column.getSQLType()) || declared.type === 'multiSelect') continue;
    const held = new Set([...equal, field]);
    const order = sorts.map((s) => s.field).filter((f) => !held.has(f));
    if (!servedBy(resource, held, order)) continue;
    // The values as the database compares them: a number once (`1` and `'01'` are one run), text as it is.
    const numeric = /int|serial/.test(column.getSQLType());
    const seen = new Map<string, unknown>();
    for (const v of listSplitValues(criterion) ?? []) {
      const value = numeric ? Number(coerce({ ...declared, type: 'number' }, v)) : coerce(declared, v);
      seen.set(typeof value === 'string' ? `s${value}` : `${typeof value}${String(value)}`, value);
    }
    const values = [...seen.values()];
    if (values.length < 2) return null;
    const col = bound.sqlColumns[field] as Raw;
    const others = allOf(conditions.filter((_, i) => i !== at));
    if (sort.field !== field)
      return { merge: { where: others, values: values.map((v) => q`${col} = ${v}`) } };
    // Sorted by the field itself: its values in the sort's order, known here for numbers and booleans only.
    if (!values.every((v) => typeof v === 'number' || typeof v === 'boolean')) return null;
    const ordered = [...values].sort((a, b) => (Number(a) - Number(b)) * (sort.direction === 'asc' ? 1 : -1));
    const keyOrder = q`${bound.sqlKey} ${raw(sort.direction)}`;
    return { runs: ordered.map((v) => ({ where: q`${col} = ${v}`, order: keyOrder })), pageWhere: others };
  }
  return null;
}
