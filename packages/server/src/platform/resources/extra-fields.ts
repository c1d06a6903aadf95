/**
 * Fields a tenant adds to a resource at run time (custom fields, decision 0111): a feature that keeps them says how
 * the generic list reads, sorts, filters and exports each one, and the list engine plans them beside the declared
 * fields. platform/ knows only this shape; the custom-fields feature provides it (`listFields` in its module) for
 * every resource that opts in (`customFields` in the declaration). Decision 0112.
 */
import { type Fragment, q, type Raw, runFragment, type Tx } from '@guildhall/db';
import type {
  CustomField,
  FieldDeclaration,
  FilterCriterion,
  ListQuery,
  ListRequest,
  TenantSettings,
} from '@guildhall/shared';
import type { BoundResource } from './registry.ts';

/**
 * One run of rows of a page sorted by an extra field, in the sort's order: the rows of the source that `join` (an
 * inner join on the source's row) and `where` keep, ordered by `order`. A sorted page is the runs one after the
 * other (UNION ALL, read in order and stopped once the page is full), so each run walks an index in its order:
 * the values of a date in date order, the records of one choice after another, then the records with no value.
 */
export interface SortRun {
  join?: Fragment;
  where?: Fragment;
  order: Fragment;
  /**
   * The run's keys alone (as `gh_page_key`), in its order, read from the extra field's own index without the
   * source's rows: only for a list that keeps every live record (no search, no draft, no condition but on extra
   * fields, which `where` tests by the key), since a record keeps values only while it lives (decision 0111). A
   * deep page then skips over index entries, not over records.
   */
  keys?: (tenantId: string, where?: (row: KeyRow) => Fragment) => Fragment;
  /**
   * The run of the records without a value: `valued` is the number of records with one (a scalar read from kept
   * counts). When the list's live records number no more than that, every record has a value and the run is not
   * read at all (it would walk every record to find none).
   */
  withoutValue?: { valued: (tenantId: string) => Fragment };
}

/** A record named by its key alone (a run reading keys from an index): its tenant and key expressions. */
export interface KeyRow {
  tenant: Raw;
  key: Raw;
  /** The tenant as a value, for a condition that must not refer to the row (a hashed set, mode `hash`). */
  tenantId?: string;
}

/**
 * How a page tests an extra field's criterion: `set` reads the matches as a set (the total); `probe` tests each row
 * as an index yields it (a shallow page, which stops after a few rows); `hash` tests each key an index yields
 * against a hash of every match, built once (a deep page, where probing would cost one index read per key walked).
 */
export type ExtraFilterMode = 'set' | 'probe' | 'hash';

export interface ExtraListField {
  /** The name a list request uses (ColumnsToShow, $orderby, a criterion's PropertyName): `cf_12`. */
  field: string;
  /** The field as a column shows and the advanced filter reads it (label, type, choices). */
  declaration: FieldDeclaration;
  /**
   * The record of the scope resource the field belongs to (`customFields.scope`: one event's registration question),
   * absent for a field of every record. A list pinned to one scope record offers only its fields and those of none.
   */
  scope?: number;
  /** The column's type for the web's cell (`text` for a value the server answers as its display text). */
  columnType: string;
  /** The value of the source's row (a correlated scalar select). */
  value: Fragment;
  /** The value read for a page as the client shows it (a choice id as its name). */
  decode?: (value: unknown) => unknown;
  /** The value as the text of an export's cell. */
  exportText: Fragment;
  /** A sortable field's value in sort order (a choice's place in the list), for a sort done in memory. */
  sortValue?: Fragment;
  /** A sortable field's runs in the direction asked (decision 0112); undefined when it cannot be sorted. */
  sortRuns?: (direction: 'asc' | 'desc') => SortRun[];
  /**
   * A page whose only condition is one criterion on another extra field and sorted by this one (decision 0196): the
   * runs a structure the feature keeps for that pair reads (the filter's records already in this field's order, so
   * `keys` ignores the filter it is given), and the writes the page makes to ask for the structure or to say it is
   * still used (`asks`: items of the page statement's WITH, `gh_ask… as (insert …)`, data-modifying, so they run
   * though nothing reads them). Null, or no runs, where the page is read as without it.
   */
  filteredSort?: (
    direction: 'asc' | 'desc',
    criterion: FilterCriterion,
  ) => { runs?: SortRun[]; asks?: Fragment[] } | null;
  /**
   * A filterable field's condition on the source's row; throws an HttpError (400) for a criterion it refuses.
   * `set` is for the total (the matching rows as a set, read from the value's index); `probe` is for a page read
   * in an index's order (each row tested as it comes, so a page stops after its rows). With `row`, the condition
   * is on that key instead of the source's row (a run reading keys from an index, SortRun.keys); `hash` needs `row`
   * with its `tenantId`.
   */
  filter?: (c: FilterCriterion, mode: ExtraFilterMode, row?: KeyRow) => Fragment;
  /**
   * The number of records a criterion keeps, as a scalar subquery read from the field's own index (no join to the
   * records), or null when it cannot be counted that way (a negative condition such as isEmpty). Only for a source
   * whose values belong to live records alone (a deleted record loses its values): the list then uses it as the
   * total of a request whose only criterion is this field, with no search (decision 0112). With `atMost`, a count
   * read from the index may stop there (a page choosing how to read needs no more); a kept count is exact.
   */
  count?: (c: FilterCriterion, tenantId: string, atMost?: Fragment) => Fragment | null;
  /**
   * The keys of the records a positive criterion keeps (`select … as gh_match_key`, one row a record), read from the
   * field's own index, for a criterion whose count is read from the values too (not from kept counts); null
   * otherwise. A page filtered by this criterion alone reads them once (MATERIALIZED): their number is its total
   * and the filter's share, and its filter tests a key against them (decision 0112's amendment of 0192).
   */
  matches?: (c: FilterCriterion, tenantId: string) => Fragment | null;
}

/**
 * The extra fields of a resource for one tenant: the statement that reads their definitions, and the fields made of
 * its rows. A statement, so that a list naming none of them reads the definitions (for its columns) in the same
 * round trip as its page.
 */
export interface ExtraFieldsSource {
  statement(tenantId: string): Fragment;
  fields(rows: Record<string, unknown>[], tenantId: string): ExtraListField[];
  /**
   * A record of the resource was deleted (or voided): the feature drops what it keeps for it, in the delete's
   * transaction (a deleted contact loses its custom values, decision 0111). The generic delete calls it, so a
   * single delete and a bulk delete do alike.
   */
  recordDeleted?(tx: Tx, tenantId: string, key: unknown): Promise<void>;
  /**
   * A duplicate was merged into the record kept (the feature that merges calls it in its transaction): the kept
   * record keeps its own values and takes the duplicate's where it has none, the duplicate's are dropped. Answers
   * the duplicate's values that differed from the kept record's, as "Name: value" lines for the kept record's notes.
   */
  recordsMerged?(tx: Tx, tenantId: string, keepKey: unknown, goneKey: unknown): Promise<string[]>;
  /**
   * What the records' search documents hold of these fields (global search, decision 0111): for each key, the texts
   * staff search by, and those members may search by in the directory (never a value members may not read).
   */
  searchTexts?(tx: Tx, tenantId: string, keys: readonly number[]): Promise<Map<number, ExtraSearchText>>;
  /**
   * The fields a record publishes in the member directory, as their names and texts, by key: only those the
   * association publishes there and members may read.
   */
  published?(tx: Tx, tenantId: string, keys: readonly number[]): Promise<Map<number, PublishedField[]>>;
  /**
   * These fields asked on another feature's own form of the records (an event registration's questions): the
   * fields to show, the answers checked as every write path checks them, and written for a record it has made.
   */
  answers?: ExtraAnswers;
  /** How an import fills these fields of the records it writes (the contacts CSV import), for one tenant. */
  importer?(tx: Tx, tenantId: string, settings: TenantSettings): Promise<ExtraImport>;
}

/** Who answers: staff (every field) or a member or the public (only fields members may edit). */
export type AnswerAudience = 'staff' | 'member';

export interface ExtraAnswers {
  /**
   * The fields the audience fills in, in form order (pages and branches as on any custom-field form): those it may
   * edit, and the section headings of the layout.
   */
  fields(tx: Tx, tenantId: string, audience: AnswerAudience, scope?: number): Promise<CustomField[]>;
  /**
   * (`scope`: for a resource whose fields may belong to one record of another, the record the new one belongs to,
   * such as the event of a registration: its fields and those of no scope are asked, no other record's.)
   * Checks answers keyed by field id ({ "12": "Vegan" }, a choice by its id or name) for a new record: each by its
   * field's type, a field the audience may not edit (or of another entity) refused, the required fields of the pages
   * the answers go through asked. The errors are keyed by list name (`cf_12`).
   */
  check(
    tx: Tx,
    tenantId: string,
    input: Record<string, unknown>,
    audience: AnswerAudience,
    scope?: number,
  ): Promise<{ values: Record<string, unknown> } | { errors: Record<string, string[]> }>;
  /** Stores checked values for a record of the resource (the caller's transaction). */
  write(tx: Tx, tenantId: string, key: number, values: Record<string, unknown>): Promise<void>;
}

export interface ExtraSearchText {
  staff: string[];
  member: string[];
}

export interface PublishedField {
  Name: string;
  Value: string;
}

/** The extra fields an import can fill: each cell checked as a form's value is, then written with its record. */
export interface ExtraImport {
  /** The fields a column can fill: their list name (`cf_12`) and label. */
  fields: { Id: string; Name: string }[];
  /**
   * A cell's text as the field's value, checked by the field's type as every write path checks it, or the reason
   * it is refused (naming the field). An empty cell is no value: the record keeps what it has.
   */
  parse(field: string, text: string): { value: unknown } | { error: string };
  /** Writes parsed values of records (by key), in the import's transaction, a few statements for the batch. */
  write(
    tx: Tx,
    tenantId: string,
    records: { key: unknown; values: Record<string, unknown> }[],
  ): Promise<void>;
}

export type ExtraFields = ReadonlyMap<string, ExtraListField>;

export const NO_EXTRA_FIELDS: ExtraFields = new Map();

export function extraFieldsOfRows(
  bound: BoundResource,
  rows: Record<string, unknown>[] | undefined,
  tenantId: string,
): ExtraFields {
  if (!bound.extraFields || !rows) return NO_EXTRA_FIELDS;
  return new Map(bound.extraFields.fields(rows, tenantId).map((f) => [f.field, f]));
}

/** The extra fields of a resource for a tenant (none when no feature provides them). */
export async function extraFieldsOf(tx: Tx, tenantId: string, bound: BoundResource): Promise<ExtraFields> {
  if (!bound.extraFields) return NO_EXTRA_FIELDS;
  return extraFieldsOfRows(bound, await runFragment(tx, bound.extraFields.statement(tenantId)), tenantId);
}

/** Whether a list request names a field the resource does not declare: its plan needs the extra fields first. */
export function namesExtraFields(bound: BoundResource, query: ListQuery, body: ListRequest): boolean {
  if (!bound.extraFields) return false;
  const { fields } = bound.resource;
  const named = [
    ...(body.ColumnsToShow ?? []),
    ...(body.Criteria ?? []).map((c) => c.PropertyName),
    ...(query.$orderby ?? '')
      .split(',')
      .map((p) => p.trim().split(/\s+/)[0] ?? '')
      .filter((f) => f !== ''),
  ];
  return named.some((f) => !(f in fields));
}

/**
 * The exact total of a list whose only condition is one criterion on an extra field that counts itself (no search,
 * no drafts that expire by time): that field's count. Null where the list must count its rows.
 */
export function extraCountStatement(
  bound: BoundResource,
  tenantId: string,
  list: { criteria: readonly FilterCriterion[]; search: string },
  extra: ExtraFields,
): Fragment | null {
  const [only] = list.criteria;
  if (list.search !== '' || list.criteria.length !== 1 || !only || bound.properties.isDraft) return null;
  if (only.PropertyName in bound.resource.fields) return null;
  const counted = extra.get(only.PropertyName)?.count?.(only, tenantId);
  return counted ? q`select ${counted} as n` : null;
}
