/**
 * Saved reports with parameters (issue 20): values asked when the report runs (a date range, a choice), refused
 * when missing or wrong, kept by a schedule and by a dashboard pin; a pin showing one total as a figure; groups
 * ordered by a total.
 */
import { invoices, withTenantTx } from '@guildhall/db';
import type { ReportCatalogueEntry, ReportRunAnswer, ReportSchedule, SavedReport } from '@guildhall/shared';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
} from '../../../test/helpers.ts';
import type { Mailer, MailMessage } from '../mailer.ts';
import { sendScheduledReports } from './report-schedules.ts';

let ctx: TestContext;
let a: TenantWithUsers;
let admin: ReturnType<typeof client>;
let sent: MailMessage[];
let mailer: Mailer;

const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
const INVOICES = [
  { status: 'open', total: 10_000, issued: '2026-03-01' },
  { status: 'open', total: 2_501, issued: '2026-03-02' },
  { status: 'paid', total: 5_000, issued: '2026-04-15' },
  { status: 'paid', total: 1, issued: '2015-01-01' },
  { status: 'open', total: 700, issued: yesterday },
] as const;
const MARCH = { Range: 0, StartDate: '2026-03-01', EndDate: '2026-03-31' };

beforeAll(async () => {
  ctx = await testApp();
  a = await seedTenant(ctx.database);
  admin = client(ctx.app, (await signIn(ctx.app, a.admin)).cookie);
  await withTenantTx(ctx.database.db, { tenantId: a.tenant.id, userId: a.admin.id }, (tx) =>
    tx.insert(invoices).values(
      INVOICES.map((v, i) => ({
        tenantId: a.tenant.id,
        number: `INV-${i}`,
        contactId: 1,
        contactName: `Payer ${i}`,
        status: v.status,
        issueDate: v.issued,
        dueDate: '2026-04-01',
        subtotalCents: v.total,
        totalCents: v.total,
        appliedCents: v.status === 'paid' ? v.total : 0,
        balanceCents: v.status === 'paid' ? 0 : v.total,
        currency: 'USD',
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

const byStatus = (extra: Record<string, unknown> = {}) => ({
  resource: 'invoices',
  columns: ['Number', 'Status', 'TotalCents'],
  groupBy: [{ field: 'Status' }],
  aggregates: [{ fn: 'sum', field: 'TotalCents' }],
  ...extra,
});
const PARAMETERS = [
  { name: 'Issued', label: 'Issued', field: 'IssueDate', required: true },
  { name: 'Status', label: 'Status', field: 'Status' },
];

async function save(title: string, definition: Record<string, unknown>): Promise<SavedReport> {
  const res = await admin.post('/api/reports/saved', { Title: title, Definition: definition });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as SavedReport;
}
const run = (reportId: string, values: Record<string, unknown>, format = 'json') =>
  admin.post(`/api/reportExecution/run/${reportId}?format=${format}`, values);
const total = (res: { json: () => unknown }) =>
  (res.json() as ReportRunAnswer).Grouping?.Rows.find((r) => r.Level === 0)?.Values;

describe('report parameters', () => {
  it('asks a date range and a choice when the report runs, and refuses missing or wrong values', async () => {
    const report = await save('Invoiced by status', byStatus({ parameters: PARAMETERS }));
    expect(report.Definition.parameters).toEqual(PARAMETERS.map((p) => ({ required: false, ...p })));

    // The required date range is missing: 400 naming it, nothing runs.
    const missing = await run(report.ReportId, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({ Issued: ['Issued is required.'] });

    // A custom range: March 2026 only.
    const march = await run(report.ReportId, { Issued: MARCH });
    expect(march.statusCode, march.body).toBe(200);
    expect(total(march)).toEqual({ count: 2, sum_TotalCents: 12_501 });
    // And a status among its choices.
    expect(total(await run(report.ReportId, { Issued: MARCH, Status: 'paid' }))).toMatchObject({ count: 0 });
    // A range option, resolved on the day it runs: the last three years leave 2015 out.
    expect(total(await run(report.ReportId, { Issued: { Range: 27 } }))).toEqual({
      count: 4,
      sum_TotalCents: 18_201,
    });
    // An open end: from April 2026 on.
    expect(
      total(await run(report.ReportId, { Issued: { Range: 0, StartDate: '2026-04-01', EndDate: null } })),
    ).toMatchObject({ count: 2 });

    // Wrong values answer 400 with the parameter's message.
    const wrongChoice = await run(report.ReportId, { Issued: MARCH, Status: 'shredded' });
    expect(wrongChoice.statusCode).toBe(400);
    expect(wrongChoice.json().errors.Status).toEqual(['Status is not one of its choices.']);
    expect((await run(report.ReportId, { Issued: { Range: 99 } })).statusCode).toBe(400);
    expect(
      (await run(report.ReportId, { Issued: { Range: 0, StartDate: '2026-03-31', EndDate: '2026-03-01' } }))
        .statusCode,
    ).toBe(400);

    // The CSV runs with the same values.
    const csv = await run(report.ReportId, { Issued: MARCH }, 'csv');
    expect(csv.statusCode, csv.body).toBe(200);
    const rows = Papa.parse<string[]>(csv.body.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    expect(rows.at(-1)).toEqual(['Total', '2', '125.01']);

    // The catalogue lists the parameters for the run form; the preview runs without them.
    const entry = ((await admin.get('/api/reportExecution/catalogue')).json() as ReportCatalogueEntry[]).find(
      (r) => r.ReportId === report.ReportId,
    );
    expect(entry?.Parameters.map((p) => p.name)).toEqual(['Issued', 'Status']);
    const preview = await admin.post(
      '/api/reports/preview?format=json',
      byStatus({ parameters: PARAMETERS }),
    );
    expect(preview.statusCode, preview.body).toBe(200);
    expect(total(preview)).toMatchObject({ count: 5 });
  });

  it('refuses parameters over fields the list cannot filter, and twice the same name', async () => {
    const bad = await admin.post('/api/reports/saved', {
      Title: 'Bad',
      Definition: byStatus({ parameters: [{ name: 'Who', label: 'Who', field: 'ContactName' }] }),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('A parameter cannot filter ContactName.');
    const twice = await admin.post('/api/reports/saved', {
      Title: 'Twice',
      Definition: byStatus({
        parameters: [
          { name: 'When', label: 'Issued', field: 'IssueDate' },
          { name: 'when', label: 'Due', field: 'DueDate' },
        ],
      }),
    });
    expect(twice.statusCode).toBe(400);
    const badName = await admin.post('/api/reports/saved', {
      Title: 'Bad name',
      Definition: byStatus({ parameters: [{ name: "x'; drop", label: 'X', field: 'Status' }] }),
    });
    expect(badName.statusCode).toBe(400);
  });

  it('orders groups by a total, largest or smallest first', async () => {
    const desc = await save('By status, largest first', {
      ...byStatus({ groupOrder: { measure: 'sum_TotalCents', direction: 'desc' } }),
      groupBy: [{ field: 'Status' }],
    });
    const labels = async (id: string) =>
      ((await run(id, {})).json() as ReportRunAnswer).Grouping?.Rows.map((r) => r.Labels[0]);
    // Open 13,201 and paid 5,001 cents: by key paid would come first ("open" < "paid" either way), so count too.
    expect(await labels(desc.ReportId)).toEqual(['Open', 'Paid', '']);
    const asc = await save(
      'By status, smallest first',
      byStatus({ groupOrder: { measure: 'sum_TotalCents', direction: 'asc' } }),
    );
    expect(await labels(asc.ReportId)).toEqual(['Paid', 'Open', '']);
    // By the count: three open, two paid.
    const byCount = await save(
      'By status, fewest first',
      byStatus({ groupOrder: { measure: 'count', direction: 'asc' } }),
    );
    expect(await labels(byCount.ReportId)).toEqual(['Paid', 'Open', '']);
    // A total the report does not have is refused.
    const bad = await admin.post('/api/reports/saved', {
      Title: 'Bad order',
      Definition: byStatus({ groupOrder: { measure: 'avg_TotalCents', direction: 'asc' } }),
    });
    expect(bad.statusCode).toBe(400);
  });

  it('pins a report with its values, or one total as a figure', async () => {
    const report = await save('Pinned invoices', byStatus({ parameters: PARAMETERS }));
    const pin = (body: unknown) => admin.post(`/api/reports/pins/${report.ReportId}`, body);
    // Without the required value the pin could not run: refused.
    expect((await pin({ Display: 'figure', Measure: 'sum_TotalCents' })).statusCode).toBe(400);
    // A total the report does not have: refused.
    expect(
      (await pin({ Display: 'figure', Measure: 'max_TotalCents', Parameters: { Issued: MARCH } })).statusCode,
    ).toBe(400);
    const ok = await pin({ Display: 'figure', Measure: 'sum_TotalCents', Parameters: { Issued: MARCH } });
    expect(ok.statusCode, ok.body).toBe(200);
    const entry = async () =>
      ((await admin.get('/api/reportExecution/catalogue')).json() as ReportCatalogueEntry[]).find(
        (r) => r.ReportId === report.ReportId,
      );
    expect((await entry())?.Pin).toEqual({
      Display: 'figure',
      Measure: 'sum_TotalCents',
      Parameters: { Issued: MARCH },
    });
    expect((await entry())?.Measures).toEqual([
      { Key: 'count', Title: 'Count' },
      { Key: 'sum_TotalCents', Title: expect.stringMatching(/^Sum of /) },
    ]);
    // Pinning again changes what it shows; unpinning removes it.
    expect((await pin({ Parameters: { Issued: { Range: 27 } } })).statusCode).toBe(200);
    expect((await entry())?.Pin).toEqual({
      Display: 'report',
      Measure: null,
      Parameters: { Issued: { Range: 27 } },
    });
    expect((await admin.delete(`/api/reports/pins/${report.ReportId}`)).statusCode).toBe(200);
    expect((await entry())?.IsPinned).toBe(false);
    expect((await entry())?.Pin).toBeNull();
  });

  it('keeps the values with a mail schedule, and stops a schedule whose report came to need one', async () => {
    const report = await save('Scheduled invoices', byStatus({ parameters: PARAMETERS }));
    const base = `/api/reports/saved/${report.SavedReportId}/schedules`;
    const refused = await admin.post(base, { Frequency: 'daily', Addresses: ['books@example.org'] });
    expect(refused.statusCode).toBe(400);
    const created = await admin.post(base, {
      Frequency: 'daily',
      Addresses: ['books@example.org'],
      Parameters: { Issued: MARCH, Status: 'open' },
    });
    expect(created.statusCode, created.body).toBe(200);
    expect((created.json() as ReportSchedule).Parameters).toEqual({ Issued: MARCH, Status: 'open' });

    // A report without parameters, scheduled, then changed to need one.
    const plain = await save('Plain invoices', byStatus());
    const plainBase = `/api/reports/saved/${plain.SavedReportId}/schedules`;
    expect(
      (await admin.post(plainBase, { Frequency: 'daily', Addresses: ['plain@example.org'] })).statusCode,
    ).toBe(200);
    const changed = await admin.put(`/api/reports/saved/${plain.SavedReportId}`, {
      Title: 'Plain invoices',
      Definition: byStatus({ parameters: PARAMETERS }),
    });
    expect(changed.statusCode, changed.body).toBe(200);

    sent.length = 0;
    await sendScheduledReports(ctx.database, mailer, ctx.app.services.resources, a.tenant.id, {
      now: new Date('2026-12-01T15:00:00Z'),
    });
    const mail = sent.find((m) => m.to === 'books@example.org');
    const csv = mail?.attachments?.[0]?.content.toString('utf8') ?? '';
    const rows = Papa.parse<string[]>(csv.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;
    // Open invoices of March 2026 only.
    expect(rows.slice(1)).toEqual([
      ['Open', '2', '125.01'],
      ['Total', '2', '125.01'],
    ]);
    expect(sent.some((m) => m.to === 'plain@example.org')).toBe(false);
    const [stopped] = (await admin.get(plainBase)).json() as ReportSchedule[];
    expect(stopped?.IsActive).toBe(false);
    expect(stopped?.Note).toContain('Issued is required.');
  });
});
