/** The dashboard's membership counts, in one statement over the status and term-end index. */
import { q, runFragment, type Tx } from '@guildhall/db';
import { addDays, type MembershipCounts, todayIn } from '@guildhall/shared';
import { tenantTimezone } from './memberships.repo.ts';

export async function counts(tx: Tx, tenantId: string): Promise<MembershipCounts> {
  const today = todayIn(await tenantTimezone(tx, tenantId));
  const monthStart = `${today.slice(0, 7)}-01`;
  const in30 = addDays(today, 30);
  const [byStatus, due, lapsed] = await Promise.all([
    runFragment<{ status: string; n: string | number }>(
      tx,
      q`select status, count(*) as n from memberships where tenant_id = ${tenantId} and not is_deleted group by status`,
    ),
    runFragment<{ n: string | number }>(
      tx,
      q`select count(*) as n from memberships where tenant_id = ${tenantId} and not is_deleted
          and status in ('active', 'grace') and term_end between ${today}::date and ${in30}::date`,
    ),
    runFragment<{ n: string | number }>(
      tx,
      q`select count(distinct membership_id) as n from membership_history where tenant_id = ${tenantId}
          and to_status = 'lapsed' and changed_on >= ${monthStart}::date`,
    ),
  ]);
  const ByStatus = byStatus.map((r) => ({ Status: r.status, Count: Number(r.n) }));
  return {
    Active: ByStatus.find((s) => s.Status === 'active')?.Count ?? 0,
    RenewalsDue30: Number(due[0]?.n ?? 0),
    LapsedThisMonth: Number(lapsed[0]?.n ?? 0),
    ByStatus,
  };
}
