/**
 * Server hooks of a resource: what a declaration in shared cannot do because it needs the database. A feature
 * declares them by resource name in its module (`resourceHooks`); the app sets them on the bound resource
 * (`bound.hooks`) when it assembles, refusing a name no resource has. The generic service calls them inside the same transaction as the write, so derived data (a search index, counters)
 * never drifts from the record.
 */
import type { Fragment, Tx } from '@guildhall/db';
import type { FilterCriterion, Model, SaveExtras, TenantSettings } from '@guildhall/shared';
import type { AuthContext } from '../context.ts';

export type WriteKind = 'create' | 'update' | 'delete' | 'void';

export interface ResourceHooks {
  /**
   * After the model was validated and recalculated, before the business checks: adjust it, refuse it (throw an
   * HttpError or an ErrorValidationError), or ask the user (ErrorValidation YesNo).
   */
  beforeSave?(
    tx: Tx,
    auth: AuthContext,
    model: Model,
    context: { creating: boolean; key: unknown; extras: SaveExtras; settings: TenantSettings },
  ): Promise<Model>;
  /** After every write of a record (create, update, inline edit, delete, void), in the same transaction. */
  afterWrite?(
    tx: Tx,
    auth: AuthContext,
    change: { kind: WriteKind; before: Model | null; after: Model },
  ): Promise<void>;
  /**
   * The exact number of rows a list shows, when the resource knows a cheaper way than count(*) (a counter kept
   * in the write transaction): a statement whose first row's `n` is that number. Null falls back to count(*).
   * Never an estimate. It travels with the page's statement in one round trip.
   */
  countStatement?(tenantId: string, list: { criteria: FilterCriterion[]; search: string }): Fragment | null;
  /**
   * The list's search box through a search index, when the resource has a better one than the generic ILIKE over
   * its search fields (contacts: the global search index); null keeps the generic one (decision 0101).
   */
  searchIndex?(text: string): SearchIndexPlan | null;
}

/** How a list search box reads a search index: its matches, and how often it matches. */
export interface SearchIndexPlan {
  /** The keys of the matching rows, read through the index: `select <key> as key from …`, in no order. */
  keys: Fragment;
  /** The share of the tenant's rows that match (0 to 1), from a sample: one row, `share`. */
  share: Fragment;
  /**
   * The share from a smaller sample (one row, `share`), read first when the list may be walked (`test`): when it
   * says the term is rare, `share` is not read at all (decision 0101's amendment).
   */
  screen?: Fragment;
  /**
   * The same match as a condition on the source's row, when there is one: a term most rows match is then found by
   * reading the list in its order and testing each row (decision 0101's amendment), not through the index.
   */
  test?: Fragment;
  /**
   * The rows the search index covers in the order of one of their ordinary indexes, each with whether it matches:
   * `select <key> as key, (<match>) as hit from … order by …`, the match in the select list so the search index
   * cannot serve it. A term many rows match is found by reading them in that order until LIST_SEARCH_EXACT_UP_TO + 1
   * match (decision 0101's second amendment): the search index builds its whole set of matches first.
   */
  scan?: Fragment;
}
