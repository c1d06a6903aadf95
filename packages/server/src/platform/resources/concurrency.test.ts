/**
 * Optimistic concurrency (decision 0095): a save or inline edit against a stale version answers 409 with the
 * record as it is now; with TEST_DATABASE_URL the concurrent saves race on real PostgreSQL connections.
 */
import { rowsOf, withTenantTx } from '@guildhall/db';
import { CONCURRENCY_CONFLICT_MESSAGE, type ListResponse, type SaveResponse } from '@guildhall/shared';
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
let api: ReturnType<typeof client>;
let other: ReturnType<typeof client>;
let cookie: string;
const contacts = '/api/contacts/contacts';

async function newContact(lastName: string) {
  const res = await api.post(`${contacts}/contactSave`, {
    ContactType: 'individual',
    Status: 'active',
    FirstName: 'Ada',
    LastName: lastName,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as SaveResponse).Data;
}

beforeAll(async () => {
  ctx = await testApp({}, 8);
  t = await seedTenant(ctx.database);
  cookie = (await signIn(ctx.app, t.admin)).cookie;
  api = client(ctx.app, cookie);
  other = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
});
afterAll(() => ctx.close());

describe('record versions', () => {
  it('starts a record at version 1 and moves it on with every save, also one made outside the screens', async () => {
    const created = await newContact('Versioned');
    expect(created.Version).toBe(1);
    const got = await api.post(`${contacts}/contactGet`, { id: created.ContactId });
    expect(got.json().Version).toBe(1);
    const saved = await api.post(`${contacts}/contactSave`, { ...created, City: 'Leeds' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().Data.Version).toBe(2);
    // A write that is not the generic engine's (an import, a merge) moves the version on as well.
    await withTenantTx(ctx.database.db, { tenantId: t.tenant.id, userId: t.admin.id }, (tx) =>
      tx.execute(sql`update contacts set city = 'York' where contact_id = ${created.ContactId}`),
    );
    const after = await api.post(`${contacts}/contactGet`, { id: created.ContactId });
    expect(after.json()).toMatchObject({ City: 'York', Version: 3 });
    const list = await api.post(`${contacts}/contactData?$top=50`, {});
    const row = (list.json() as ListResponse).Results.find((r) => r.ContactId === created.ContactId);
    expect(row?.Version).toBe(3);
  });

  it('answers 409 with the current record to a save of a version someone else saved over; saving over it takes the new version', async () => {
    const loaded = await newContact('Stale');
    const first = await other.post(`${contacts}/contactSave`, { ...loaded, City: 'Their city' });
    expect(first.statusCode, first.body).toBe(200);
    const mine = await api.post(`${contacts}/contactSave`, { ...loaded, City: 'My city' });
    expect(mine.statusCode).toBe(409);
    const conflict = mine.json();
    expect(conflict).toMatchObject({
      message: CONCURRENCY_CONFLICT_MESSAGE,
      class: 'ConcurrencyConflict',
      Current: { ContactId: loaded.ContactId, City: 'Their city', Version: 2 },
    });
    const still = await api.post(`${contacts}/contactGet`, { id: loaded.ContactId });
    expect(still.json().City).toBe('Their city');
    // The user chose to save theirs over: the version they now name is the current one.
    const over = await api.post(`${contacts}/contactSave`, {
      ...loaded,
      City: 'My city',
      Version: conflict.Current.Version,
    });
    expect(over.statusCode, over.body).toBe(200);
    expect(over.json().Data).toMatchObject({ City: 'My city', Version: 3 });
  });

  it('checks an inline edit that names its version, from a JSON string body', async () => {
    const loaded = await newContact('Inline');
    const edit = async (changes: Record<string, unknown>) =>
      ctx.app.inject({
        method: 'POST',
        url: `${contacts}/contactInlineEdit/${loaded.ContactId}`,
        headers: { cookie, 'content-type': 'application/json' },
        payload: JSON.stringify(JSON.stringify(changes)),
      });
    const ok = await edit({ City: 'Bath', Version: 1 });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().Data.Version).toBe(2);
    const stale = await edit({ City: 'Hull', Version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().Current.City).toBe('Bath');
  });

  it('refuses to delete a record changed since the version the user saw; the version seen deletes it', async () => {
    const created = await newContact('Deleted');
    const changed = await other.post(`${contacts}/contactSave`, { ...created, City: 'Derby' });
    expect(changed.statusCode, changed.body).toBe(200);
    const stale = await api.delete(`${contacts}/${created.ContactId}?Version=${created.Version}`);
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      message: CONCURRENCY_CONFLICT_MESSAGE,
      class: 'ConcurrencyConflict',
      Current: { City: 'Derby', Version: 2 },
    });
    expect((await api.post(`${contacts}/contactGet`, { id: created.ContactId })).statusCode).toBe(200);
    const ok = await api.delete(`${contacts}/${created.ContactId}?Version=2`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await api.post(`${contacts}/contactGet`, { id: created.ContactId })).statusCode).toBe(404);
  });

  it('saves without a check when the client names no version (clients that do not know it)', async () => {
    const loaded = await newContact('Unversioned');
    const { Version: _v, ...model } = loaded;
    for (const city of ['One', 'Two']) {
      const res = await api.post(`${contacts}/contactSave`, { ...model, City: city });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect((await api.post(`${contacts}/contactGet`, { id: loaded.ContactId })).json().Version).toBe(3);
  });

  it('lets exactly one of 50 concurrent saves of one version win; the other 49 get 409 and lose nothing silently', async () => {
    const loaded = await newContact('Race');
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 === 0 ? api : other).post(`${contacts}/contactSave`, { ...loaded, City: `City ${i}` }),
      ),
    );
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    const winner = results.find((r) => r.statusCode === 200)?.json().Data as {
      City: string;
      Version: number;
    };
    expect(winner.Version).toBe(2);
    const stored = (await api.post(`${contacts}/contactGet`, { id: loaded.ContactId })).json();
    expect(stored).toMatchObject({ City: winner.City, Version: 2 });
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json().Current.Version).toBe(2);
    // One audit entry for the one save that happened.
    const audit = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id, userId: t.admin.id }, (tx) =>
      tx.execute(
        sql`select count(*)::int as n from audit_log where entity = 'contacts' and entity_id = ${String(loaded.ContactId)} and action = 'update'`,
      ),
    );
    expect(rowsOf<{ n: number }>(audit)[0]?.n).toBe(1);
  });

  it('versions every writable record of the generic layer', async () => {
    const { discoverResources } = await import('./registry.ts');
    for (const bound of await discoverResources()) {
      const c = bound.resource.capabilities;
      if (bound.resource.permissions.write && (c.update || c.inlineEdit))
        expect(bound.versionColumn, `${bound.resource.name} has no version column`).toBeDefined();
    }
  });
});
