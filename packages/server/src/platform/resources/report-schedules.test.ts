/**
 * Saved reports mailed as CSV on a schedule (decision 0176): the owner's schedules under the report, recipients
 * checked, the daily job sending each due schedule once per day of the association's calendar with the report's
 * own CSV attached, private reports run as their owner, and a schedule stopped when its owner loses access.
 */
import { contacts, withTenantTx } from '@guildhall/db';
import { createTenant, createUser } from '@guildhall/db/seed/factories';
import type { ReportSchedule, SavedReport } from '@guildhall/shared';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
  unique,
} from '../../../test/helpers.ts';
import type { Mailer, MailMessage } from '../mailer.ts';
import { REPORT_SCHEDULES_JOB, sendScheduledReports } from './report-schedules.ts';

type Client = ReturnType<typeof client>;
let ctx: TestContext;
let tenantId: string;
let owner: Client;
let colleague: Client;
let adminId: number;
let staffId: number;
let staffUser: { username: string; password: string };
let other: TenantWithUsers;
let otherAdmin: Client;
let sent: MailMessage[];
let mailer: Mailer;

const STATUSES = ['active', 'lapsed', 'prospect'] as const;

beforeAll(async () => {
  ctx = await testApp();
  // An association in Auckland: its calendar day is ahead of UTC's.
  const tenant = await createTenant(ctx.database.db, {
    name: unique('Auckland '),
    settings: { defaultTimezone: 'Pacific/Auckland' },
  });
  tenantId = tenant.id;
  const mk = (role: 'admin' | 'staff') =>
    createUser(ctx.database.db, {
      tenantId,
      username: unique(`${role}.`),
      password: `${role}-password-2026`,
      role,
    });
  const admin = await mk('admin');
  const staff = await mk('staff');
  adminId = admin.id;
  staffId = staff.id;
  staffUser = staff;
  owner = client(ctx.app, (await signIn(ctx.app, admin)).cookie);
  colleague = client(ctx.app, (await signIn(ctx.app, staff)).cookie);
  other = await seedTenant(ctx.database);
  otherAdmin = client(ctx.app, (await signIn(ctx.app, other.admin)).cookie);
  await withTenantTx(ctx.database.db, { tenantId, userId: admin.id }, (tx) =>
    tx.insert(contacts).values(
      Array.from({ length: 7 }, (_, i) => ({
        tenantId,
        contactType: 'individual',
        status: STATUSES[i % 3] as string,
        displayName: `Person ${i}`,
        accountNumber: `S${i}`,
      })),
    ),
  );
  sent = [];
  const real = ctx.app.services.mailer;
  mailer = {
    ...real,
    async send(t, message) {
      sent.push(message);
      return real.send(t, message);
    },
  };
});
afterAll(() => ctx.close());

async function saveReport(c: Client, title: string, shared = false): Promise<SavedReport> {
  const res = await c.post('/api/reports/saved', {
    Title: title,
    IsShared: shared,
    Definition: {
      resource: 'contacts',
      columns: ['DisplayName', 'Status'],
      sort: { field: 'DisplayName', direction: 'asc' },
      groupBy: [{ field: 'Status' }],
      aggregates: [{ fn: 'count' }],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as SavedReport;
}

const send = (now: string) =>
  sendScheduledReports(ctx.database, mailer, ctx.app.services.resources, tenantId, { now: new Date(now) });

describe('report schedules', () => {
  it('is a daily job of the platform', () => {
    expect(ctx.app.services.jobs.kinds).toContain(REPORT_SCHEDULES_JOB);
  });

  it('schedules a report by mail and sends it once a day with its CSV attached', async () => {
    const report = await saveReport(owner, 'Contacts by status');
    const base = `/api/reports/saved/${report.SavedReportId}/schedules`;
    const recipients = (await owner.get('/api/reports/schedule-recipients')).json() as {
      UserId: number;
      Email: string;
    }[];
    expect(recipients.map((r) => r.UserId).sort()).toEqual([adminId, staffId].sort());
    const staffEmail = recipients.find((r) => r.UserId === staffId)?.Email;

    // Invalid: no recipient, a bad address, a weekly schedule without its day, a user of another association.
    expect((await owner.post(base, { Frequency: 'daily' })).statusCode).toBe(400);
    expect((await owner.post(base, { Frequency: 'daily', Addresses: ['not-an-address'] })).statusCode).toBe(
      400,
    );
    expect((await owner.post(base, { Frequency: 'weekly', Addresses: ['a@example.org'] })).statusCode).toBe(
      400,
    );
    const foreign = await owner.post(base, { Frequency: 'daily', UserIds: [other.admin.id] });
    expect(foreign.statusCode, foreign.body).toBe(400);

    const created = await owner.post(base, {
      Frequency: 'daily',
      UserIds: [staffId],
      Addresses: ['Treasurer@Example.org'],
    });
    expect(created.statusCode, created.body).toBe(200);
    const schedule = created.json() as ReportSchedule;
    expect(schedule).toMatchObject({
      Frequency: 'daily',
      Addresses: ['treasurer@example.org'],
      IsActive: true,
      LastSentOn: null,
      Summary: 'Every day',
    });
    expect((await owner.get(base)).json()).toEqual([schedule]);

    // 20:00 UTC on the 29th is the 30th in Auckland; the job runs three times that day.
    sent.length = 0;
    for (const now of ['2026-11-29T20:00:00Z', '2026-11-29T21:00:00Z', '2026-11-30T05:00:00Z'])
      await send(now);
    const mails = sent.filter((m) => m.subject.startsWith('Report: Contacts by status'));
    expect(mails.map((m) => m.to).sort()).toEqual([staffEmail, 'treasurer@example.org'].sort());
    expect(mails[0]?.subject).toBe('Report: Contacts by status (2026-11-30)');
    const attachment = mails[0]?.attachments?.[0];
    expect(attachment?.filename).toBe('Contacts by status 2026-11-30.csv');
    const csv = attachment?.content.toString('utf8') ?? '';
    // The report's own CSV, byte for byte.
    const own = await owner.post(`/api/reportExecution/run/${report.ReportId}?format=csv`, {});
    expect(csv).toBe(own.body);
    const rows = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(['Status', 'Count']);
    expect(rows.slice(1).map((r) => [r[0], r[1]])).toEqual([
      ['Active', '3'],
      ['Lapsed', '2'],
      ['Prospect', '2'],
      ['Total', '7'],
    ]);
    // The outbox keeps the mail and names the attachment.
    const outbox = (await owner.get('/api/mail/outbox')).json() as {
      id: number;
      to: string;
      subject: string;
    }[];
    const kept = outbox.find((m) => m.to === 'treasurer@example.org');
    expect(kept?.subject).toBe('Report: Contacts by status (2026-11-30)');
    const message = (await owner.get(`/api/mail/outbox/${kept?.id}`)).json();
    expect(message.attachments).toEqual([
      {
        filename: 'Contacts by status 2026-11-30.csv',
        contentType: 'text/csv; charset=utf-8',
        size: attachment?.content.length,
      },
    ]);
    const after = ((await owner.get(base)).json() as ReportSchedule[])[0];
    expect(after).toMatchObject({ LastSentOn: '2026-11-30', LastOutcome: 'Sent to 2 recipients (4 rows).' });

    // The next day it goes again.
    sent.length = 0;
    await send('2026-11-30T20:00:00Z');
    expect(sent.filter((m) => m.subject === 'Report: Contacts by status (2026-12-01)')).toHaveLength(2);
    await owner.delete(`${base}/${schedule.ScheduleId}`);
  });

  it("sends weekly and monthly schedules on the association's own calendar day", async () => {
    const report = await saveReport(owner, 'Weekly and monthly');
    const base = `/api/reports/saved/${report.SavedReportId}/schedules`;
    const mk = async (body: Record<string, unknown>) => {
      const res = await owner.post(base, { ...body, Addresses: ['board@example.org'] });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as ReportSchedule;
    };
    const monday = await mk({ Frequency: 'weekly', Weekday: 1 });
    const sunday = await mk({ Frequency: 'weekly', Weekday: 7 });
    const day30 = await mk({ Frequency: 'monthly', DayOfMonth: 30 });
    const day31 = await mk({ Frequency: 'monthly', DayOfMonth: 31 });
    const day1 = await mk({ Frequency: 'monthly', DayOfMonth: 1 });
    expect(day31.Summary).toBe('On day 31 of every month (its last day when shorter)');
    // Sunday 29 November in UTC, Monday 30 November (the month's last day) in Auckland.
    await send('2026-11-29T20:00:00Z');
    const byId = new Map(((await owner.get(base)).json() as ReportSchedule[]).map((s) => [s.ScheduleId, s]));
    expect(byId.get(monday.ScheduleId)?.LastSentOn).toBe('2026-11-30');
    expect(byId.get(day30.ScheduleId)?.LastSentOn).toBe('2026-11-30');
    expect(byId.get(day31.ScheduleId)?.LastSentOn).toBe('2026-11-30');
    expect(byId.get(sunday.ScheduleId)?.LastSentOn).toBeNull();
    expect(byId.get(day1.ScheduleId)?.LastSentOn).toBeNull();
    // Its 1 December.
    await send('2026-11-30T12:00:00Z');
    const next = new Map(((await owner.get(base)).json() as ReportSchedule[]).map((s) => [s.ScheduleId, s]));
    expect(next.get(day1.ScheduleId)?.LastSentOn).toBe('2026-12-01');
    expect(next.get(sunday.ScheduleId)?.LastSentOn).toBeNull();
    // Deleting the report deletes its schedules.
    expect((await owner.delete(`/api/reports/saved/${report.SavedReportId}`)).statusCode).toBe(200);
    expect((await owner.get(base)).statusCode).toBe(404);
  });

  it("refuses another association's report and another user's private report", async () => {
    const privateReport = await saveReport(owner, 'Private to the owner');
    const sharedReport = await saveReport(owner, 'Shared with the staff', true);
    const body = { Frequency: 'daily', Addresses: ['x@example.org'] };
    // Another association: not found, whatever the id.
    expect(
      (await otherAdmin.post(`/api/reports/saved/${privateReport.SavedReportId}/schedules`, body)).statusCode,
    ).toBe(404);
    expect(
      (await otherAdmin.get(`/api/reports/saved/${sharedReport.SavedReportId}/schedules`)).statusCode,
    ).toBe(404);
    // A colleague: a private report does not exist for them; a shared one is the owner's to schedule.
    expect(
      (await colleague.post(`/api/reports/saved/${privateReport.SavedReportId}/schedules`, body)).statusCode,
    ).toBe(404);
    expect(
      (await colleague.get(`/api/reports/saved/${privateReport.SavedReportId}/schedules`)).statusCode,
    ).toBe(404);
    expect(
      (await colleague.post(`/api/reports/saved/${sharedReport.SavedReportId}/schedules`, body)).statusCode,
    ).toBe(403);
    const s = (
      await owner.post(`/api/reports/saved/${privateReport.SavedReportId}/schedules`, body)
    ).json() as ReportSchedule;
    expect(
      (await colleague.delete(`/api/reports/saved/${privateReport.SavedReportId}/schedules/${s.ScheduleId}`))
        .statusCode,
    ).toBe(404);
    expect(
      (
        await otherAdmin.post(
          `/api/reports/saved/${privateReport.SavedReportId}/schedules/${s.ScheduleId}/send`,
        )
      ).statusCode,
    ).toBe(404);
    await owner.delete(`/api/reports/saved/${privateReport.SavedReportId}`);
  });

  it('runs a private report as its owner and stops the schedule when the owner loses access', async () => {
    const report = await saveReport(colleague, 'The colleague’s own');
    const base = `/api/reports/saved/${report.SavedReportId}/schedules`;
    const s = (
      await colleague.post(base, { Frequency: 'daily', UserIds: [adminId] })
    ).json() as ReportSchedule;
    // Send now: the private report ran as the colleague, mailed to the administrator.
    sent.length = 0;
    const now = await colleague.post(`${base}/${s.ScheduleId}/send`);
    expect(now.statusCode, now.body).toBe(200);
    expect((now.json() as ReportSchedule).LastOutcome).toBe('Sent to 1 recipient (4 rows).');
    // The colleague is deactivated: the next run stops the schedule with a note and sends nothing.
    expect((await owner.post(`/api/users/${staffId}/deactivate`)).statusCode).toBe(200);
    sent.length = 0;
    const result = await send('2026-12-10T20:00:00Z');
    expect(result.stopped).toBe(1);
    expect(sent.filter((m) => m.subject.includes('colleague'))).toEqual([]);
    expect((await owner.post(`/api/users/${staffId}/reactivate`)).statusCode).toBe(200);
    const back = client(ctx.app, (await signIn(ctx.app, staffUser)).cookie);
    const [stopped] = (await back.get(base)).json() as ReportSchedule[];
    expect(stopped).toMatchObject({
      IsActive: false,
      Note: "Stopped on 2026-12-11: the report's owner no longer has access to the association.",
    });
    // Saving it again starts it again.
    const restarted = await back.put(`${base}/${s.ScheduleId}`, { Frequency: 'daily', UserIds: [adminId] });
    expect(restarted.json()).toMatchObject({ IsActive: true, Note: '' });
  });
});
