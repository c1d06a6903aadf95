/**
 * A counted list's total from the counts its table's triggers keep (decision 0103): for no filter, or one criterion
 * on a counted facet (`listCountRead`), the sum of that value's rows of changes in `list_counts` instead of a
 * `count(*)` that grows with the table. Null where only `count(*)` can answer (a search, several criteria, another
 * field, drafts that expire by time).
 */
import { type Database, type Fragment, joinFragments, q, runFragment, withTenantTx } from '@guildhall/db';
import { type FilterCriterion, listCountRead } from '@guildhall/shared';
import type { JobHandler } from '../jobs.ts';
import type { BoundResource } from './registry.ts';

/** The rows of changes of one table, facet and values, summed. */
function summed(tenantId: string, table: string, facet: string, values: readonly string[]): Fragment {
  return q`(select coalesce(sum(n), 0) from list_counts where tenant_id = ${tenantId} and table_name = ${table}
    and facet = ${facet} and value in (${joinFragments(
      values.map((v) => q`${v}`),
      ', ',
    )}))`;
}

/** The statement of a counted list's exact total (one row, `n`), or null when the counts cannot answer it. */
export function keptCountStatement(
  bound: BoundResource,
  tenantId: string,
  list: { criteria: readonly FilterCriterion[]; search: string },
): Fragment | null {
  if (list.search !== '' || !bound.isTable || bound.properties.isDraft) return null;
  const read = listCountRead(bound.resource, list.criteria);
  if (!read) return null;
  const table = bound.resource.table;
  const total = summed(tenantId, table, '', ['']);
  if (read.facet === '') return q`select ${total} as n`;
  const column = bound.columns[read.facet]?.name;
  if (!column) return null;
  if (!read.minus) return q`select ${summed(tenantId, table, column, read.values)} as n`;
  // `<>` matches no row without a value: those are taken off with the values named.
  return q`select ${total} - ${summed(tenantId, table, column, [...read.values, ''])} as n`;
}

/** The daily job that folds an association's rows of changes into one row per table, facet and value. */
export const LIST_COUNTS_FOLD_JOB = 'list-counts-fold';

export const listCountsFoldHandler: JobHandler = async (database: Database, job) => {
  await withTenantTx(database.db, { tenantId: job.tenantId }, (tx) =>
    runFragment(tx, q`select gh_list_counts_fold(${job.tenantId}::uuid)`),
  );
};
