/**
 * Saved reports mailed as CSV on a schedule (issue 20, decision 0176): the schedules of a saved report (its owner
 * writes them; whoever sees the report sees them), the staff they may go to, a "send now", and the platform's daily
 * job that sends every schedule due on the association's calendar day once (decision 0181). Each report runs in a
 * transaction opened as its owner, so a private report stays its owner's under row-level security; an owner who
 * lost access to the association stops the schedule with a note.
 */
import { type Database, reportSchedules, rowsOf, type Tx, withTenantTx } from '@guildhall/db';
import {
  DEFAULT_TENANT_SETTINGS,
  type ReportSchedule,
  reportScheduleInputSchema,
  reportScheduleSchema,
  resolveTimeZone,
  savedReportId,
  scheduleDueOn,
  scheduleSummary,
  zonedDate,
} from '@guildhall/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { audit, auditedAnswer } from '../audit.ts';
import { type AuthContext, requireAuth, scope, tenantTx } from '../context.ts';
import { HttpError, notFound } from '../errors.ts';
import type { ClaimedJob, JobHandler } from '../jobs.ts';
import type { Mailer } from '../mailer.ts';
import type { BoundResource } from './registry.ts';
import { checkSavedReportParameters, savedReportCsv } from './reports.routes.ts';

export const REPORT_SCHEDULES_JOB = 'report-schedules';

type Row = typeof reportSchedules.$inferSelect;
interface Person {
  userId: number;
  name: string;
  email: string;
  role: string;
  loginType: string;
  isActive: boolean;
}

/** The association's users (active or not), by id. */
async function people(tx: Tx, tenantId: string): Promise<Map<number, Person>> {
  const rows = rowsOf<Record<string, unknown>>(
    await tx.execute(sql`
      select user_id, display_name, email, role, login_type, is_active
        from user_directory where tenant_id = ${tenantId}`),
  );
  return new Map(
    rows.map((r) => [
      Number(r.user_id),
      {
        userId: Number(r.user_id),
        name: String(r.display_name),
        email: String(r.email),
        role: String(r.role),
        loginType: String(r.login_type),
        isActive: r.is_active === true,
      },
    ]),
  );
}

/** A staff user who may receive a report (and whose schedules run): active staff or administrator. */
const isStaff = (p: Person | undefined): p is Person =>
  Boolean(p?.isActive && p.loginType === 'staff' && (p.role === 'staff' || p.role === 'admin'));

function scheduleOf(row: Row, who: Map<number, Person>): ReportSchedule {
  const s = {
    Frequency: row.frequency,
    Weekday: row.weekday ?? null,
    DayOfMonth: row.dayOfMonth ?? null,
  };
  return {
    ScheduleId: Number(row.scheduleId),
    SavedReportId: Number(row.savedReportId),
    ...s,
    UserIds: row.userIds,
    Addresses: row.addresses,
    Parameters: row.parameters ?? {},
    UserNames: row.userIds.flatMap((id) => {
      const p = who.get(id);
      return p ? [p.name] : [];
    }),
    IsActive: row.isActive,
    LastSentOn: row.lastSentOn ?? null,
    LastOutcome: row.lastOutcome ?? null,
    Note: row.note,
    Summary: scheduleSummary(s),
  };
}

async function schedulesOf(tx: Tx, tenantId: string, savedId: number, scheduleId?: number): Promise<Row[]> {
  return tx
    .select()
    .from(reportSchedules)
    .where(
      and(
        eq(reportSchedules.tenantId, tenantId),
        eq(reportSchedules.savedReportId, savedId),
        ...(scheduleId === undefined ? [] : [eq(reportSchedules.scheduleId, scheduleId)]),
      ),
    )
    .orderBy(reportSchedules.scheduleId);
}

/** The saved report as the caller sees it (row-level security hides another user's private one): owner or 404. */
async function visibleReport(tx: Tx, auth: AuthContext, savedId: number): Promise<{ ownerUserId: number }> {
  const [r] = rowsOf<{ owner_user_id: string | number }>(
    await tx.execute(sql`
      select owner_user_id from saved_reports where tenant_id = ${auth.tenantId} and saved_report_id = ${savedId}`),
  );
  if (!r) throw notFound();
  return { ownerUserId: Number(r.owner_user_id) };
}

async function ownReport(tx: Tx, auth: AuthContext, savedId: number): Promise<void> {
  const { ownerUserId } = await visibleReport(tx, auth, savedId);
  if (ownerUserId !== auth.userId) throw new HttpError(403, 'Only the owner of a report may schedule it.');
}

/** Mails a report's CSV to a schedule's recipients; answers the outcome to record. */
async function mailReport(
  mailer: Mailer,
  tenantId: string,
  schedule: Row,
  report: { title: string; csv: string; rows: number },
  who: Map<number, Person>,
  org: string,
  day: string,
): Promise<string> {
  const to = new Set<string>();
  for (const id of schedule.userIds) {
    const p = who.get(id);
    if (isStaff(p)) to.add(p.email.toLowerCase());
  }
  for (const a of schedule.addresses) to.add(a.toLowerCase());
  if (to.size === 0) return 'Not sent: no recipient is left.';
  const content = Buffer.from(report.csv, 'utf8');
  const filename = `${report.title.replace(/[^\p{L}\p{N} ._-]+/gu, '').trim() || 'report'} ${day}.csv`;
  const summary = scheduleSummary({
    Frequency: schedule.frequency,
    Weekday: schedule.weekday,
    DayOfMonth: schedule.dayOfMonth,
  });
  for (const address of to) {
    await mailer.send(tenantId, {
      to: address,
      subject: `Report: ${report.title} (${day})`,
      text: [
        `${report.title}: ${report.rows} ${report.rows === 1 ? 'row' : 'rows'} on ${day}, attached as CSV.`,
        '',
        `Scheduled in ${org}'s back office (${summary.toLowerCase()}): /a/reports/${savedReportId(Number(schedule.savedReportId))}`,
      ].join('\n'),
      attachments: [{ filename, content, contentType: 'text/csv; charset=utf-8' }],
    });
  }
  return `Sent to ${to.size} ${to.size === 1 ? 'recipient' : 'recipients'} (${report.rows} ${report.rows === 1 ? 'row' : 'rows'}).`;
}

interface TenantFacts {
  who: Map<number, Person>;
  org: string;
  timeZone: string;
}

async function tenantFacts(tx: Tx, tenantId: string): Promise<TenantFacts> {
  const [t] = rowsOf<{ name: string; tz: string | null }>(
    await tx.execute(
      sql`select name, settings->>'defaultTimezone' as tz from tenants where id = ${tenantId}`,
    ),
  );
  return {
    who: await people(tx, tenantId),
    org: t?.name ?? 'the association',
    timeZone: resolveTimeZone(t?.tz ?? DEFAULT_TENANT_SETTINGS.defaultTimezone),
  };
}

/**
 * Runs one schedule's report as its owner and mails it; a schedule whose owner lost access, or whose report is gone
 * or no longer readable by its owner, stops with a note. Answers the outcome recorded.
 */
async function sendOne(
  database: Database,
  mailer: Mailer,
  resources: readonly BoundResource[],
  tenantId: string,
  schedule: Row,
  facts: TenantFacts,
  day: string,
): Promise<{ outcome: string; stop: string | null }> {
  const owner = facts.who.get(Number(schedule.ownerUserId));
  if (!isStaff(owner))
    return {
      outcome: 'Stopped.',
      stop: `Stopped on ${day}: the report's owner no longer has access to the association.`,
    };
  const auth: AuthContext = {
    sessionId: `schedule-${schedule.scheduleId}`,
    userId: owner.userId,
    tenantId,
    role: owner.role as AuthContext['role'],
    loginType: 'staff',
    uiVersion: 1,
    impersonatorUserId: null,
    termsPending: false,
    promptsPending: false,
    tenantSettings: { ...DEFAULT_TENANT_SETTINGS, defaultTimezone: facts.timeZone },
  };
  let report: Awaited<ReturnType<typeof savedReportCsv>>;
  try {
    report = await withTenantTx(database.db, { tenantId, userId: owner.userId }, (tx) =>
      savedReportCsv(tx, auth, resources, Number(schedule.savedReportId), schedule.parameters ?? {}),
    );
  } catch (e) {
    // The report's parameters changed since the schedule was saved (one became required, say).
    if (e instanceof HttpError && e.status === 400)
      return {
        outcome: 'Stopped.',
        stop: `Stopped on ${day}: ${e.message} Save the schedule with its values.`,
      };
    throw e;
  }
  if (!report)
    return {
      outcome: 'Stopped.',
      stop: `Stopped on ${day}: the report is gone or its owner may no longer run it.`,
    };
  return {
    outcome: await mailReport(mailer, tenantId, schedule, report, facts.who, facts.org, day),
    stop: null,
  };
}

async function record(
  database: Database,
  tenantId: string,
  scheduleId: number,
  result: { outcome: string; stop: string | null },
): Promise<void> {
  await withTenantTx(database.db, { tenantId }, (tx) =>
    tx
      .update(reportSchedules)
      .set({
        lastOutcome: result.outcome,
        ...(result.stop ? { isActive: false, note: result.stop } : {}),
        updatedAt: sql`now()`,
      })
      .where(and(eq(reportSchedules.tenantId, tenantId), eq(reportSchedules.scheduleId, scheduleId))),
  );
}

/**
 * Sends every active schedule of the association due on `day` (its calendar day; computed from `now` in its
 * timezone when absent). Each schedule is claimed for the day before it runs, so running the job again the same
 * day, or on two instances, sends nothing twice. Answers how many schedules were sent.
 */
export async function sendScheduledReports(
  database: Database,
  mailer: Mailer,
  resources: readonly BoundResource[],
  tenantId: string,
  at: { day?: string; now?: Date } = {},
): Promise<{ sent: number; stopped: number }> {
  const facts = await withTenantTx(database.db, { tenantId }, (tx) => tenantFacts(tx, tenantId));
  const day = at.day ?? zonedDate(at.now ?? new Date(), facts.timeZone);
  const due = await withTenantTx(database.db, { tenantId }, async (tx) => {
    const active = await tx
      .select()
      .from(reportSchedules)
      .where(and(eq(reportSchedules.tenantId, tenantId), eq(reportSchedules.isActive, true)));
    const ids = active
      .filter((s) =>
        scheduleDueOn({ Frequency: s.frequency, Weekday: s.weekday, DayOfMonth: s.dayOfMonth }, day),
      )
      .map((s) => Number(s.scheduleId));
    if (ids.length === 0) return [];
    // The claim: the day is written before anything is sent, once per schedule and day.
    return tx
      .update(reportSchedules)
      .set({ lastSentOn: day })
      .where(
        and(
          eq(reportSchedules.tenantId, tenantId),
          sql`${reportSchedules.scheduleId} in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})`,
          sql`(${reportSchedules.lastSentOn} is null or ${reportSchedules.lastSentOn} < ${day}::date)`,
        ),
      )
      .returning();
  });
  let sent = 0;
  let stopped = 0;
  for (const schedule of due) {
    let result: { outcome: string; stop: string | null };
    try {
      result = await sendOne(database, mailer, resources, tenantId, schedule, facts, day);
    } catch (e) {
      result = { outcome: `Failed: ${e instanceof Error ? e.message : String(e)}`.slice(0, 500), stop: null };
    }
    await record(database, tenantId, Number(schedule.scheduleId), result);
    if (result.stop) stopped++;
    else if (result.outcome.startsWith('Sent')) sent++;
  }
  return { sent, stopped };
}

/** The daily job of an association (decision 0181): its payload carries the association's calendar day. */
export function reportSchedulesHandler(mailer: Mailer, resources: readonly BoundResource[]): JobHandler {
  return async (database: Database, job: ClaimedJob) => {
    const day = typeof job.payload.day === 'string' ? job.payload.day : undefined;
    await sendScheduledReports(database, mailer, resources, job.tenantId, day ? { day } : {});
  };
}

const savedParams = z.object({ id: z.coerce.number().int().min(1) });
const scheduleParams = savedParams.extend({ scheduleId: z.coerce.number().int().min(1) });
const recipientSchema = z.object({ UserId: z.number().int(), Name: z.string(), Email: z.string() });

export function reportSchedulesRoutes(resources: readonly BoundResource[]): FastifyPluginAsyncZod {
  return async (app) => {
    const checkUsers = async (tx: Tx, auth: AuthContext, ids: readonly number[]) => {
      const who = await people(tx, auth.tenantId);
      const unknown = ids.filter((id) => !isStaff(who.get(id)));
      if (unknown.length > 0)
        throw new HttpError(400, 'Choose staff users of the association.', {
          UserIds: ['Choose staff users of the association.'],
        });
      return who;
    };

    app.get('/api/reports/schedule-recipients', {
      config: { permission: 'backoffice', scoped: true },
      schema: {
        tags: ['reports'],
        summary: 'The staff users a scheduled report may be mailed to',
        response: { 200: z.array(recipientSchema) },
      },
      handler: async (req) => {
        const { tx, auth } = scope(req);
        const who = await people(tx, auth.tenantId);
        return [...who.values()]
          .filter(isStaff)
          .sort((a, b) => a.name.localeCompare(b.name))
          .map((p) => ({ UserId: p.userId, Name: p.name, Email: p.email }));
      },
    });

    app.get('/api/reports/saved/:id/schedules', {
      config: { permission: 'backoffice', scoped: true },
      schema: {
        tags: ['reports'],
        summary: "A saved report's mail schedules",
        params: savedParams,
        response: { 200: z.array(reportScheduleSchema) },
      },
      handler: async (req) => {
        const { tx, auth } = scope(req);
        await visibleReport(tx, auth, req.params.id);
        const who = await people(tx, auth.tenantId);
        return (await schedulesOf(tx, auth.tenantId, req.params.id)).map((r) => scheduleOf(r, who));
      },
    });

    const write = async (
      tx: Tx,
      auth: AuthContext,
      savedId: number,
      input: z.infer<typeof reportScheduleInputSchema>,
      id?: number,
    ) => {
      await ownReport(tx, auth, savedId);
      // The values it keeps must run (each required parameter given, each value of its kind).
      await checkSavedReportParameters(tx, auth, resources, savedId, input.Parameters);
      const who = await checkUsers(tx, auth, input.UserIds);
      const values = {
        frequency: input.Frequency,
        weekday: input.Frequency === 'weekly' ? input.Weekday : null,
        dayOfMonth: input.Frequency === 'monthly' ? input.DayOfMonth : null,
        userIds: [...new Set(input.UserIds)],
        addresses: [...new Set(input.Addresses)],
        parameters: input.Parameters,
        // Saving a schedule starts it again (after its owner's access came back, say).
        isActive: true,
        note: '',
      };
      let before: ReportSchedule | null = null;
      let scheduleId: number;
      if (id === undefined) {
        const [row] = await tx
          .insert(reportSchedules)
          .values({ ...values, tenantId: auth.tenantId, savedReportId: savedId, ownerUserId: auth.userId })
          .returning({ id: reportSchedules.scheduleId });
        scheduleId = Number(row?.id);
      } else {
        const [current] = await schedulesOf(tx, auth.tenantId, savedId, id);
        if (!current) throw notFound();
        before = scheduleOf(current, who);
        await tx
          .update(reportSchedules)
          .set({ ...values, ownerUserId: auth.userId, updatedAt: sql`now()` })
          .where(and(eq(reportSchedules.tenantId, auth.tenantId), eq(reportSchedules.scheduleId, id)));
        scheduleId = id;
      }
      const [row] = await schedulesOf(tx, auth.tenantId, savedId, scheduleId);
      return auditedAnswer(
        tx,
        auth,
        'reportSchedules',
        scheduleId,
        before,
        row ? scheduleOf(row, who) : null,
      );
    };

    app.post('/api/reports/saved/:id/schedules', {
      config: { permission: 'backoffice', scoped: true },
      schema: {
        tags: ['reports'],
        summary: 'Schedules a saved report by mail as CSV (its owner only)',
        params: savedParams,
        body: reportScheduleInputSchema,
        response: { 200: reportScheduleSchema },
      },
      handler: async (req) => {
        const { tx, auth } = scope(req);
        return write(tx, auth, req.params.id, req.body);
      },
    });

    app.put('/api/reports/saved/:id/schedules/:scheduleId', {
      config: { permission: 'backoffice', scoped: true },
      schema: {
        tags: ['reports'],
        summary: "Changes a report's mail schedule (the report's owner only)",
        params: scheduleParams,
        body: reportScheduleInputSchema,
        response: { 200: reportScheduleSchema },
      },
      handler: async (req) => {
        const { tx, auth } = scope(req);
        return write(tx, auth, req.params.id, req.body, req.params.scheduleId);
      },
    });

    app.delete('/api/reports/saved/:id/schedules/:scheduleId', {
      config: { permission: 'backoffice', scoped: true },
      schema: {
        tags: ['reports'],
        summary: "Deletes a report's mail schedule (the report's owner only)",
        params: scheduleParams,
        response: { 200: z.object({ ScheduleId: z.number().int() }) },
      },
      handler: async (req) => {
        const { tx, auth } = scope(req);
        const { id, scheduleId } = req.params;
        await ownReport(tx, auth, id);
        const [current] = await schedulesOf(tx, auth.tenantId, id, scheduleId);
        if (!current) throw notFound();
        await tx
          .delete(reportSchedules)
          .where(
            and(eq(reportSchedules.tenantId, auth.tenantId), eq(reportSchedules.scheduleId, scheduleId)),
          );
        await audit(tx, auth, {
          action: 'delete',
          entity: 'reportSchedules',
          entityId: scheduleId,
          before: scheduleOf(current, await people(tx, auth.tenantId)),
        });
        return { ScheduleId: scheduleId };
      },
    });

    // Not scoped: the mail is sent between the read of the schedule and the record of its result, outside both.
    app.post('/api/reports/saved/:id/schedules/:scheduleId/send', {
      config: { permission: 'backoffice' },
      schema: {
        tags: ['reports'],
        summary: "Sends a schedule's mail now (the report's owner only); the day's scheduled send still goes",
        params: scheduleParams,
        response: { 200: reportScheduleSchema },
      },
      handler: async (req) => {
        const auth = requireAuth(req.auth);
        const { id, scheduleId } = req.params;
        const { row, facts } = await tenantTx(app.database, auth, async (tx) => {
          await ownReport(tx, auth, id);
          const [row] = await schedulesOf(tx, auth.tenantId, id, scheduleId);
          if (!row) throw notFound();
          return { row, facts: await tenantFacts(tx, auth.tenantId) };
        });
        const day = zonedDate(new Date(), facts.timeZone);
        const result = await sendOne(app.database, app.mailer, resources, auth.tenantId, row, facts, day);
        await record(app.database, auth.tenantId, scheduleId, result);
        const [after] = await tenantTx(app.database, auth, (tx) =>
          schedulesOf(tx, auth.tenantId, id, scheduleId),
        );
        if (!after) throw notFound();
        return scheduleOf(after, facts.who);
      },
    });
  };
}
