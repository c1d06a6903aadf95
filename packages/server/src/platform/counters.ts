/**
 * Per-tenant counters (table tenant_counters): the next number of a named counter of the transaction's tenant.
 * The update's row lock serialises parallel writers, so each draws its own number; a counter's first use starts it
 * from `start()` (the highest number already in use, say), and two first uses at once are told apart by the insert's
 * conflict, which turns the second into an increment.
 */
import { type Fragment, q, runFragment, type Tx } from '@guildhall/db';

export async function nextCounterValue(
  tx: Tx,
  tenantId: string,
  name: string,
  start: Fragment = q`select 0`,
): Promise<number> {
  const [bumped] = await runFragment<{ value: unknown }>(
    tx,
    q`update tenant_counters set value = value + 1 where tenant_id = ${tenantId} and name = ${name} returning value`,
  );
  if (bumped) return Number(bumped.value);
  const [first] = await runFragment<{ value: unknown }>(
    tx,
    q`insert into tenant_counters (tenant_id, name, value)
      select ${tenantId}::uuid, ${name}, coalesce((${start}), 0) + 1
      on conflict (tenant_id, name) do update set value = tenant_counters.value + 1 returning value`,
  );
  if (!first) throw new Error(`counter ${name} did not answer`);
  return Number(first.value);
}

/** The next `count` numbers of a named counter, drawn together (one statement): a bulk write numbers its rows. */
export async function nextCounterValues(
  tx: Tx,
  tenantId: string,
  name: string,
  count: number,
  start: Fragment = q`select 0`,
): Promise<number[]> {
  if (count <= 0) return [];
  const [bumped] = await runFragment<{ value: unknown }>(
    tx,
    q`update tenant_counters set value = value + ${count} where tenant_id = ${tenantId} and name = ${name} returning value`,
  );
  const last = bumped
    ? Number(bumped.value)
    : Number(
        (
          await runFragment<{ value: unknown }>(
            tx,
            q`insert into tenant_counters (tenant_id, name, value)
              select ${tenantId}::uuid, ${name}, coalesce((${start}), 0) + ${count}
              on conflict (tenant_id, name) do update set value = tenant_counters.value + ${count} returning value`,
          )
        )[0]?.value,
      );
  if (!Number.isFinite(last)) throw new Error(`counter ${name} did not answer`);
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}
