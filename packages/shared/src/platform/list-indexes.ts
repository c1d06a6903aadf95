/**
 * Which indexes a resource's lists need (decision 0100): every way a user can ask for a list page (each sortable
 * field, ascending or descending, with no filter, with each named filter, and within a parent record) is served by
 * one index that yields the page's rows in order, so a page at any depth is an index scan of `$skip + $top` entries
 * and never a sort of every match. Derived from the declaration, so a new sortable field or named filter brings
 * its index with it; the database schema declares exactly these, and a test fails when one is missing.
 */
import type { FilterCriterion } from './list-protocol.schema.ts';
import type { ResourceDeclaration } from './resource.ts';

/** One way to ask for a list: the fields held equal (a named filter or a parent record), the sort field. */
export interface ListAccessPath {
  /** `0` for no filter, a named filter's id, or `parent:<field>` for the lists within a parent record. */
  filter: number | string;
  /** Fields the filter holds equal to one value, in the order of its criteria. */
  equal: readonly string[];
  sort: string;
}

/** An index of a list: tenant first, then these fields; partial on the live rows when the resource soft-deletes. */
export interface ListIndex {
  fields: readonly string[];
  /** Every access path it serves. */
  serves: readonly ListAccessPath[];
}

/**
 * The parent fields by which other resources show this one as a child list (`screen.children` of any resource):
 * a record's tab lists its children filtered by the parent's key.
 */
export function parentFieldsOf(resource: ResourceDeclaration, all: readonly ResourceDeclaration[]): string[] {
  const out = new Set<string>();
  for (const r of all)
    for (const c of r.screen?.children ?? []) if (c.resource === resource.name) out.add(c.parentField);
  return [...out];
}

/** Every way a user can ask for a page of the resource's list, before the direction. */
export function listAccessPaths(
  resource: ResourceDeclaration,
  parentFields: readonly string[] = [],
): ListAccessPath[] {
  if (resource.scale === 'small' || resource.singleRecord) return [];
  const filters: { filter: number | string; equal: string[] }[] = [{ filter: 0, equal: [] }];
  for (const f of resource.filters) {
    // The criteria that hold a field equal to one value, or to one of a few (read as one run per value, merged in
    // the sort's order), narrow an index's prefix; the others filter rows.
    const equal = f.Criteria.filter((c) => c.Operator === 'eq' || listSplitValues(c) !== null).map(
      (c) => c.PropertyName,
    );
    filters.push({ filter: f.Id, equal: [...new Set(equal)] });
  }
  for (const p of parentFields) filters.push({ filter: `parent:${p}`, equal: [p] });
  const paths: ListAccessPath[] = [];
  for (const f of filters) for (const sort of resource.sortable) paths.push({ ...f, sort });
  return paths;
}

/**
 * A list filtered by a field equal to one of a few values (`in`) is read as one run per value through the index
 * that holds the field equal, each in the sort's order, merged: PostgreSQL cannot keep an index's order through
 * `= ANY`, so it would otherwise walk the sort's index and skip every row of the other values.
 */
export const LIST_SPLIT_VALUES_UP_TO = 10;

/** The values of an `in` criterion read as one run each (2 to LIST_SPLIT_VALUES_UP_TO of them), else null. */
export function listSplitValues(c: FilterCriterion): readonly unknown[] | null {
  if (c.Operator !== 'in' || !Array.isArray(c.Value)) return null;
  const values = [...new Set(c.Value as unknown[])];
  return values.length >= 2 && values.length <= LIST_SPLIT_VALUES_UP_TO ? values : null;
}

/** The index fields that serve one access path: the equal fields, the sort field, the key last. */
export function indexFieldsFor(resource: ResourceDeclaration, path: ListAccessPath): string[] {
  const fields = [...path.equal];
  if (!fields.includes(path.sort)) fields.push(path.sort);
  if (!fields.includes(resource.key)) fields.push(resource.key);
  return fields;
}

/** The indexes of a resource's lists: one per distinct field list, each with the access paths it serves. */
export function listIndexes(
  resource: ResourceDeclaration,
  parentFields: readonly string[] = [],
): ListIndex[] {
  const byFields = new Map<string, { fields: string[]; serves: ListAccessPath[] }>();
  for (const path of listAccessPaths(resource, parentFields)) {
    const fields = indexFieldsFor(resource, path);
    const id = fields.join(',');
    const known = byFields.get(id);
    if (known) known.serves.push(path);
    else byFields.set(id, { fields, serves: [path] });
  }
  return [...byFields.values()];
}

/**
 * The search box's index of a `large` resource (decision 0102): one trigram index over its search fields joined by
 * a space and lower-cased, so "every word typed appears in some field" is read through the index at any size
 * (the search box's total is then exact up to a threshold and a labelled estimate beyond, decision 0101). None for
 * a small resource, one without search fields, or one with a search index of its own.
 */
export function listSearchIndex(resource: ResourceDeclaration): { fields: readonly string[] } | null {
  if (resource.scale === 'small' || resource.singleRecord || resource.ownSearchIndex) return null;
  if (resource.search.length === 0) return null;
  return { fields: resource.search };
}

/** The words of a list's search box, lower-cased: each must appear in the joined search fields (at most 8). */
export function listSearchWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[\s,;]+/)
    .filter((w) => w.length > 0)
    .slice(0, 8);
}

/**
 * A search word shorter than this matches where a word of the text begins (the text's start, or after a space);
 * from this length on, anywhere in the text (decision 0199). A trigram index holds three characters of a word: a
 * shorter word anywhere gives it nothing to read by, while its start is the padded trigram "  q" or " qu".
 */
export const LIST_SEARCH_ANYWHERE_FROM = 3;

/** One search word as SQL LIKE patterns (backslash escapes), any of which it matches by (decision 0199). */
export function listSearchPatterns(word: string): string[] {
  const escaped = word.replace(/[\\%_]/g, (c) => `\\${c}`);
  return [...word].length < LIST_SEARCH_ANYWHERE_FROM ? [`${escaped}%`, `% ${escaped}%`] : [`%${escaped}%`];
}

/** Whether a lower-cased text holds one search word as the patterns say (the rule the statements spell in SQL). */
export function listSearchMatches(text: string, word: string): boolean {
  return [...word].length < LIST_SEARCH_ANYWHERE_FROM
    ? text.startsWith(word) || text.includes(` ${word}`)
    : text.includes(word);
}

/**
 * The text a list's search box matches, as SQL over the search fields' columns (quoted, qualified or not): the
 * fields joined by a space, lower-cased. The index (db schema) and the server's statement spell it alike, so the
 * planner reads the index. A missing value is spelled with CASE, not COALESCE: under row-level security PostgreSQL
 * reads a condition from an index before the policy only when it holds nothing it counts as leaky, and it counts
 * every COALESCE as leaky (CASE, lower and || are not; migration 0085).
 */
export function listSearchExpression(columns: readonly string[]): string {
  return `lower(${columns.map((c) => `(case when ${c} is null then '' else ${c}::text end)`).join(` || ' ' || `)})`;
}

/**
 * The fields whose values a counted resource's table keeps counts of (decision 0103): each field a named filter
 * tests alone with `eq`, `ne` or `in`. Null when the resource is not counted.
 */
export function listCountFacets(resource: ResourceDeclaration): readonly string[] | null {
  if (!resource.counted || resource.scale === 'small' || resource.singleRecord) return null;
  const facets = new Set<string>();
  for (const f of resource.filters) {
    const [c, more] = f.Criteria;
    if (c && !more && ['eq', 'ne', 'in'].includes(c.Operator)) facets.add(c.PropertyName);
  }
  return [...facets].sort();
}

/** How a list's total is read from the kept counts: the sum over some values of a facet, or the total minus it. */
export interface ListCountRead {
  /** `''`: the live rows' total. */
  facet: string;
  values: readonly string[];
  /** The total minus the sum and minus the rows without a value (a `ne` filter, which SQL's `<>` never matches). */
  minus: boolean;
}

/** The value of a field as the counts key it: the column's text (booleans as true/false), `''` for none. */
export function listCountValue(value: unknown): string | null {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  return null;
}

/**
 * The counts that answer a list's total for these criteria (no filter, or one criterion on a counted facet), or
 * null when only `count(*)` can (several criteria, another field or operator, a search).
 */
export function listCountRead(
  resource: ResourceDeclaration,
  criteria: readonly FilterCriterion[],
): ListCountRead | null {
  const facets = listCountFacets(resource);
  if (!facets) return null;
  if (criteria.length === 0) return { facet: '', values: [''], minus: false };
  const [c, more] = criteria;
  if (!c || more || !facets.includes(c.PropertyName)) return null;
  const values = (c.Operator === 'in' && Array.isArray(c.Value) ? c.Value : [c.Value]).map(listCountValue);
  if (values.some((v) => v === null || v === '')) return null;
  if (c.Operator === 'eq' || c.Operator === 'in')
    return { facet: c.PropertyName, values: values as string[], minus: false };
  if (c.Operator === 'ne') return { facet: c.PropertyName, values: values as string[], minus: true };
  return null;
}
