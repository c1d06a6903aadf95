/**
 * Plans a statement as the application role against an empty copy of one table that holds only one of its indexes
 * and its tenant policy (a temporary table of the same name comes first on the search path): the planner then reads
 * that index unless the statement's condition cannot reach it under row-level security (decision 0102's amendment).
 * The transaction is rolled back: nothing stays.
 */
import { type Database, type Fragment, q, raw, runFragment } from '@guildhall/db';

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Actual Rows'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Every node of a plan, the root first. */
export function planNodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(planNodes)];
}

type OwnerTx = Parameters<Parameters<Database['ownerDb']['transaction']>[0]>[0];

/**
 * The plan `explain` answers (its options: `format json`, with `analyze` to run it) at the end of `prepare`, in a
 * transaction of the owner (the test databases connect as a superuser) that is rolled back: nothing stays.
 */
async function planRolledBack(
  database: Database,
  explain: Fragment,
  prepare: (tx: OwnerTx) => Promise<void>,
): Promise<PlanNode> {
  let plan: PlanNode | undefined;
  const rollback = new Error('rolled back');
  await database.ownerDb
    .transaction(async (tx) => {
      await runFragment(tx, q`reset role`);
      await prepare(tx);
      const [row] = await runFragment<{ 'QUERY PLAN': unknown }>(tx, explain);
      const doc = row?.['QUERY PLAN'];
      plan = ((typeof doc === 'string' ? JSON.parse(doc) : doc) as { Plan: PlanNode }[])[0]?.Plan;
      throw rollback;
    })
    .catch((err: unknown) => {
      if (err !== rollback) throw err;
    });
  if (!plan) throw new Error('no plan');
  return plan;
}

/** The plan of `statement` with `table` holding only `index`, renamed `<index>_alone`. */
export async function planWithIndexAlone(
  database: Database,
  tenantId: string,
  table: string,
  index: string,
  statement: Fragment,
): Promise<PlanNode> {
  return planRolledBack(database, q`explain (format json) ${statement}`, async (tx) => {
    const [found] = await runFragment<{ def: string }>(
      tx,
      q`select pg_get_indexdef(c.oid) as def from pg_class c where c.relname = ${index}`,
    );
    const [policy] = await runFragment<{ qual: string }>(
      tx,
      q`select pg_get_expr(polqual, polrelid) as qual from pg_policy where polrelid = ${table}::regclass limit 1`,
    );
    if (!found || !policy) throw new Error(`${table} has no index ${index} or no policy`);
    const alone = found.def.replace(
      /^CREATE INDEX \S+ ON \S+/,
      `CREATE INDEX "${index}_alone" ON pg_temp."${table}"`,
    );
    for (const statementText of [
      `create temp table "${table}" (like public."${table}") on commit drop`,
      alone,
      `alter table pg_temp."${table}" enable row level security`,
      `alter table pg_temp."${table}" force row level security`,
      `create policy tenant_isolation on pg_temp."${table}" using (${policy.qual})`,
      `grant select on pg_temp."${table}" to guildhall_app`,
      'set local role guildhall_app',
    ])
      await runFragment(tx, q`${raw(statementText)}`);
    await runFragment(
      tx,
      q`select set_config('app.tenant_id', ${tenantId}, true), set_config('enable_seqscan', 'off', true)`,
    );
  });
}

/**
 * The plan of `statement`, run (`explain analyze`) over the table's rows, when the planner may read `table` through
 * `index` only: the table's other indexes are marked not valid in a transaction rolled back after, as the owner (the
 * test databases connect as a superuser). What the index itself reads, whatever a planner would choose on a small
 * table.
 */
export async function planRunWithIndexOnly(
  database: Database,
  tenantId: string,
  table: string,
  index: string,
  statement: Fragment,
): Promise<PlanNode> {
  return planRolledBack(database, q`explain (analyze, format json) ${statement}`, async (tx) => {
    await runFragment(
      tx,
      q`update pg_index set indisvalid = false where indrelid = ${table}::regclass and indexrelid <> ${index}::regclass`,
    );
    await runFragment(
      tx,
      q`select set_config('app.tenant_id', ${tenantId}, true), set_config('enable_seqscan', 'off', true)`,
    );
  });
}
