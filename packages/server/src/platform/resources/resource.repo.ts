/** Queries of the generic engine: every one runs inside the caller's tenant transaction, scoped by tenant too. */
import {
  type Fragment,
  ident,
  joinFragments,
  kept,
  q,
  type Raw,
  raw,
  runFragment,
  type Tx,
} from '@guildhall/db';
import { LIST_SEARCH_EXACT_UP_TO } from '@guildhall/shared';
import { and, eq, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import {
  type ExtraFields,
  type ExtraFilterMode,
  type KeyRow,
  NO_EXTRA_FIELDS,
  type SortRun,
} from './extra-fields.ts';
import type { SearchIndexPlan } from './hooks.ts';
import type { BoundResource } from './registry.ts';

export type Row = Record<string, unknown>;

/**
 * The list statements run on every list request: written as fragments and read without Drizzle's builder
 * (decision 0060). Rows come keyed by field name in the order asked, each value read by its column's own decoder:
 * a page's rows are its models as they are.
 */
function selectList(
  bound: BoundResource,
  fields: readonly string[] | undefined,
  extra: ExtraFields = NO_EXTRA_FIELDS,
): Fragment {
  const names = fields ?? Object.keys(bound.columns);
  const parts: Fragment[] = [];
  for (const f of names) {
    const column = bound.sqlColumns[f];
    const added = column ? undefined : extra.get(f);
    if (column) parts.push(q`${column} as ${ident(f)}`);
    else if (added) parts.push(q`${added.value} as ${ident(f)}`);
  }
  return joinFragments(parts, ', ');
}

function scoped(bound: BoundResource, tenantId: string, where: Fragment | undefined): Fragment {
  return where ? q`${bound.sqlTenant} = ${tenantId} and ${where}` : q`${bound.sqlTenant} = ${tenantId}`;
}

/** Each value read by its column's decoder, and a timestamp as ISO text: the values as a model carries them. */
export function decodeRows(bound: BoundResource, rows: Row[], extra: ExtraFields = NO_EXTRA_FIELDS): Row[] {
  const { decoders } = bound;
  for (const row of rows) {
    for (const f in row) {
      const value = row[f];
      const decode = decoders[f] ?? extra.get(f)?.decode;
      if (value === null || value === undefined || !decode) continue;
      const v = decode(value);
      row[f] = v instanceof Date ? v.toISOString() : v;
    }
  }
  return rows;
}

interface PagePlan {
  where: Fragment | undefined;
  orderBy: Fragment;
  /** A page sorted by an extra field: its runs in order (decision 0112). */
  runs?: SortRun[] | undefined;
  /** Writes the page's statement makes, items of its WITH (ListPlan.asks): only with `runs`. */
  asks?: readonly Fragment[] | undefined;
  /** The list keeps every live record (no filter, no search): a run may read its keys from its own index. */
  everyRecord?: boolean | undefined;
  /**
   * One run per value of a field a filter holds to a few values, merged in the page's order (a Merge Append):
   * `where` is the page's conditions without that filter, `values` each run's own condition (`query.ts`).
   */
  merge?: { where: Fragment | undefined; values: readonly Fragment[] } | undefined;
  /** The fields of the order with their directions, the key last (the merged runs' order). */
  sorts?: readonly { field: string; direction: 'asc' | 'desc' }[];
  /** The advanced filter's criteria on extra fields alone, tested on a run's keys (ListPlan.keyFilter). */
  keyFilter?: ((mode: ExtraFilterMode) => (row: KeyRow) => Fragment) | undefined;
  /** The number of live records (a statement answering `n`), when it is kept: see SortRun.withoutValue. */
  recordTotal?: Fragment | undefined;
  /** The fewest records a criterion of `keyFilter` keeps, and the conditions without them (ListPlan.keyCount). */
  keyCount?: ((tenantId: string, atMost?: Fragment) => Fragment | undefined) | undefined;
  /**
   * The keys the filter's one criterion keeps (ListPlan.keyMatches), read once by the page: the statement then
   * answers the list's total as well, on every row (`MATCHED_TOTAL`; one row of the total alone when the page is
   * empty), and the list sends no statement of its own for it.
   */
  matches?: Fragment | undefined;
  baseWhere?: Fragment | undefined;
  limit: number;
  offset: number;
  fields?: readonly string[];
  extra?: ExtraFields;
}

/** The statement of a page: its rows keyed by field name, in the order asked. */
export function listStatement(bound: BoundResource, tenantId: string, plan: PagePlan): Fragment {
  const select = selectList(bound, plan.fields, plan.extra);
  const where = scoped(bound, tenantId, plan.where);
  if (plan.runs) {
    // Sorted by an extra field: each run in its order through its index, one after the other. Each run answers the
    // keys the page can need (offset + limit, which makes its planner walk the index instead of sorting) as an array
    // in its order (`array(… order by …)`); a run is read only while the runs before it have not filled the page
    // (a CASE reads its branch's subquery only when taken), and then only when it can have rows. The page's keys are
    // a slice of the runs' keys, numbered by `unnest … with ordinality`: the page keeps the runs' order by
    // construction. A deep page skips over keys, not over rows with their columns and correlated reads.
    // Each run's CTE is MATERIALIZED: inlined, a run's `a` (read twice, by the CASE's test and by its branch) copied
    // the run before it twice, so n runs planned 2^n copies of the first and ran many of them (a sort by a choice of
    // five, seven runs: 200 ms at a million contacts instead of a few).
    const upTo = plan.offset + plan.limit;
    const arrays: Fragment[] = [];
    // A run reads keys from its own index when the list keeps every live record, or only tests extra fields on
    // them (decision 0112). A shallow page probes each key as the index yields it (a few keys a match); a deep page
    // tests each key against a hash of the filter's matches, built once: probing walked about five keys a match,
    // one index read each (1.3-2.1 s for offset 20,000 at a million contacts). Read as a join, the planner drove a
    // deep page from the filter's matches and sorted them (1.4 s), so the hash is a filter on the walk, not a join.
    const keyMode: ExtraFilterMode = upTo >= KEY_FILTER_HASHED_FROM ? 'hash' : 'probe';
    plan.runs.forEach((r, i) => {
      const keys =
        r.keys && (plan.everyRecord || plan.keyFilter)
          ? q`${r.keys(tenantId, plan.keyFilter?.(keyMode))} limit ${upTo}`
          : q`select ${bound.sqlKey} from ${bound.sqlSource} ${r.join ?? raw('')} where ${where}${r.where ? q` and ${r.where}` : raw('')} order by ${r.order} limit ${upTo}`;
      const read = q`array(${keys})`;
      const when =
        r.withoutValue && plan.recordTotal
          ? q`(select n from (${plan.recordTotal}) gh_records) > ${r.withoutValue.valued(tenantId)}`
          : undefined;
      const run = when ? q`case when ${when} then ${read} else '{}' end` : read;
      if (i === 0) arrays.push(q`gh_run0 as materialized (select ${run} as a)`);
      else
        arrays.push(
          q`${raw(`gh_run${i}`)} as materialized (select case when cardinality(a) >= ${upTo} then a else a || ${run} end as a from ${raw(`gh_run${i - 1}`)})`,
        );
    });
    const last = raw(`gh_run${plan.runs.length - 1}`);
    const slice = q`(select a[${plan.offset + 1}:${upTo}] from ${last})`;
    return q`with ${joinFragments([...(plan.asks ?? []), ...arrays], ', ')} select ${select} from unnest(${slice}) with ordinality gh_page(gh_page_key, gh_page_place) join ${bound.sqlSource} on ${bound.sqlKey} = gh_page.gh_page_key where ${bound.sqlTenant} = ${tenantId} order by gh_page.gh_page_place`;
  }
  if (plan.merge && plan.sorts) {
    // One run per value, each read in the page's order through the index that holds the filter's field equal and
    // limited to the rows the page can need, merged in that order: PostgreSQL plans a Merge Append of index scans,
    // and a deep page skips over keys (and the sort's values) only. The page's rows are then read by key.
    const upTo = plan.offset + plan.limit;
    const base = scoped(bound, tenantId, plan.merge.where);
    const sorted = plan.sorts.filter((s) => s.field !== bound.resource.key);
    const carried = sorted.map(
      (s, i) => q`, ${bound.sqlColumns[s.field] as Raw} as ${ident(`gh_sort_${i}`)}`,
    );
    const direction = raw(plan.sorts.at(-1)?.direction ?? 'asc');
    const runs = plan.merge.values.map(
      (value) =>
        q`(select ${bound.sqlKey} as gh_page_key${joinFragments(carried, '')} from ${bound.sqlSource} where ${base} and ${value} order by ${plan.orderBy} limit ${upTo})`,
    );
    const merged = joinFragments(
      [...sorted.map((s, i) => q`${ident(`gh_sort_${i}`)} ${raw(s.direction)}`), q`gh_page_key ${direction}`],
      ', ',
    );
    const keys = q`select gh_page_key from (${joinFragments(runs, ' union all ')}) runs order by ${merged} limit ${plan.limit} offset ${plan.offset}`;
    return q`select ${select} from ${bound.sqlSource} where ${bound.sqlTenant} = ${tenantId} and ${bound.sqlKey} in (${keys}) order by ${plan.orderBy}`;
  }
  if (plan.keyFilter && plan.recordTotal && plan.matches) {
    // One criterion whose matches are read from the values (a text contains, a number range): they are read once,
    // MATERIALIZED, and serve the total (their number), the share that chooses the read, and the filter of a walk
    // (a hash of them) or of a join. Read apart, the total, the share and the hash searched the index three times
    // (a text contains matching 10,309 of 1,000,000 contacts: 10,309 value rows fetched three times a request).
    // Once they are read, testing a walked key against their hash costs less than probing the index per key, so
    // a walk that would have probed tests the hash too.
    const upTo = plan.offset + plan.limit;
    const base = scoped(bound, tenantId, plan.baseWhere);
    const inMatches = q`${bound.sqlKey} in (select gh_match_key from gh_match)`;
    const walk = (test: Fragment) =>
      q`array(select ${bound.sqlKey} from ${bound.sqlSource} where ${base} and ${test} order by ${plan.orderBy} limit ${upTo})`;
    const names = (plan.fields ?? Object.keys(bound.columns)).filter(
      (f) => bound.sqlColumns[f] || plan.extra?.has(f),
    );
    const shown = raw(names.map((f) => `gh_rows.${ident(f).text}, `).join(''));
    return q`with gh_match as materialized (${plan.matches}),
      gh_share as materialized (select (select count(*) from gh_match)::numeric as m, (select n from (${plan.recordTotal}) gh_records)::numeric as n),
      gh_keys as materialized (select case
        when (select m * ${KEY_FILTER_PROBED_WALK} >= ${upTo} * n or m * m * ${KEY_FILTER_JOIN_COST} >= ${upTo} * n from gh_share)
        then ${walk(q`((${inMatches}) is true)`)}
        else ${walk(inMatches)} end as a)
      select ${shown}gh_share.m as ${ident(MATCHED_TOTAL)} from gh_share left join lateral (
        select ${select}, gh_page.gh_page_place from unnest((select a[${plan.offset + 1}:${upTo}] from gh_keys)) with ordinality gh_page(gh_page_key, gh_page_place)
        join ${bound.sqlSource} on ${bound.sqlKey} = gh_page.gh_page_key where ${bound.sqlTenant} = ${tenantId}) gh_rows on true
      order by gh_rows.gh_page_place`;
  }
  // The matches are counted only up to what decides a probe ((offset + limit) * n / KEY_FILTER_PROBED_WALK, from
  // the kept record total): a count read from an index stops there (a common value's count cost as much as the page).
  const atMost = plan.recordTotal
    ? q`(select ceil(n::numeric * ${plan.offset + plan.limit} / ${KEY_FILTER_PROBED_WALK})::bigint from (${plan.recordTotal}) gh_all)`
    : undefined;
  const matched = plan.keyFilter && atMost ? plan.keyCount?.(tenantId, atMost) : undefined;
  if (plan.keyFilter && plan.recordTotal && matched) {
    // Filtered by extra fields alone and sorted by declared fields: read as the filter's share says (m records
    // match of n, the page needs offset + limit keys). Walking the sort's index meets about n / m records a
    // match: when that walk is short, each record is probed in the filter's index as it comes; when it is longer
    // but the matches are many, each record is tested against a hash of the matches, read once; when the matches
    // are few, they are joined to their records and sorted. Each way yields the same keys in the same order.
    const upTo = plan.offset + plan.limit;
    const row: KeyRow = { tenant: bound.sqlTenant, key: bound.sqlKey, tenantId };
    const base = scoped(bound, tenantId, plan.baseWhere);
    const filter = plan.keyFilter;
    const walk = (mode: ExtraFilterMode) =>
      q`array(select ${bound.sqlKey} from ${bound.sqlSource} where ${base} and ${filter(mode)(row)} order by ${plan.orderBy} limit ${upTo})`;
    return q`with gh_share as materialized (select (${matched})::numeric as m, (select n from (${plan.recordTotal}) gh_records)::numeric as n),
      gh_keys as materialized (select case
        when (select m * ${KEY_FILTER_PROBED_WALK} >= ${upTo} * n from gh_share) then ${walk('probe')}
        when (select m * m * ${KEY_FILTER_JOIN_COST} >= ${upTo} * n from gh_share) then ${walk('hash')}
        else ${walk('set')} end as a)
      select ${select} from unnest((select a[${plan.offset + 1}:${upTo}] from gh_keys)) with ordinality gh_page(gh_page_key, gh_page_place) join ${bound.sqlSource} on ${bound.sqlKey} = gh_page.gh_page_key where ${bound.sqlTenant} = ${tenantId} order by gh_page.gh_page_place`;
  }
  if (plan.offset >= DEFERRED_JOIN_FROM) {
    // Deep pages: skip over keys only (an index-only scan of the sort index), then read the page's rows.
    return q`select ${select} from ${bound.sqlSource} where ${bound.sqlTenant} = ${tenantId} and ${bound.sqlKey} in (select ${bound.sqlKey} from ${bound.sqlSource} where ${where} order by ${plan.orderBy} limit ${plan.limit} offset ${plan.offset}) order by ${plan.orderBy}`;
  }
  return q`select ${select} from ${bound.sqlSource} where ${where} order by ${plan.orderBy} limit ${plan.limit} offset ${plan.offset}`;
}

export async function listRows(
  tx: Tx,
  bound: BoundResource,
  tenantId: string,
  plan: PagePlan,
): Promise<Row[]> {
  return decodeRows(bound, await runFragment<Row>(tx, listStatement(bound, tenantId, plan)), plan.extra);
}

/** The column a page statement that counts its filter's matches adds to its rows: the list's total. */
export const MATCHED_TOTAL = '$total';

/** The page's rows of a statement that answers its total too (`PagePlan.matches`), without it; and the total. */
export function matchedPageRows(rows: Row[]): { rows: Row[]; total: number } {
  const total = Number(rows[0]?.[MATCHED_TOTAL] ?? 0);
  const page: Row[] = [];
  for (const row of rows) {
    const { [MATCHED_TOTAL]: _t, ...rest } = row;
    // The row of the total alone, when the page is empty: every field null (a page's row has its key).
    if (Object.values(rest).every((v) => v === null)) continue;
    page.push(rest);
  }
  return { rows: page, total };
}

/**
 * From this many keys a page needs (offset + limit), a run that reads keys from an index tests the extra fields'
 * filter against a hash of its matches instead of probing per key (decision 0112's amendment): probing costs an
 * index read per key walked, the hash one read of every match, whatever the depth.
 */
export const KEY_FILTER_HASHED_FROM = 1_000;

/**
 * A page filtered by extra fields and sorted by declared ones probes the filter per record while the walk of the
 * sort's index is expected to meet at most this many records ((offset + limit) * n / m).
 */
export const KEY_FILTER_PROBED_WALK = 2_000;

/**
 * Beyond, it tests each record against a hash of the m matches while m * m * this is at least (offset + limit) * n
 * (a walked index entry costs about this much less than a match joined to its record and sorted); else it joins.
 */
export const KEY_FILTER_JOIN_COST = 20;

/**
 * A search term whose sampled share of matches is at least this is found by reading the list in its order (about
 * 10,000 rows for LIST_SEARCH_EXACT_UP_TO + 1 matches at the threshold). 0.2 until a word of one or two letters
 * matched where a word begins (decision 0199): such a word ("s", "a") matches 10-20% of a list's rows, and the
 * trigram index builds the set of all of them twice (one per pattern) before the first is read.
 */
export const LIST_SEARCH_WALK_FROM = 0.1;
/** The rows such a read tests at most before it gives way to the search index. */
export const LIST_SEARCH_WALK_ROWS = 20_000;

/**
 * A term the search index's sampled share says many rows match (at least this share, and at least
 * LIST_SEARCH_SCAN_MATCHES of the list's rows by the estimate) is found by reading the rows in the order of an
 * ordinary index (`SearchIndexPlan.scan`) until LIST_SEARCH_EXACT_UP_TO + 1 match: about 1 / share rows a match.
 */
export const LIST_SEARCH_SCAN_FROM = 0.02;
/** The estimated matches from which the search index's whole set of them costs more than such a read. */
export const LIST_SEARCH_SCAN_MATCHES = 10_000;
/** The rows such a read tests at most before it gives way to the search index (1,001 matches at 1.7%). */
export const LIST_SEARCH_SCAN_ROWS = 60_000;

/** Columns a searched page's statement adds to its rows: the total, whether it is an estimate, the row's place. */
export const SEARCH_TOTAL = '$total';
export const SEARCH_ESTIMATED = '$estimated';
const SEARCH_PLACE = '$place';

/**
 * A page and its total in one statement when the search box is served by a search index (decision 0101). It reads
 * the keys of at most LIST_SEARCH_EXACT_UP_TO + 1 matches through the index (`m`), then the rows of the first
 * LIST_SEARCH_EXACT_UP_TO of them with the list's other conditions (`f`, read by key), sorted for the page:
 * - up to LIST_SEARCH_EXACT_UP_TO matches, that is every match: the total is exact;
 * - beyond, the total is the sampled share of matches times the list's total without the search, never below the
 *   threshold (an estimate, flagged), and the pages are those LIST_SEARCH_EXACT_UP_TO matches in the list's order.
 * The work is bounded by the threshold whatever the term, sort, filter or depth. Every row carries the total; when
 * the page is empty, one row of the total alone (its fields null) is answered, which `searchPageRows` drops.
 */
export function listSearchStatement(
  bound: BoundResource,
  tenantId: string,
  plan: {
    whereWithoutSearch: Fragment | undefined;
    search: SearchIndexPlan;
    sorts: readonly { field: string; direction: 'asc' | 'desc' }[];
    limit: number;
    offset: number;
    fields?: readonly string[];
    extra?: ExtraFields;
    /**
     * The list's order over the source's columns, when a term most rows match may be found by reading the list in
     * it (the search plan has a `test`, the sort is by declared fields and the list's index serves the order).
     */
    walkOrder?: Fragment | undefined;
  },
  /** The list's total without the search: a statement answering one row, `n`. */
  unsearchedCount: Fragment,
): Fragment {
  const exactUpTo = LIST_SEARCH_EXACT_UP_TO;
  const extra = plan.extra ?? NO_EXTRA_FIELDS;
  const where = scoped(bound, tenantId, plan.whereWithoutSearch);
  const shown = (plan.fields ?? Object.keys(bound.columns)).filter(
    (f) => bound.sqlColumns[f] || extra.has(f),
  );
  const sortName = (f: string) => (bound.sqlColumns[f] ? f : `$sort:${f}`);
  const fRows = joinFragments(
    [
      ...[...new Set([...shown, ...plan.sorts.map((s) => s.field).filter((f) => bound.sqlColumns[f])])].map(
        (f) => {
          const column = bound.sqlColumns[f];
          return column
            ? q`${column} as ${ident(f)}`
            : q`${extra.get(f)?.value ?? raw('null')} as ${ident(f)}`;
        },
      ),
      // An extra field's sort value beside its shown value (a choice's place in the list, not its id).
      ...plan.sorts
        .filter((s) => !bound.sqlColumns[s.field])
        .map((s) => q`${extra.get(s.field)?.sortValue ?? raw('null')} as ${ident(sortName(s.field))}`),
    ],
    ', ',
  );
  const order = raw(
    plan.sorts
      .map((s) =>
        bound.sqlColumns[s.field]
          ? `${ident(s.field).text} ${s.direction}`
          : `${ident(sortName(s.field)).text} ${s.direction} nulls last`,
      )
      .join(', '),
  );
  const pageColumns = raw(shown.map((f) => `p.${ident(f).text}`).join(', '));
  const plain = raw(shown.map((f) => ident(f).text).join(', '));
  const few = q`(select count(*) from m) <= ${exactUpTo}`;
  const share = q`(select share from sh)`;
  const test = plan.search.test;
  // A term most rows match (the sampled share at least LIST_SEARCH_WALK_FROM): the list is read in its own order
  // and each row tested until LIST_SEARCH_EXACT_UP_TO + 1 match, over at most LIST_SEARCH_WALK_ROWS rows (about
  // 1 / share rows a match); the index would build its whole set of matches first (half the rows: 100-160 ms at
  // 1,000,000). The listed matches are then the list's first. A walk that finds too few gives way to the index.
  // Only the branch chosen runs (its condition is evaluated once, before it).
  // A smaller sample first (when the plan has one): a term it finds rare (its share below a quarter of
  // LIST_SEARCH_WALK_FROM; a term at the threshold is found rare so in about 1e-5 of samples of 200) goes to the index
  // without reading the larger sample, which is then read only for the estimate of a term with many matches.
  const screen = plan.search.screen;
  const rare = screen ? q`(select share from sc) < ${LIST_SEARCH_WALK_FROM / 4}` : q`false`;
  const scan = plan.search.scan;
  const unsearched = q`(select n from u)`;
  // A term many rows match, where the list cannot be walked but the search index's rows can be read in the order
  // of an ordinary index (`scan`: contacts' documents by key): they are read and tested until
  // LIST_SEARCH_EXACT_UP_TO + 1 match, over at most LIST_SEARCH_SCAN_ROWS rows (about 1 / share rows a match), when
  // the sampled share is at least LIST_SEARCH_SCAN_FROM and the estimate at least LIST_SEARCH_SCAN_MATCHES; the
  // search index would build its whole set of matches first (46,500 at 1,000,000 contacts), or the planner would
  // read the table whole in its heap order outside the shared buffers. A read that finds too few gives way to the
  // index (the total exact); a term the smaller sample finds rare goes to the index without the larger sample.
  const scarce = screen ? q`(select share from sc) < ${LIST_SEARCH_SCAN_FROM / 4}` : q`false`;
  const many = q`not ${scarce} and ${share} >= ${LIST_SEARCH_SCAN_FROM}
    and ${share} * ${unsearched} >= ${LIST_SEARCH_SCAN_MATCHES}`;
  const matched =
    plan.walkOrder && test
      ? q`${screen ? q`sc as materialized (${screen}),` : raw('')}
      w as materialized (select key from (select ${bound.sqlKey} as key, (${test}) as hit from ${bound.sqlSource}
        where ${where} order by ${plan.walkOrder} limit ${LIST_SEARCH_WALK_ROWS}) r where hit limit ${exactUpTo + 1}),
      m as materialized (
        (select key from w where not ${rare} and ${share} >= ${LIST_SEARCH_WALK_FROM} and (select count(*) from w) > ${exactUpTo})
        union all
        (select key from (${plan.search.keys}) k
          where ${rare} or ${share} < ${LIST_SEARCH_WALK_FROM} or (select count(*) from w) <= ${exactUpTo} limit ${exactUpTo + 1})),`
      : scan
        ? q`${screen ? q`sc as materialized (${screen}),` : raw('')}
      s as materialized (select key from (${scan} limit ${LIST_SEARCH_SCAN_ROWS}) r where hit limit ${exactUpTo + 1}),
      m as materialized (
        (select key from s where ${many} and (select count(*) from s) > ${exactUpTo})
        union all
        (select key from (${plan.search.keys}) k
          where not (${many}) or (select count(*) from s) <= ${exactUpTo} limit ${exactUpTo + 1})),`
        : q`m as materialized (select key from (${plan.search.keys}) k limit ${exactUpTo + 1}),`;
  // A list searched through its derived trigram index (its plan can test a row: `test`) is kept prepared per
  // connection (decision 0197): its planning (the source named in every branch, each time with its list indexes)
  // cost as much as a rare term's run, and the branches are chosen at run time by one-time filters, so one generic
  // plan serves every term of the shape. A list read through a search index of its own (`scan`: contacts'
  // documents) is planned for its terms: its generic plan read the documents whole instead of through their
  // trigram index (120 ms for a rare term at 100,000 contacts on PGlite, against 5 ms).
  const statement = q`with u as materialized (${unsearchedCount}), sh as materialized (${plan.search.share}),
    ${matched}
    f as materialized (
      select ${fRows} from ${bound.sqlSource}
      where ${where} and ${bound.sqlKey} in (select key from m limit ${exactUpTo})),
    t as (select case when ${few} then (select count(*) from f)
        else greatest(${exactUpTo + 1}, round(${share} * ${unsearched}))
      end as n, not ${few} as e),
    p as (select ${plain}, row_number() over (order by ${order}) as ${ident(SEARCH_PLACE)}
      from (select * from f order by ${order} limit ${plan.limit} offset ${plan.offset}) page)
    select ${pageColumns}, t.n as ${ident(SEARCH_TOTAL)}, t.e as ${ident(SEARCH_ESTIMATED)}
    from t left join p on true order by p.${ident(SEARCH_PLACE)}`;
  return test && !scan ? kept(statement) : statement;
}

/** The page's rows of a searched page's statement, without the columns it adds; and its total. */
export function searchPageRows(rows: Row[]): { rows: Row[]; total: number; estimated: boolean } {
  const first = rows[0];
  const total = Number(first?.[SEARCH_TOTAL] ?? 0);
  const estimated = first?.[SEARCH_ESTIMATED] === true;
  const page: Row[] = [];
  for (const row of rows) {
    const { [SEARCH_TOTAL]: _t, [SEARCH_ESTIMATED]: _e, ...rest } = row;
    // The row of the total alone, when the page is empty: every field null.
    if (Object.values(rest).every((v) => v === null)) continue;
    page.push(rest);
  }
  return { rows: page, total, estimated };
}

/** From this offset on, a page is read through its keys first (a deferred join). */
export const DEFERRED_JOIN_FROM = 1000;

/** The statement of the exact number of rows: one row, its `n`. */
export function countStatement(
  bound: BoundResource,
  tenantId: string,
  where: Fragment | undefined,
): Fragment {
  return q`select count(*) as n from ${bound.sqlSource} where ${scoped(bound, tenantId, where)}`;
}

export async function countRows(
  tx: Tx,
  bound: BoundResource,
  tenantId: string,
  where: Fragment | undefined,
): Promise<number> {
  const [r] = await runFragment<{ n: unknown }>(tx, countStatement(bound, tenantId, where));
  return Number(r?.n ?? 0);
}

function byKey(bound: BoundResource, tenantId: string, key: unknown): SQL | undefined {
  return and(eq(bound.tenantColumn, tenantId), eq(bound.keyColumn, key));
}

/** The whole row by key (every property, so JSON-document fields can be read too). */
export async function findRow(
  tx: Tx,
  bound: BoundResource,
  tenantId: string,
  key: unknown,
): Promise<Row | undefined> {
  const [row] = await tx
    .select(bound.properties)
    .from(bound.source as PgTable)
    .where(byKey(bound, tenantId, key))
    .limit(1);
  return row;
}

export async function insertRow(tx: Tx, bound: BoundResource, values: Row): Promise<Row> {
  const [row] = await tx
    .insert(bound.source as PgTable)
    .values(values as never)
    .returning();
  if (!row) throw new Error('insert returned nothing');
  return row as Row;
}

/**
 * Updates one record; with `version`, only while the record is still at that version (a concurrent save that
 * committed first moved it on, and this one then updates nothing). The version itself moves on by trigger.
 */
export async function updateRow(
  tx: Tx,
  bound: BoundResource,
  tenantId: string,
  key: unknown,
  values: Row,
  version?: number,
): Promise<Row | undefined> {
  const guard =
    version !== undefined && bound.versionColumn
      ? and(byKey(bound, tenantId, key), eq(bound.versionColumn, version))
      : byKey(bound, tenantId, key);
  const [row] = await tx
    .update(bound.source as PgTable)
    .set(values as never)
    .where(guard)
    .returning();
  return row as Row | undefined;
}
