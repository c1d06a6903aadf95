/**
 * The renewal run screen's runs: one row per run (started by staff, or by the daily schedule), the job that does
 * the work (memberships.billing.ts `runRenewals`, then the reminders due), its live progress (the renewal invoices
 * made since it started) and its results.
 */
import {
  type Database,
  membershipRenewalRuns,
  q,
  raw,
  runFragment,
  type Tx,
  withTenantTx,
} from '@guildhall/db';
import { type RenewalRun, type RenewalRunDetail, todayIn } from '@guildhall/shared';
import { and, eq } from 'drizzle-orm';
import type { AuthContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import type { ClaimedJob } from '../../platform/jobs.ts';
import type { Services } from '../../platform/services.ts';
import { RENEWAL_JOB, runRenewals } from './memberships.billing.ts';
import { sendRenewalReminders } from './memberships.reminders.ts';
import * as repo from './memberships.repo.ts';

/** Starts a run: its row, and the job that does it (after this transaction commits). */
export async function startRun(tx: Tx, services: Services, auth: AuthContext): Promise<RenewalRun> {
  const today = todayIn(await repo.tenantTimezone(tx, auth.tenantId));
  const [row] = await tx
    .insert(membershipRenewalRuns)
    .values({
      tenantId: auth.tenantId,
      runDay: today,
      startedBy: await repo.userLabel(tx, auth.impersonatorUserId ?? auth.userId),
    })
    .returning();
  if (!row) throw new Error('renewal run insert returned nothing');
  await services.jobs.enqueue(tx, {
    tenantId: auth.tenantId,
    kind: RENEWAL_JOB,
    payload: { runId: row.runId },
    userId: auth.userId,
  });
  return (await runs(tx, auth.tenantId, row.runId))[0] as RenewalRun;
}

interface RunRow {
  run_id: number | string;
  status: RenewalRun['Status'];
  run_day: string;
  started_by: string | null;
  started_at: string;
  finished_at: string | null;
  invoiced: number | string;
  charged: number | string;
  moved: number | string;
  reminded: number | string;
  error: string | null;
}

const isoOf = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The latest runs (or one), newest first; a running run counts the renewal invoices made so far. */
export async function runs(tx: Tx, tenantId: string, runId?: number): Promise<RenewalRun[]> {
  const found = await runFragment<RunRow>(
    tx,
    q`select r.run_id, r.status, r.run_day::text as run_day, r.started_by,
        ${raw(isoOf('r.started_at'))} as started_at, ${raw(isoOf('r.finished_at'))} as finished_at,
        case when r.status = 'running' then (select count(*) from membership_invoices i
          where i.tenant_id = r.tenant_id and i.run_id = r.run_id)
          else r.invoiced end as invoiced,
        r.charged, r.moved, r.reminded, r.error
      from membership_renewal_runs r
      where r.tenant_id = ${tenantId} ${runId === undefined ? q`` : q`and r.run_id = ${runId}`}
      order by r.run_id desc limit 20`,
  );
  return found.map((r) => ({
    RunId: Number(r.run_id),
    Status: r.status,
    RunDay: r.run_day,
    StartedBy: r.started_by,
    StartedAt: r.started_at,
    FinishedAt: r.finished_at,
    Invoiced: Number(r.invoiced),
    Charged: Number(r.charged),
    Moved: Number(r.moved),
    Reminded: Number(r.reminded),
    Error: r.error,
  }));
}

/** A run with the renewal invoices it made (each row keeps the id of the run that made it). */
export async function runDetail(tx: Tx, tenantId: string, runId: number): Promise<RenewalRunDetail> {
  const [run] = await runs(tx, tenantId, runId);
  if (!run) throw notFound();
  const invoices = await runFragment<{
    membership_id: number | string;
    contact_name: string;
    name: string;
    term_start: string;
    term_end: string;
    invoice_id: number | string | null;
    amount: number | string;
    state: string;
  }>(
    tx,
    q`select i.membership_id, m.contact_name, m.name, i.term_start::text as term_start, i.term_end::text as term_end,
        i.invoice_id, i.amount, i.state
      from membership_invoices i
      join memberships m on m.tenant_id = i.tenant_id and m.membership_id = i.membership_id
      where i.tenant_id = ${tenantId} and i.run_id = ${runId}
      order by i.membership_invoice_id limit 500`,
  );
  return {
    Run: run,
    Invoices: invoices.map((i) => ({
      MembershipId: Number(i.membership_id),
      ContactName: i.contact_name,
      Name: i.name,
      TermStart: i.term_start,
      TermEnd: i.term_end,
      InvoiceId: i.invoice_id === null ? null : Number(i.invoice_id),
      Amount: Number(i.amount),
      State: i.state,
    })),
  };
}

/**
 * The renewal job: the run (renewal invoices, autopay charges, grace and lapse), then the reminders due; its row
 * (when started from the screen) records the results, or the failure.
 */
export const renewalJob = (services: Services) => async (database: Database, job: ClaimedJob) => {
  const runId = Number(job.payload.runId);
  const hasRow = Number.isSafeInteger(runId) && runId > 0;
  const finish = (set: Partial<typeof membershipRenewalRuns.$inferInsert>) =>
    hasRow
      ? withTenantTx(database.db, { tenantId: job.tenantId }, (tx) =>
          tx
            .update(membershipRenewalRuns)
            .set({ ...set, finishedAt: new Date() })
            .where(
              and(eq(membershipRenewalRuns.tenantId, job.tenantId), eq(membershipRenewalRuns.runId, runId)),
            ),
        )
      : Promise.resolve();
  try {
    const result = await runRenewals(database, services, job.tenantId, hasRow ? runId : null);
    const reminded = await sendRenewalReminders(database, services, job.tenantId);
    await finish({ status: 'done', ...result, reminded });
  } catch (error) {
    await finish({ status: 'failed', error: error instanceof Error ? error.message : String(error) });
    throw error;
  }
};
