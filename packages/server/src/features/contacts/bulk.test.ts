/** The list's bulk actions on contacts: one request deletes or changes the selected rows, each on its own. */
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
const base = '/api/contacts/contacts';

async function newContact(c: ReturnType<typeof client>, LastName: string): Promise<number> {
  const res = await c.post(`${base}/contactSave`, {
    ContactType: 'individual',
    Status: 'prospect',
    FirstName: 'Bulk',
    LastName,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().Data.ContactId;
}

const read = async (id: number) => (await staff.post(`${base}/contactGet`, { id })).json();

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  staff = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
});
afterAll(() => ctx.close());

describe('bulk actions on selected contacts', () => {
  it('changes a field of each selected contact in one request, with an audit entry each', async () => {
    const ids = [await newContact(staff, 'Able'), await newContact(staff, 'Baker')];
    const res = await staff.post(`${base}/contactBulk`, {
      Action: 'change',
      Ids: ids,
      Changes: { Status: 'active' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ Done: ids.map(String), Failed: [] });
    for (const id of ids) expect((await read(id)).Status).toBe('active');
    const admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
    const audit = (await admin.get('/api/audit')).json();
    const entries = JSON.stringify(audit);
    for (const id of ids) expect(entries).toContain(String(id));
  });

  it('deletes the selected contacts; one it cannot find is answered with why, the others are done', async () => {
    const mine = [await newContact(staff, 'Carter'), await newContact(staff, 'Dunn')];
    const otherStaff = client(ctx.app, (await signIn(ctx.app, other.staff)).cookie);
    // Ids are numbered per association: the other one's contacts with the same numbers stay as they are.
    const theirs = [await newContact(otherStaff, 'Elsewhere'), await newContact(otherStaff, 'Elsewise')];
    const missing = 999_999;
    const res = await staff.post(`${base}/contactBulk`, {
      Action: 'delete',
      Ids: [mine[0], missing, mine[1]],
    });
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer.Done).toEqual(mine.map(String));
    expect(answer.Failed).toHaveLength(1);
    expect(answer.Failed[0].Id).toBe(String(missing));
    expect(answer.Failed[0].Message).toMatch(/not found|no such|does not exist/i);
    for (const id of mine) expect((await staff.post(`${base}/contactGet`, { id })).statusCode).toBe(404);
    for (const id of theirs)
      expect((await otherStaff.post(`${base}/contactGet`, { id })).statusCode).toBe(200);
  });

  it('answers an invalid change per record and leaves the record as it was', async () => {
    const id = await newContact(staff, 'Ford');
    const res = await staff.post(`${base}/contactBulk`, {
      Action: 'change',
      Ids: [id],
      Changes: { Status: 'no-such-status' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Done).toEqual([]);
    expect(res.json().Failed[0]).toMatchObject({ Id: String(id) });
    expect((await read(id)).Status).toBe('prospect');
  });

  it('refuses a member, an empty or oversized selection and an unknown action', async () => {
    const member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
    const id = await newContact(staff, 'Gray');
    expect((await member.post(`${base}/contactBulk`, { Action: 'delete', Ids: [id] })).statusCode).toBe(403);
    expect((await staff.post(`${base}/contactBulk`, { Action: 'delete', Ids: [] })).statusCode).toBe(400);
    const many = Array.from({ length: 1001 }, (_, i) => i + 1);
    expect((await staff.post(`${base}/contactBulk`, { Action: 'delete', Ids: many })).statusCode).toBe(400);
    expect((await staff.post(`${base}/contactBulk`, { Action: 'merge', Ids: [id] })).statusCode).toBe(400);
    expect((await read(id)).LastName).toBe('Gray');
  });
});
