/**
 * The search box of a large resource without a search index of its own (decision 0102), on the events list: every
 * word typed must appear in one of the search fields (name, location), whatever their order and case; deleted rows
 * and another association's rows never match; the total counts the matches; a sort and a filter still apply.
 */
import type { Model } from '@guildhall/shared';
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
let staff: ReturnType<typeof client>;
let otherStaff: ReturnType<typeof client>;

const day = (days: number, hour: number) => {
  const d = new Date(Date.UTC(2027, 2, 1 + days, hour, 0, 0));
  return d.toISOString();
};
async function saveEvent(
  c: ReturnType<typeof client>,
  Name: string,
  Location: string,
  days: number,
  Status = 'published',
) {
  const res = await c.post('/api/events/events/eventSave', {
    Name,
    Location,
    Status,
    Visibility: 'public',
    TimezoneId: 'America/Chicago',
    StartsAt: day(days, 15),
    EndsAt: day(days, 17),
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { Data: Model }).Data;
}
async function search(c: ReturnType<typeof client>, text: string, orderby = 'StartsAt asc', filter = 0) {
  const res = await c.post(
    `/api/events/events/eventData?$top=50&$orderby=${encodeURIComponent(orderby)}&$search=${encodeURIComponent(text)}`,
    { Id: filter },
  );
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as { Results: Model[]; TotalRecordAvailable: number; TotalIsEstimate?: boolean };
  return {
    names: body.Results.map((r) => r.Name),
    total: body.TotalRecordAvailable,
    estimate: body.TotalIsEstimate,
  };
}

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  staff = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
  otherStaff = client(ctx.app, (await signIn(ctx.app, other.staff)).cookie);
  await saveEvent(staff, 'Spring Workshop', 'Houston Convention Center', 3);
  await saveEvent(staff, 'Autumn workshop', 'Austin Public Library', 1);
  await saveEvent(staff, 'Board meeting', 'Houston office', 2, 'draft');
  await saveEvent(staff, 'Workshop 100% hands-on', 'Online', 4);
  const gone = await saveEvent(staff, 'Houston workshop (cancelled)', 'Houston', 5);
  expect((await staff.delete(`/api/events/events/${gone.EventId}`)).statusCode).toBe(200);
  await saveEvent(otherStaff, 'Houston workshop elsewhere', 'Houston', 1);
});
afterAll(() => ctx.close());

describe('the search box of a large list through its trigram index', () => {
  it('finds rows where every word appears in some search field, in any order and case', async () => {
    expect(await search(staff, 'workshop')).toEqual({
      names: ['Autumn workshop', 'Spring Workshop', 'Workshop 100% hands-on'],
      total: 3,
      estimate: undefined,
    });
    // One word in the name, the other in the location.
    expect((await search(staff, 'HOUSTON workshop')).names).toEqual(['Spring Workshop']);
    expect((await search(staff, 'workshop houston')).names).toEqual(['Spring Workshop']);
    expect((await search(staff, 'hous')).names).toEqual(['Board meeting', 'Spring Workshop']);
    expect((await search(staff, 'nowhere')).total).toBe(0);
  });

  it('takes % and _ as the characters they are', async () => {
    expect((await search(staff, '100%')).names).toEqual(['Workshop 100% hands-on']);
    expect((await search(staff, '1_0')).total).toBe(0);
  });

  it("keeps the list's sort and filter, and never shows deleted rows or another association's", async () => {
    expect((await search(staff, 'workshop', 'StartsAt desc')).names).toEqual([
      'Workshop 100% hands-on',
      'Spring Workshop',
      'Autumn workshop',
    ]);
    // The Drafts filter with a word only the draft and a published event share.
    expect((await search(staff, 'houston', 'Name asc', 2)).names).toEqual(['Board meeting']);
    expect((await search(staff, 'cancelled')).total).toBe(0);
    expect((await search(otherStaff, 'houston')).names).toEqual(['Houston workshop elsewhere']);
  });
});

describe('the lookup of a record already chosen', () => {
  it('answers the one option of an id (its name for a form or the record details), none for another association', async () => {
    const mine = await saveEvent(staff, 'Gala dinner', 'Ballroom', 6);
    const theirs = await saveEvent(otherStaff, 'Their gala', 'Elsewhere', 6);
    const lookup = async (c: ReturnType<typeof client>, id: string) => {
      const res = await c.get(`/api/events/events/eventLookup?id=${encodeURIComponent(id)}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { Id: unknown; Name: string; ExtraData: unknown }[];
    };
    const [option, more] = await lookup(staff, String(mine.EventId));
    expect(more).toBeUndefined();
    expect(option).toMatchObject({ Id: mine.EventId, Name: 'Gala dinner' });
    expect(option?.ExtraData).toEqual({ StartsAt: mine.StartsAt });
    // The other association's event has its own number: asking for it by this association's id finds nothing.
    expect(await lookup(otherStaff, String(mine.EventId))).toEqual(
      theirs.EventId === mine.EventId ? [expect.objectContaining({ Name: 'Their gala' })] : [],
    );
    expect(await lookup(staff, '999999')).toEqual([]);
    expect(await lookup(staff, 'not-a-number')).toEqual([]);
  });
});
