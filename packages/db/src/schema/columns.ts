import {
  columnOf,
  listIndexes,
  listSearchExpression,
  listSearchIndex,
  type ResourceDeclaration,
} from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  type IndexBuilder,
  index,
  integer,
  type PgColumn,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

/** Every tenant-owned table starts with this column and puts it first in its primary key. */
export const tenantId = () => uuid('tenant_id').notNull();
/**
 * A record id numbered per association: drawn from the tenant's own sequence of the table (`gh_next_id`, decision
 * 0071), never from one sequence all tenants share, so an id says nothing of what other associations create.
 */
export const tenantSerial = (name: string, table: string) =>
  bigint(name, { mode: 'number' })
    .notNull()
    .default(sql.raw(`gh_next_id('${table}')`));
export const createdAt = () =>
  timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const nowSql = sql`now()`;

/**
 * The version of a record the generic screens edit (optimistic concurrency, decision 0095): 1 when inserted, one
 * more at every update whoever makes it (a trigger, `gh_enable_record_version`). A save naming an older version
 * answers 409 instead of overwriting what another user saved.
 */
export const recordVersion = () => integer('version').notNull().default(1);

/**
 * The indexes of a resource's lists (decision 0100), as Drizzle indexes of its table: tenant first, then the fields
 * `listIndexes` derives from the declaration, partial on the live rows when the resource soft-deletes. Named
 * `<table>_by_<columns>` without the key, which every one of them ends with.
 */
export function resourceListIndexes(
  name: string,
  columns: Record<string, PgColumn>,
  resource: ResourceDeclaration,
  parentFields: readonly string[] = [],
): IndexBuilder[] {
  const columnOfField = (field: string) => {
    const column = columns[columnOf(resource, field)];
    if (!column) throw new Error(`${name}: the list field ${field} has no column`);
    return column;
  };
  const tenant = columns.tenantId;
  if (!tenant) throw new Error(`${name}: no tenant_id`);
  const live = resource.softDelete ? columnOfField(resource.softDelete.deleted) : undefined;
  const partial = (built: IndexBuilder) => (live ? built.where(sql.raw(`not ${live.name}`)) : built);
  // The list sorted by the key with no filter is read through the primary key (tenant_id, key): an index of the key
  // alone is declared only as the partial index of a soft-deleting resource's live rows, never as a second copy of
  // the primary key that every insert would write twice (decision 0182).
  const copiesPrimaryKey = (fields: readonly string[]) =>
    !live && fields.length === 1 && fields[0] === resource.key;
  const ordered = listIndexes(resource, parentFields)
    .filter((ix) => !copiesPrimaryKey(ix.fields))
    .map((ix) => {
      const cols = ix.fields.map(columnOfField);
      const shown = cols.filter((c) => c !== columnOfField(resource.key)).map((c) => c.name);
      return partial(index(`${name}_by_${shown.length > 0 ? shown.join('_') : 'key'}`).on(tenant, ...cols));
    });
  const search = listSearchIndex(resource);
  if (!search) return ordered;
  // The search box's trigram index (decision 0102): the same expression the server's list search reads.
  const joined = sql.raw(listSearchExpression(search.fields.map((f) => `"${columnOfField(f).name}"`)));
  return [...ordered, partial(index(`${name}_search_trgm`).using('gin', sql`${joined} gin_trgm_ops`))];
}
