/**
 * Organisations' secondary members within their level's limit (and the member access they get), the public join
 * page (contact, membership and invoice made without an account; rate-limited), the membership status on the
 * global search's contact hits, and the shipped membership reports.
 */
import { q, runFragment, withTenantTx } from '@guildhall/db';
import { addDays, todayIn } from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
} from '../../../test/helpers.ts';
import { PUBLIC_JOINS_PER_MINUTE } from './memberships.routes.ts';
import { SECONDARY_MESSAGES } from './memberships.secondary.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let api: ReturnType<typeof client>;
type Model = Record<string, unknown>;
let orgType: number;
let smallLevel: number;
let individualType: number;
let today: string;

async function save(path: string, view: string, model: Model): Promise<Model> {
  const res = await api.post(`/api/memberships/${path}/${view}Save`, model);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { Data: Model }).Data;
}
async function contact(model: Model): Promise<number> {
  const res = await api.post('/api/contacts/contacts/contactSave', { Status: 'active', ...model });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { Data: Model }).Data.ContactId as number;
}
const person = (first: string, last: string, email?: string) =>
  contact({
    ContactType: 'individual',
    FirstName: first,
    LastName: last,
    ...(email ? { Email: email } : {}),
  });
const tx = <T>(fn: Parameters<typeof withTenantTx<T>>[2]) =>
  withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, fn);

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  api = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
  today = todayIn('America/Chicago');
  const base = { TermKind: 'anniversary', DurationMonths: 12, IsActive: true, GraceDays: 30 };
  orgType = (await save('types', 'type', { ...base, Name: 'Corporate', IsOrganization: true }))
    .MembershipTypeId as number;
  smallLevel = (
    await save('levels', 'level', {
      MembershipTypeId: orgType,
      Name: 'Small',
      SortOrder: 1,
      MaxSecondaryMembers: 2,
    })
  ).MembershipLevelId as number;
  await save('fees', 'fee', {
    MembershipTypeId: orgType,
    FeeId: 1,
    Name: 'Corporate dues',
    OriginalPrice: 50_000,
    BillFrequencyTypeId: 12,
  });
  individualType = (await save('types', 'type', { ...base, Name: 'Individual' })).MembershipTypeId as number;
  await save('fees', 'fee', {
    MembershipTypeId: individualType,
    FeeId: 1,
    Name: 'Dues',
    OriginalPrice: 12_000,
    BillFrequencyTypeId: 12,
  });
});
afterAll(async () => {
  await ctx?.close();
});

describe("an organisation's secondary members", () => {
  it('adds named people up to the level’s limit, refuses the rest, and gives them member access', async () => {
    const org = await contact({ ContactType: 'organization', OrganizationName: 'Acme Works' });
    const joined = await api.post('/api/memberships/join', {
      ContactId: org,
      MembershipTypeId: orgType,
      MembershipLevelId: smallLevel,
    });
    expect(joined.statusCode, joined.body).toBe(200);
    const id = joined.json().MembershipId as number;
    const [ann, bob, cy] = [
      await person('Ann', 'Acme'),
      await person('Bob', 'Acme'),
      await person('Cy', 'Acme'),
    ];
    const url = `/api/memberships/memberships/${id}/members`;
    expect((await api.get(url)).json()).toMatchObject({ IsOrganization: true, Limit: 2, Members: [] });
    expect((await api.post(url, { ContactId: ann })).statusCode).toBe(200);
    const two = await api.post(url, { ContactId: bob });
    expect(two.statusCode, two.body).toBe(200);
    expect(
      two
        .json()
        .Members.map((m: Model) => m.ContactId)
        .sort(),
    ).toEqual([ann, bob].sort());

    const full = await api.post(url, { ContactId: cy });
    expect(full.statusCode).toBe(409);
    expect(full.json().message).toBe(SECONDARY_MESSAGES.full(2));
    const again = await api.post(url, { ContactId: ann });
    expect(again.statusCode).toBe(409);
    const primary = await api.post(url, { ContactId: org });
    expect(primary.statusCode).toBe(409);
    expect(primary.json().message).toBe(SECONDARY_MESSAGES.primary);

    const removed = await api.delete(`${url}/${bob}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await api.post(url, { ContactId: cy })).statusCode).toBe(200);
    const history = await tx((x) =>
      runFragment<{ event: string }>(
        x,
        q`select event from membership_history where membership_id = ${id} order by history_id`,
      ),
    );
    expect(history.map((h) => h.event)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Secondary member added'),
        expect.stringContaining('Secondary member removed'),
      ]),
    );

    // The member area: Ann (a secondary member) sees the organisation's membership, without its bills.
    await tx((x) =>
      x.execute(
        sql`update contacts set user_id = ${t.member.id} where tenant_id = ${t.tenant.id} and contact_id = ${ann}`,
      ),
    );
    const member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
    const mine = (await member.get('/api/mic/memberships')).json().Memberships as Model[];
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      MembershipId: id,
      CoveredBy: expect.stringContaining('Acme'),
      OpenInvoiceId: null,
    });
    // Autopay is the organisation's to set, not the secondary member's.
    expect((await member.put(`/api/mic/memberships/${id}/autopay`, { AutoPay: true })).statusCode).toBe(404);
  });

  it('refuses secondary members on an individual membership, and another association sees none', async () => {
    const who = await person('Ida', 'Solo');
    const id = (
      await api.post('/api/memberships/join', { ContactId: who, MembershipTypeId: individualType })
    ).json().MembershipId as number;
    const friend = await person('Fred', 'Solo');
    const refused = await api.post(`/api/memberships/memberships/${id}/members`, { ContactId: friend });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(SECONDARY_MESSAGES.notOrganization);
    const stranger = client(ctx.app, (await signIn(ctx.app, other.admin)).cookie);
    expect((await stranger.get(`/api/memberships/memberships/${id}/members`)).statusCode).toBe(404);
  });
});

describe('the public join page', () => {
  const join = (body: Model, ip = '10.1.2.3', tenantId = t.tenant.id) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/memberships/public/${tenantId}/join`,
      payload: body,
      remoteAddress: ip,
    });

  it('offers the open types and prices a choice without a session', async () => {
    const opts = await ctx.app.inject({
      method: 'GET',
      url: `/api/memberships/public/${t.tenant.id}/options`,
    });
    expect(opts.statusCode, opts.body).toBe(200);
    expect(opts.json().Association).toBe(t.tenant.name);
    expect(opts.json().Types.map((x: Model) => x.Name)).toEqual(
      expect.arrayContaining(['Corporate', 'Individual']),
    );
    const price = await ctx.app.inject({
      method: 'POST',
      url: `/api/memberships/public/${t.tenant.id}/price`,
      payload: { MembershipTypeId: individualType },
    });
    expect(price.statusCode, price.body).toBe(200);
    expect(price.json().FirstBill).toBe(12_000);
    const unknown = await ctx.app.inject({
      method: 'GET',
      url: '/api/memberships/public/00000000-0000-4000-8000-000000000000/options',
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('creates the contact, the pending membership and its invoice; an email already known is matched', async () => {
    const res = await join({
      MembershipTypeId: individualType,
      FirstName: 'Nora',
      LastName: 'Newcomer',
      Email: 'nora.newcomer@example.org',
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer).toMatchObject({ Status: 'pending', FirstBill: 12_000 });
    expect(answer.InvoiceId).toEqual(expect.any(Number));
    expect(answer.message).toContain(answer.InvoiceNumber);
    const [row] = await tx((x) =>
      runFragment<{ contact_id: number; contact_name: string; status: string; email: string; total: number }>(
        x,
        q`select m.contact_id, m.contact_name, m.status, c.email, i.total_cents as total from memberships m
          join contacts c on c.tenant_id = m.tenant_id and c.contact_id = m.contact_id
          join invoices i on i.tenant_id = m.tenant_id and i.invoice_id = ${answer.InvoiceId}
          where m.tenant_id = ${t.tenant.id} and m.membership_id = ${answer.MembershipId}`,
      ),
    );
    expect(row).toMatchObject({
      contact_name: 'Newcomer, Nora',
      status: 'pending',
      email: 'nora.newcomer@example.org',
    });
    expect(Number(row?.total)).toBe(12_000);

    const known = await person('Kim', 'Known', 'kim.known@example.org');
    const matched = await join(
      {
        MembershipTypeId: individualType,
        FirstName: 'Kim',
        LastName: 'Known',
        Email: 'KIM.known@example.org',
      },
      '10.1.2.4',
    );
    expect(matched.statusCode, matched.body).toBe(200);
    const [m] = await tx((x) =>
      runFragment<{ contact_id: number | string }>(
        x,
        q`select contact_id from memberships where membership_id = ${matched.json().MembershipId}`,
      ),
    );
    expect(Number(m?.contact_id)).toBe(known);

    const org = await join(
      {
        MembershipTypeId: orgType,
        MembershipLevelId: smallLevel,
        FirstName: 'Oz',
        LastName: 'Boss',
        Email: 'oz@ozco.example',
      },
      '10.1.2.5',
    );
    expect(org.statusCode).toBe(400);
    const orgOk = await join(
      {
        MembershipTypeId: orgType,
        MembershipLevelId: smallLevel,
        FirstName: 'Oz',
        LastName: 'Boss',
        Email: 'oz@ozco.example',
        Organization: 'Oz Co',
      },
      '10.1.2.5',
    );
    expect(orgOk.statusCode, orgOk.body).toBe(200);
    const [o] = await tx((x) =>
      runFragment<{ contact_type: string; contact_name: string }>(
        x,
        q`select c.contact_type, m.contact_name from memberships m join contacts c
            on c.tenant_id = m.tenant_id and c.contact_id = m.contact_id
          where m.membership_id = ${orgOk.json().MembershipId}`,
      ),
    );
    expect(o).toMatchObject({ contact_type: 'organization', contact_name: 'Oz Co' });
  });

  it('refuses bad input by field and limits joins per address', async () => {
    const bad = await join(
      { MembershipTypeId: individualType, FirstName: '', LastName: 'X', Email: 'nope' },
      '10.7.7.7',
    );
    expect(bad.statusCode).toBe(400);
    const codes: number[] = [];
    for (let i = 0; i < PUBLIC_JOINS_PER_MINUTE + 1; i++) {
      const res = await join(
        {
          MembershipTypeId: individualType,
          FirstName: 'Rae',
          LastName: `Rapid${i}`,
          Email: `rae${i}@example.org`,
        },
        '10.9.9.9',
      );
      codes.push(res.statusCode);
    }
    expect(
      codes.slice(0, PUBLIC_JOINS_PER_MINUTE - 0).filter((c) => c === 200).length,
    ).toBeGreaterThanOrEqual(PUBLIC_JOINS_PER_MINUTE - 1);
    expect(codes.at(-1)).toBe(429);
  });
});

describe('membership status on search hits', () => {
  it("shows a contact's current membership status to staff", async () => {
    const who = await person('Quincy', 'Searchable');
    const nobody = await person('Quentin', 'Searchable');
    const id = (
      await api.post('/api/memberships/join', { ContactId: who, MembershipTypeId: individualType })
    ).json().MembershipId as number;
    await tx((x) =>
      x.execute(sql`update memberships set status = 'active', term_start = ${addDays(today, -10)}::date,
          term_end = ${addDays(today, 355)}::date where tenant_id = ${t.tenant.id} and membership_id = ${id}`),
    );
    const res = await api.get('/api/search/global/backoffice/searchable?v=2');
    expect(res.statusCode, res.body).toBe(200);
    const hits = res.json().Records as Model[];
    expect(hits.find((h) => Number(h.Id) === who)?.MembershipStatus).toBe('active');
    expect(hits.find((h) => Number(h.Id) === nobody)?.MembershipStatus).toBeNull();
  });

  it("shows a secondary member the status of the organisation's membership, as a primary member's", async () => {
    const org = await contact({ ContactType: 'organization', OrganizationName: 'Findable Holdings' });
    const id = (
      await api.post('/api/memberships/join', {
        ContactId: org,
        MembershipTypeId: orgType,
        MembershipLevelId: smallLevel,
      })
    ).json().MembershipId as number;
    await tx((x) =>
      x.execute(sql`update memberships set status = 'active', term_start = ${addDays(today, -10)}::date,
          term_end = ${addDays(today, 355)}::date where tenant_id = ${t.tenant.id} and membership_id = ${id}`),
    );
    const sam = await person('Sam', 'Findable');
    const lou = await person('Lou', 'Findable');
    // Lou's own membership lapsed; the organisation's covers Sam and, once added, Lou.
    const own = (
      await api.post('/api/memberships/join', { ContactId: lou, MembershipTypeId: individualType })
    ).json().MembershipId as number;
    await tx((x) =>
      x.execute(sql`update memberships set status = 'lapsed', term_start = ${addDays(today, -500)}::date,
          term_end = ${addDays(today, -135)}::date where tenant_id = ${t.tenant.id} and membership_id = ${own}`),
    );
    const members = `/api/memberships/memberships/${id}/members`;
    expect((await api.post(members, { ContactId: sam })).statusCode).toBe(200);
    const statuses = async () => {
      const res = await api.get('/api/search/global/backoffice/findable?v=2');
      expect(res.statusCode, res.body).toBe(200);
      const hits = res.json().Records as Model[];
      return Object.fromEntries(
        [org, sam, lou].map((c) => [c, hits.find((h) => Number(h.Id) === c)?.MembershipStatus]),
      );
    };
    expect(await statuses()).toEqual({ [org]: 'active', [sam]: 'active', [lou]: 'lapsed' });
    expect((await api.post(members, { ContactId: lou })).statusCode).toBe(200);
    expect(await statuses()).toEqual({ [org]: 'active', [sam]: 'active', [lou]: 'active' });
    // Removed from the organisation's membership: their own status again (none for Sam).
    expect((await api.delete(`${members}/${sam}`)).statusCode).toBe(200);
    expect((await api.delete(`${members}/${lou}`)).statusCode).toBe(200);
    expect(await statuses()).toEqual({ [org]: 'active', [sam]: null, [lou]: 'lapsed' });
  });
});

describe('membership reports', () => {
  it('runs the roster, new members, renewals due, lapsed and dropped, and retention by month', async () => {
    const lapsedOne = await person('Lara', 'Reported');
    const id = (
      await api.post('/api/memberships/join', { ContactId: lapsedOne, MembershipTypeId: individualType })
    ).json().MembershipId as number;
    await api.post(`/api/memberships/memberships/${id}/approve`, {});
    const dropped = await api.post(`/api/memberships/memberships/${id}/drop`, { Reason: 'Moved abroad' });
    expect(dropped.statusCode, dropped.body).toBe(200);
    const run = async (reportId: string, body: Model = {}) => {
      const res = await api.post(`/api/reportExecution/run/${reportId}?format=json`, body);
      expect(res.statusCode, `${reportId}: ${res.body}`).toBe(200);
      return res.json() as { Rows: Model[]; Grouping: { Groups?: Model[] } | null };
    };
    const roster = await run('memberships.roster');
    expect(roster.Rows.every((r) => ['active', 'grace'].includes(String(r.Status)))).toBe(true);
    expect(roster.Rows.some((r) => String(r.ContactName).includes('Searchable'))).toBe(true);
    const lapsed = await run('memberships.lapsedDropped');
    expect(lapsed.Rows.find((r) => String(r.ContactName).includes('Reported'))).toMatchObject({
      Status: 'dropped',
      DropReason: 'Moved abroad',
    });
    // The shipped reports' parameters are the report builder's: a date field asks one date range (Custom: 0).
    const fresh = await run('memberships.newMembers', {
      Joined: { Range: 0, StartDate: addDays(today, -1), EndDate: addDays(today, 1) },
    });
    expect(fresh.Rows.some((r) => String(r.ContactName).includes('Reported'))).toBe(true);
    const before = await run('memberships.newMembers', { Joined: { Range: 0, EndDate: addDays(today, -1) } });
    expect(before.Rows.some((r) => String(r.ContactName).includes('Reported'))).toBe(false);
    const due = await run('memberships.renewalsDue', {
      TermEnds: { Range: 0, StartDate: today, EndDate: addDays(today, 400) },
    });
    expect(due.Rows.some((r) => String(r.ContactName).includes('Searchable'))).toBe(true);
    const wrong = await api.post('/api/reportExecution/run/memberships.renewalsDue?format=json', {
      TermEnds: 'soon',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual({ TermEnds: ['Term ends is not a date range.'] });
    const catalogue = (await api.get('/api/reportExecution/catalogue')).json() as Model[];
    expect(catalogue.find((r) => r.ReportId === 'memberships.renewalsDue')?.Parameters).toEqual([
      { name: 'TermEnds', label: 'Term ends', field: 'TermEnd', required: false },
    ]);
    const retention = await run('memberships.retentionByMonth');
    expect(retention.Grouping).not.toBeNull();
  });
});
