/**
 * Named queries as data (spec 001 sections 2 and 4, the developer query tool): a query is declared in a
 * `*.query.ts` file of shared (name, description, group, SQL with named, typed parameters), discovered by the
 * server at start-up and listed by the tool. The SQL reads the query views (`gh_query.*`) and names its parameters
 * `:name` (`:name_start` and `:name_end` for a date range). Every query, shipped or written by an association,
 * passes the same guard before it runs (decision 0170).
 */

export const QUERY_PARAMETER_TYPES = ['text', 'number', 'date', 'dateRange', 'select'] as const;
export type QueryParameterType = (typeof QUERY_PARAMETER_TYPES)[number];

/** An option of a select parameter: "Options (pairs of Key and Value)", as merge field parameters have them. */
export interface QueryOption {
  Key: string;
  Value: string;
}

export interface QueryParameter {
  /** The name the SQL uses after a colon (`:status`) and the form field's name. */
  name: string;
  label: string;
  type: QueryParameterType;
  /** A required parameter must be given; an optional one is null when left empty. */
  required?: boolean;
  /** Default value as the form would send it (a date range: its option id, e.g. "30" for next month). */
  default?: string;
  /** A select's fixed options. */
  options?: readonly QueryOption[];
  /**
   * A select's options read from the database: SQL over the query views answering `key` and `value` columns
   * (passes the same guard). Used instead of `options`.
   */
  lookup?: string;
}

export interface QueryDeclaration {
  readonly kind: 'query';
  /** Unique, dotted: `contacts.withoutEmail`. */
  name: string;
  title: string;
  description: string;
  /** Heading the list groups it under (Contacts, Memberships, Billing, Events, …). */
  group: string;
  sql: string;
  parameters: readonly QueryParameter[];
}

export function defineQuery(input: Omit<QueryDeclaration, 'kind'>): QueryDeclaration {
  return { ...input, kind: 'query' };
}

export function isQuery(value: unknown): value is QueryDeclaration {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'query';
}
