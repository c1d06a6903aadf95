/**
 * A save names only records the association has: every lookup field of the screen layer (a sample's owner, a
 * contact link's contacts) refuses an id of another association's record with a 400 naming the field, in a save,
 * a draft and an inline edit, and stores nothing.
 */
import { contacts, withTenantTx } from '@guildhall/db';
import type { SaveResponse } from '@guildhall/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, seedTenant, signIn, type TenantWithUsers, type TestContext, testApp } from './helpers.ts';

let ctx: TestContext;
let a: TenantWithUsers;
let b: TenantWithUsers;
let api: ReturnType<typeof client>;
let cookie = '';

const newContact = async (tenantId: string, lastName: string) => {
  const [row] = await withTenantTx(ctx.database.db, { tenantId }, (tx) =>
    tx
      .insert(contacts)
      .values({ tenantId, firstName: 'Ref', lastName, displayName: `${lastName}, Ref` })
      .returning({ id: contacts.contactId }),
  );
  return row!.id;
};

beforeAll(async () => {
  ctx = await testApp();
  a = await seedTenant(ctx.database);
  b = await seedTenant(ctx.database);
  cookie = (await signIn(ctx.app, a.admin)).cookie;
  api = client(ctx.app, cookie);
});
afterAll(() => ctx.close());

describe('lookup fields', () => {
  it("refuse another association's user as a sample's owner, in a save, a draft and an inline edit", async () => {
    const foreign = await api.post('/api/setup/samples/sampleSave', {
      Name: 'Owned',
      Status: 'open',
      IsActive: true,
      OwnerUserId: b.admin.id,
    });
    expect(foreign.statusCode, foreign.body).toBe(400);
    expect(foreign.json().errors).toHaveProperty('OwnerUserId');
    expect(foreign.json().message).toMatch(/^Owner: /);
    const missing = await api.post('/api/setup/samples/sampleSave', {
      Name: 'Owned',
      Status: 'open',
      IsActive: true,
      OwnerUserId: 987654321,
    });
    expect(missing.statusCode).toBe(400);
    const draft = await api.post('/api/setup/samples/sampleSaveDraft', {
      Name: 'Draft',
      Status: 'open',
      IsActive: true,
      OwnerUserId: b.staff.id,
    });
    expect(draft.statusCode).toBe(400);

    const own = await api.post('/api/setup/samples/sampleSave', {
      Name: 'Owned',
      Status: 'open',
      IsActive: true,
      OwnerUserId: a.staff.id,
    });
    expect(own.statusCode, own.body).toBe(200);
    const id = (own.json() as SaveResponse).Data.SampleId;
    const inline = (OwnerUserId: number) =>
      ctx.app.inject({
        method: 'POST',
        url: `/api/setup/samples/sampleInlineEdit/${id}`,
        headers: { cookie, 'content-type': 'application/json' },
        payload: JSON.stringify(JSON.stringify({ OwnerUserId })),
      });
    const foreignInline = await inline(b.member.id);
    expect(foreignInline.statusCode, foreignInline.body).toBe(400);
    expect(foreignInline.json().errors).toHaveProperty('OwnerUserId');
    const stored = await api.post('/api/setup/samples/sampleGet', { id });
    expect(stored.json().OwnerUserId).toBe(a.staff.id);
    expect((await inline(a.member.id)).statusCode).toBe(200);
  });

  it("refuse another association's contact in a contact link", async () => {
    const mine = await newContact(a.tenant.id, 'Mine');
    const alsoMine = await newContact(a.tenant.id, 'AlsoMine');
    // Another association's contact, by an id this association has no contact under (ids may be per association).
    const theirIds = [];
    for (let i = 0; i < 3; i++) theirIds.push(await newContact(b.tenant.id, `Theirs${i}`));
    const theirs = theirIds.find((id) => id !== mine && id !== alsoMine) as number;
    const foreign = await api.post('/api/contacts/links/linkSave', {
      ContactId: mine,
      RelatedContactId: theirs,
      LinkType: 'employeeOf',
    });
    expect(foreign.statusCode, foreign.body).toBe(400);
    expect(Object.keys(foreign.json().errors ?? {}), foreign.body).toEqual(['RelatedContactId']);
    const both = await api.post('/api/contacts/links/linkSave', {
      ContactId: theirs,
      RelatedContactId: theirs,
      LinkType: 'employeeOf',
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().errors, both.body).toHaveProperty('ContactId');
    const ok = await api.post('/api/contacts/links/linkSave', {
      ContactId: mine,
      RelatedContactId: alsoMine,
      LinkType: 'employeeOf',
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
