import { auditLog, contacts, invoices, withTenantTx } from '@guildhall/db';
import {
  groupInMemory,
  type ReportCatalogueEntry,
  type ReportRunAnswer,
  type SavedReport,
} from '@guildhall/shared';
import { and, eq } from 'drizzle-orm';
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

let ctx: TestContext;
let a: TenantWithUsers;
let b: TenantWithUsers;
let admin: ReturnType<typeof client>;
let staff: ReturnType<typeof client>;
let adminB: ReturnType<typeof client>;

const STATUSES = ['active', 'lapsed', 'prospect'] as const;
const STATES = ['IL', 'WI', null] as const;
const INVOICES = [
  { status: 'open', total: 10_000, applied: 0 },
  { status: 'open', total: 2_501, applied: 0 },
  { status: 'partially_paid', total: 5_000, applied: 1_999 },
  { status: 'paid', total: 12_345, applied: 12_345 },
  { status: 'paid', total: 1, applied: 1 },
] as const;

beforeAll(async () => {
  ctx = await testApp();
  a = await seedTenant(ctx.database);
  b = await seedTenant(ctx.database);
  admin = client(ctx.app, (await signIn(ctx.app, a.admin)).cookie);
  staff = client(ctx.app, (await signIn(ctx.app, a.staff)).cookie);
  adminB = client(ctx.app, (await signIn(ctx.app, b.admin)).cookie);
  await withTenantTx(ctx.database.db, { tenantId: a.tenant.id, userId: a.admin.id }, async (tx) => {
    await tx.insert(contacts).values(
      Array.from({ length: 31 }, (_, i) => ({
        tenantId: a.tenant.id,
        contactType: 'individual',
        status: STATUSES[i % 3] as string,
        stateProvince: STATES[(i * 7) % 3] ?? null,
        displayName: `Person ${String(i).padStart(2, '0')}`,
        accountNumber: `R${i}`,
      })),
    );
    await tx.insert(invoices).values(
      INVOICES.map((v, i) => ({
        tenantId: a.tenant.id,
        number: `INV-${i}`,
        contactId: 1,
        contactName: `Payer ${i}`,
        status: v.status,
        issueDate: `2026-03-0${i + 1}`,
        dueDate: '2026-04-01',
        subtotalCents: v.total,
        totalCents: v.total,
        appliedCents: v.applied,
        balanceCents: v.total - v.applied,
        currency: 'USD',
      })),
    );
  });
  await withTenantTx(ctx.database.db, { tenantId: b.tenant.id, userId: b.admin.id }, async (tx) => {
    await tx.insert(contacts).values(
      Array.from({ length: 5 }, (_, i) => ({
        tenantId: b.tenant.id,
        contactType: 'individual',
        status: 'active',
        stateProvince: 'ZZ',
        displayName: `Secret ${i}`,
        accountNumber: `S${i}`,
      })),
    );
  });
});
afterAll(() => ctx.close());

const byStatusAndState = {
  resource: 'contacts',
  groupBy: [{ field: 'Status' }, { field: 'StateProvince' }],
  chart: { type: 'bar', measure: 'count' },
};

describe('grouped reports', () => {
  it('groups a list in two levels with subtotals and a grand total, as the rows themselves add up', async () => {
    const res = await admin.post('/api/reports/preview?format=json', byStatusAndState);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as ReportRunAnswer;
    expect(body.TotalRecordAvailable).toBe(31);
    const g = body.Grouping;
    expect(g?.Levels.map((l) => l.title)).toEqual(['Status', 'State or province']);
    const list = await admin.post('/api/contacts/contacts/contactData?$top=1000', {
      ColumnsToShow: ['Status', 'StateProvince'],
    });
    const rows = (list.json() as { Results: Record<string, unknown>[] }).Results;
    const expected = groupInMemory(rows, ['Status', 'StateProvince'], []);
    expect(g?.Rows.map((r) => ({ Level: r.Level, Keys: r.Keys, Values: r.Values }))).toEqual(expected);
    // Choices by their names, a missing state as (none); the other association's rows nowhere.
    expect(g?.Rows[0]?.Labels).toEqual(['Active', '']);
    expect(g?.Rows.some((r) => r.Labels.includes('(none)'))).toBe(true);
    expect(JSON.stringify(body)).not.toContain('ZZ');
    expect(body.Columns.map((c) => c.title)).toEqual(['Status', 'State or province', 'Count']);
  });

  it('totals money in cents exactly: sums, the largest, an average rounded once; and writes the table as CSV', async () => {
    const res = await admin.post('/api/reportExecution/run/invoices.byStatus?format=json', {});
    expect(res.statusCode, res.body).toBe(200);
    const g = (res.json() as ReportRunAnswer).Grouping;
    const open = g?.Rows.find((r) => r.Keys[0] === 'open');
    expect(open?.Values).toEqual({
      count: 2,
      sum_TotalCents: 12_501,
      sum_BalanceCents: 12_501,
      max_TotalCents: 10_000,
    });
    expect(g?.Rows.at(-1)?.Values.sum_TotalCents).toBe(29_847);
    expect(g?.Measures.find((m) => m.key === 'sum_TotalCents')?.money).toBe(true);

    const avg = await admin.post('/api/reports/preview', {
      resource: 'invoices',
      groupBy: [{ field: 'Status' }],
      aggregates: [{ fn: 'avg', field: 'TotalCents' }],
    });
    // (10,000 + 2,501) / 2 = 6,250.5 cents: half away from zero.
    const avgOpen = (avg.json() as ReportRunAnswer).Grouping?.Rows.find((r) => r.Keys[0] === 'open');
    expect(avgOpen?.Values.avg_TotalCents).toBe(6251);

    const csv = await admin.post('/api/reportExecution/run/invoices.byStatus?format=csv', {});
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = Papa.parse<string[]>(csv.body.replace(/^\uFEFF/, '').trim()).data;
    expect(lines[0]).toEqual(['Status', 'Count', 'Sum of total', 'Sum of balance', 'Maximum of total']);
    expect(lines).toContainEqual(['Open', '2', '125.01', '125.01', '100.00']);
    expect(lines.at(-1)).toEqual(['Total', '5', '298.47', '155.02', '123.45']);
  });

  it('groups dates by month and year', async () => {
    const res = await admin.post('/api/reports/preview', {
      resource: 'invoices',
      groupBy: [{ field: 'IssueDate', bucket: 'month' }],
    });
    const g = (res.json() as ReportRunAnswer).Grouping;
    expect(g?.Rows.map((r) => r.Labels[0])).toEqual(['Mar 2026', '']);
    expect(g?.Levels[0]?.title).toBe('Date (month)');
  });

  it('refuses any field the resource does not declare for the use, before anything runs', async () => {
    for (const body of [
      { resource: 'contacts', groupBy: [{ field: 'password_hash' }] },
      { resource: 'contacts', groupBy: [{ field: 'Status" from users --' }] },
      { resource: 'contacts', groupBy: [{ field: 'Notes' }] },
      {
        resource: 'contacts',
        groupBy: [{ field: 'Status' }],
        aggregates: [{ fn: 'sum', field: 'DisplayName' }],
      },
      { resource: 'contacts', criteria: [{ PropertyName: 'Notes', Operator: 'eq', Value: 'x' }] },
      { resource: 'contacts', columns: ['tenant_id'] },
      { resource: 'contacts', groupBy: [{ field: 'Status' }], chart: { type: 'pie', measure: 'sum_x' } },
    ]) {
      const res = await admin.post('/api/reports/preview', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect((res.json() as { message: string }).message).not.toMatch(/syntax|relation|column/i);
    }
    expect((await admin.post('/api/reports/preview', { resource: 'samples' })).statusCode).toBe(404);
    expect((await admin.post('/api/reports/preview', { resource: 'nope' })).statusCode).toBe(404);
  });
});

describe('saved reports', () => {
  it('keeps a private report its owner’s, shares it with the staff on request, and never across associations', async () => {
    const created = await admin.post('/api/reports/saved', {
      Title: 'Contacts by status and state',
      Description: 'Where our members are',
      Definition: byStatusAndState,
    });
    expect(created.statusCode, created.body).toBe(200);
    const saved = created.json() as SavedReport;
    expect(saved).toEqual(
      expect.objectContaining({ IsShared: false, IsOwner: true, ReportId: `saved-${saved.SavedReportId}` }),
    );
    const id = saved.ReportId;

    const ownCatalogue = (await admin.get('/api/reportExecution/catalogue')).json() as ReportCatalogueEntry[];
    expect(ownCatalogue.find((r) => r.ReportId === id)).toEqual(
      expect.objectContaining({
        Grouped: true,
        Chart: 'bar',
        Saved: expect.objectContaining({ IsOwner: true }),
      }),
    );
    const run = await admin.post(`/api/reportExecution/run/${id}?format=json`, {});
    expect(run.statusCode).toBe(200);
    expect(run.headers.reportpagecount).toBe('1');
    expect((run.json() as ReportRunAnswer).Grouping?.Rows.at(-1)?.Values.count).toBe(31);

    // Private: another staff user neither lists nor runs it; the other association neither.
    const staffCatalogue = (
      await staff.get('/api/reportExecution/catalogue')
    ).json() as ReportCatalogueEntry[];
    expect(staffCatalogue.some((r) => r.ReportId === id)).toBe(false);
    expect((await staff.post(`/api/reportExecution/run/${id}`, {})).statusCode).toBe(404);
    expect((await staff.get(`/api/reports/saved/${saved.SavedReportId}`)).statusCode).toBe(404);
    expect((await adminB.post(`/api/reportExecution/run/${id}`, {})).statusCode).toBe(404);

    const shared = await admin.put(`/api/reports/saved/${saved.SavedReportId}`, {
      Title: 'Contacts by status and state',
      IsShared: true,
      Definition: byStatusAndState,
    });
    expect(shared.statusCode, shared.body).toBe(200);
    const staffSees = (await staff.get('/api/reportExecution/catalogue')).json() as ReportCatalogueEntry[];
    expect(staffSees.find((r) => r.ReportId === id)?.Saved).toEqual(
      expect.objectContaining({ IsShared: true, IsOwner: false }),
    );
    expect((await staff.post(`/api/reportExecution/run/${id}`, {})).statusCode).toBe(200);
    // Shared is not theirs to change or delete.
    expect(
      (
        await staff.put(`/api/reports/saved/${saved.SavedReportId}`, {
          Title: 'Mine',
          Definition: byStatusAndState,
        })
      ).statusCode,
    ).toBe(403);
    expect((await staff.delete(`/api/reports/saved/${saved.SavedReportId}`)).statusCode).toBe(403);
    expect((await adminB.get('/api/reportExecution/catalogue')).body).not.toContain(id);

    // Favourite and pin it; the catalogue says so.
    expect((await staff.post(`/api/reportExecution/SetReportAsFavorite/${id}`)).statusCode).toBe(200);
    expect((await staff.post(`/api/reports/pins/${id}`)).json()).toEqual({ ReportId: id, IsPinned: true });
    const pinned = ((await staff.get('/api/reportExecution/catalogue')).json() as ReportCatalogueEntry[])[0];
    expect(pinned).toEqual(expect.objectContaining({ ReportId: id, IsFavorite: true, IsPinned: true }));
    expect((await adminB.post(`/api/reports/pins/${id}`)).statusCode).toBe(404);
    // Pins are each user's own.
    const adminPins = (await admin.get('/api/reportExecution/catalogue')).json() as ReportCatalogueEntry[];
    expect(adminPins.find((r) => r.ReportId === id)?.IsPinned).toBe(false);

    const audit = await withTenantTx(ctx.database.db, { tenantId: a.tenant.id, userId: a.admin.id }, (tx) =>
      tx
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.entity, 'savedReports'), eq(auditLog.tenantId, a.tenant.id))),
    );
    expect(audit.map((e) => e.action)).toEqual(['create', 'update']);

    expect((await admin.delete(`/api/reports/saved/${saved.SavedReportId}`)).statusCode).toBe(200);
    expect((await staff.post(`/api/reportExecution/run/${id}`, {})).statusCode).toBe(404);
  });

  it('a report without grouping pages its rows and exports every row as CSV', async () => {
    const created = await admin.post('/api/reports/saved', {
      Title: 'Lapsed contacts',
      IsShared: true,
      Definition: {
        resource: 'contacts',
        columns: ['DisplayName', 'Status'],
        criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'lapsed' }],
        sort: { field: 'DisplayName', direction: 'desc' },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = (created.json() as SavedReport).ReportId;
    const page = await admin.post(`/api/reportExecution/run/${id}?format=json`, {});
    const body = page.json() as ReportRunAnswer;
    expect(body.Grouping).toBeNull();
    expect(body.TotalRecordAvailable).toBe(10);
    expect(body.Rows[0]).toEqual({ DisplayName: 'Person 28', Status: 'lapsed' });
    const csv = await admin.post(`/api/reportExecution/run/${id}?format=csv`, {});
    const lines = Papa.parse<string[]>(csv.body.replace(/^\uFEFF/, '').trim()).data;
    expect(lines[0]).toEqual(['Name', 'Status']);
    expect(lines).toHaveLength(11);
    expect(
      (await admin.post('/api/reports/saved', { Title: ' ', Definition: { resource: 'contacts' } }))
        .statusCode,
    ).toBe(400);
  });

  it('lists the shipped grouped reports of each domain', async () => {
    const catalogue = (await admin.get('/api/reportExecution/catalogue')).json() as ReportCatalogueEntry[];
    expect(catalogue.map((r) => r.ReportId)).toEqual(
      expect.arrayContaining(['memberships.byType', 'invoices.byStatus', 'events.registrationsByEvent']),
    );
    for (const id of ['memberships.byType', 'events.registrationsByEvent']) {
      const res = await admin.post(`/api/reportExecution/run/${id}`, {});
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as ReportRunAnswer).Grouping?.Rows.at(-1)?.Level).toBe(0);
    }
  });
});
