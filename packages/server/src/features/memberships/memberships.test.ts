/**
 * Memberships through the API: setup on the generic layer, live pricing with a bill-frequency change, joining,
 * every lifecycle transition and refusal with its history, the counts, and another association seeing nothing.
 */
import { withTenantTx } from '@guildhall/db';
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

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let api: ReturnType<typeof client>;
let apiOther: ReturnType<typeof client>;
let member: ReturnType<typeof client>;
type Model = Record<string, unknown>;

async function save(path: string, view: string, model: Model, c = api): Promise<Model> {
  const res = await c.post(`/api/memberships/${path}/${view}Save`, model);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { Data: Model }).Data;
}

let typeId: number;
let levelId: number;
let chapterId: number;
let contactId: number;

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  api = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
  apiOther = client(ctx.app, (await signIn(ctx.app, other.staff)).cookie);
  member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
  const type = await save('types', 'type', {
    Name: 'Individual',
    TermKind: 'anniversary',
    DurationMonths: 12,
    GraceDays: 30,
    RenewalDaysBefore: 30,
    IsActive: true,
  });
  typeId = type.MembershipTypeId as number;
  const level = await save('levels', 'level', { MembershipTypeId: typeId, Name: 'Regular', SortOrder: 1 });
  levelId = level.MembershipLevelId as number;
  const chapter = await save('chapters', 'chapter', { Name: 'North', Region: 'North' });
  chapterId = chapter.ChapterId as number;
  // Decision 0012 example 6: $250 dues, $1.50 every bill, $25 one time, $30 once per term.
  await save('fees', 'fee', {
    MembershipTypeId: typeId,
    FeeId: 1,
    Name: 'Annual dues',
    OriginalPrice: 25_000,
    BillFrequencyTypeId: 12,
  });
  await save('fees', 'fee', {
    MembershipTypeId: typeId,
    FeeId: 2,
    Name: 'Processing',
    OriginalPrice: 0,
    PerBillAmount: 150,
    BillFrequencyTypeId: 254,
  });
  await save('fees', 'fee', {
    MembershipTypeId: typeId,
    FeeId: 3,
    Name: 'Application',
    OriginalPrice: 2_500,
    BillFrequencyTypeId: 0,
  });
  await save('fees', 'fee', {
    MembershipTypeId: typeId,
    FeeId: 4,
    Name: 'Chapter fee',
    OriginalPrice: 3_000,
    BillFrequencyTypeId: 255,
  });
  await save('frequencies', 'frequency', {
    MembershipTypeId: typeId,
    BillFrequencyTypeId: 12,
    Name: 'Annually',
    IsDefault: true,
  });
  await save('frequencies', 'frequency', {
    MembershipTypeId: typeId,
    BillFrequencyTypeId: 1,
    Name: 'Monthly',
    PriceChangePercentage: '3',
  });
  const contact = await api.post('/api/contacts/contacts/contactSave', {
    ContactType: 'individual',
    Status: 'active',
    FirstName: 'Ada',
    LastName: 'Lovelace',
  });
  contactId = (contact.json() as { Data: Model }).Data.ContactId as number;
});
afterAll(async () => {
  await ctx?.close();
});

describe('pricing', () => {
  it('offers the open types with levels, frequencies and the chapters', async () => {
    const res = await api.get('/api/memberships/options');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.Types).toEqual([
      expect.objectContaining({
        MembershipTypeId: typeId,
        Name: 'Individual',
        Levels: [{ MembershipLevelId: levelId, Name: 'Regular' }],
        Frequencies: [
          { BillFrequencyTypeId: 1, Name: 'Monthly', IsDefault: false },
          { BillFrequencyTypeId: 12, Name: 'Annually', IsDefault: true },
        ],
      }),
    ]);
    expect(body.Chapters).toEqual([{ ChapterId: chapterId, Name: 'North' }]);
  });

  it('changing the bill frequency recalculates every item (decision 0012, example 6)', async () => {
    const choice = { MembershipTypeId: typeId, MembershipLevelId: levelId, ChapterId: chapterId };
    const annual = (await api.post('/api/memberships/price', { ...choice, JoinDate: '2025-03-15' })).json();
    expect(annual.Name).toBe('Individual - Regular - North');
    expect(annual.BillFrequencyTypeId).toBe(12);
    expect(annual.TermStart).toBe('2025-03-15');
    expect(annual.TermEnd).toBe('2026-03-14');
    expect(annual.Bills).toEqual([25_000 + 150 + 2_500 + 3_000]);
    expect(annual.FirstBill).toBe(30_650);

    const monthly = (
      await api.post('/api/memberships/price', { ...choice, BillFrequencyTypeId: 1, JoinDate: '2025-03-15' })
    ).json();
    const dues = monthly.FeeItems.find((i: Model) => i.Name === 'Annual dues');
    expect(dues).toMatchObject({ Price: 25_750, PerBillAmount: 2_146, BillFrequency: 12 });
    expect(monthly.Bills).toHaveLength(12);
    expect(monthly.Bills[0]).toBe(7_796);
    expect(monthly.TermTotal).toBe(33_050);
    expect(monthly.FirstBill).toBe(7_796);
  });

  it('refuses a frequency the type does not offer and a level of nothing', async () => {
    const res = await api.post('/api/memberships/price', {
      MembershipTypeId: typeId,
      MembershipLevelId: levelId,
      BillFrequencyTypeId: 3,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('This membership cannot be billed that often.');
    const noLevel = await api.post('/api/memberships/price', { MembershipTypeId: typeId });
    expect(noLevel.statusCode).toBe(400);
    expect(noLevel.json().message).toBe('Choose a level.');
  });

  it('prorates a late join into a calendar year and moves one past the cut-off to the next year', async () => {
    const cal = await save('types', 'type', {
      Name: 'Student',
      TermKind: 'calendar',
      DurationMonths: 12,
      CalendarStartMonth: 1,
      ProrationRule: 'monthly',
      CutoffDays: 61,
      IsActive: true,
    });
    await save('fees', 'fee', {
      MembershipTypeId: cal.MembershipTypeId,
      FeeId: 1,
      Name: 'Dues',
      OriginalPrice: 12_000,
      BillFrequencyTypeId: 12,
    });
    const july = (
      await api.post('/api/memberships/price', {
        MembershipTypeId: cal.MembershipTypeId,
        JoinDate: '2025-07-15',
      })
    ).json();
    expect(july).toMatchObject({ TermEnd: '2025-12-31', FirstBill: 6_000, TermTotal: 12_000 });
    const december = (
      await api.post('/api/memberships/price', {
        MembershipTypeId: cal.MembershipTypeId,
        JoinDate: '2025-12-31',
      })
    ).json();
    expect(december).toMatchObject({ TermEnd: '2026-12-31', FirstBill: 12_000 });
  });
});

describe('lifecycle', () => {
  async function join(): Promise<number> {
    const res = await api.post('/api/memberships/join', {
      ContactId: contactId,
      MembershipTypeId: typeId,
      MembershipLevelId: levelId,
      ChapterId: chapterId,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Status).toBe('pending');
    return res.json().MembershipId as number;
  }
  const act = (id: number, which: string, body: Model = {}) =>
    api.post(`/api/memberships/memberships/${id}/${which}`, body);

  it('joins pending with its priced fees, the contact’s name and a history entry', async () => {
    const id = await join();
    const record = (await api.post('/api/memberships/memberships/membershipGet', { id })).json();
    expect(record).toMatchObject({
      ContactId: contactId,
      ContactName: 'Lovelace, Ada',
      Name: 'Individual - Regular - North',
      Status: 'pending',
      TermTotal: 30_650,
    });
    const fees = (
      await api.post('/api/memberships/fee-items/feeItemData?$top=50', {
        Id: 9999,
        Criteria: [{ PropertyName: 'MembershipId', Operator: 'eq', Value: id }],
      })
    ).json();
    expect(fees.Results.map((f: Model) => f.Name).sort()).toEqual([
      'Annual dues',
      'Application',
      'Chapter fee',
      'Processing',
    ]);
  });

  it('approves, drops with a reason, reinstates; refuses what the status does not allow', async () => {
    const id = await join();
    const reinstatePending = await act(id, 'reinstate');
    expect(reinstatePending.statusCode).toBe(409);
    expect(reinstatePending.json().message).toBe('A pending membership cannot be reinstated.');

    const approved = await act(id, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ Status: 'active', Actions: ['drop'] });
    expect((await act(id, 'approve')).json().message).toBe('An active membership cannot be approved.');

    const noReason = await act(id, 'drop', { Reason: '  ' });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe('Give a reason for dropping the membership.');
    const dropped = await act(id, 'drop', { Reason: 'Moved abroad' });
    expect(dropped.json()).toMatchObject({
      Status: 'dropped',
      DropReason: 'Moved abroad',
      Actions: ['reinstate'],
    });
    expect((await act(id, 'drop', { Reason: 'again' })).statusCode).toBe(409);

    const back = await act(id, 'reinstate');
    expect(back.json()).toMatchObject({ Status: 'active', DropReason: null });

    const history = (
      await api.post('/api/memberships/history/changeData?$top=50', {
        Id: 9999,
        Criteria: [{ PropertyName: 'MembershipId', Operator: 'eq', Value: id }],
      })
    ).json();
    expect(
      history.Results.map((h: Model) => [h.Event, h.FromStatus, h.ToStatus, h.Reason]).reverse(),
    ).toEqual([
      ['Applied', null, 'pending', null],
      ['Approved', 'pending', 'active', null],
      ['Dropped', 'active', 'dropped', 'Moved abroad'],
      ['Reinstated', 'dropped', 'active', null],
    ]);
    const staffName = history.Results[0].ChangedBy as string;
    expect(staffName).not.toBe('System');
  });

  it('counts members for the dashboard', async () => {
    const res = await api.get('/api/memberships/counts');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Active).toBeGreaterThanOrEqual(1);
    expect(
      res
        .json()
        .ByStatus.map((s: Model) => s.Status)
        .sort(),
    ).toContain('pending');
  });

  it('another association sees none of it and cannot act on it', async () => {
    const id = await join();
    expect((await apiOther.post(`/api/memberships/memberships/${id}/approve`, {})).statusCode).toBe(404);
    expect((await apiOther.get('/api/memberships/options')).json().Types).toEqual([]);
    const joinThere = await apiOther.post('/api/memberships/join', {
      ContactId: contactId,
      MembershipTypeId: typeId,
      MembershipLevelId: levelId,
    });
    expect(joinThere.statusCode).toBe(400);
  });

  it('a member cannot use the staff routes', async () => {
    expect((await member.get('/api/memberships/options')).statusCode).toBe(403);
    const join = await member.post('/api/memberships/join', {
      ContactId: contactId,
      MembershipTypeId: typeId,
    });
    expect(join.statusCode).toBe(403);
  });
});

describe('the member area', () => {
  it('shows the member their own memberships and lets them turn autopay on and off, nobody else’s', async () => {
    await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(sql`update contacts set user_id = ${t.member.id} where tenant_id = ${t.tenant.id}
        and contact_id = ${contactId}`),
    );
    const mine = await member.get('/api/mic/memberships');
    expect(mine.statusCode, mine.body).toBe(200);
    const list = mine.json().Memberships as Model[];
    expect(list.length).toBeGreaterThan(0);
    expect(list[0]).toMatchObject({ Name: 'Individual - Regular - North', AutoPay: false });
    expect(((list[0] as Model).Fees as Model[]).map((f) => f.Name)).toContain('Annual dues');
    const id = list[0]?.MembershipId as number;
    const on = await member.put(`/api/mic/memberships/${id}/autopay`, { AutoPay: true });
    expect(on.statusCode, on.body).toBe(200);
    expect((on.json().Memberships as Model[]).find((m) => m.MembershipId === id)?.AutoPay).toBe(true);
    const record = (await api.post('/api/memberships/memberships/membershipGet', { id })).json();
    expect(record.AutoPay).toBe(true);

    // Another member's membership is not theirs to change.
    const stranger = await api.post('/api/contacts/contacts/contactSave', {
      ContactType: 'individual',
      Status: 'active',
      FirstName: 'Other',
      LastName: 'Person',
    });
    const strangerId = (stranger.json() as { Data: Model }).Data.ContactId as number;
    const theirs = await api.post('/api/memberships/join', {
      ContactId: strangerId,
      MembershipTypeId: typeId,
      MembershipLevelId: levelId,
    });
    const theirId = theirs.json().MembershipId as number;
    expect((await member.put(`/api/mic/memberships/${theirId}/autopay`, { AutoPay: true })).statusCode).toBe(
      404,
    );
    expect((await api.get('/api/mic/memberships')).statusCode).toBe(403);
  });
});
