/**
 * R1 and R2 of the quality bars. R1 enumerates the registered API routes, so a route added later is covered
 * without editing this test: a user of tenant A asking with the ids of tenant B gets a 4xx or an answer without
 * any of B's data, and B's data is unchanged afterwards.
 */
import { rowsOf, withTenantTx } from '@guildhall/db';
import { publishTerms, writeHelpText } from '@guildhall/db/seed/factories';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
  uploadFile,
} from './helpers.ts';

let ctx: TestContext;
let a: TenantWithUsers;
let b: TenantWithUsers;
const MARK = 'ZQXSECRETB';
let bTerms = 0;
/** Every id of B's records, found in the catalogue (`foreignIds`). */
let bIds: (number | string)[] = [];
let bImport = '';

beforeAll(async () => {
  ctx = await testApp();
  a = await seedTenant(ctx.database);
  b = await seedTenant(ctx.database, `${MARK} Association`);
  bTerms = await publishTerms(ctx.database.db, {
    tenantId: b.tenant.id,
    loginType: 'staff',
    title: `${MARK} terms`,
    description: `${MARK} description`,
    acceptedBy: [b.admin.id, b.staff.id],
  });
  await writeHelpText(ctx.database.db, {
    tenantId: b.tenant.id,
    stateName: 'Secret.Screen',
    title: `${MARK} help`,
    content: MARK,
  });
  const bAdmin = client(ctx.app, (await signIn(ctx.app, b.admin)).cookie);
  await bAdmin.put('/api/status', { Message: `${MARK} status`, Level: 'info' });
  await bAdmin.put('/api/status/maintenance', {
    Message: `${MARK} maintenance`,
    StartsAt: null,
    EndsAt: null,
  });
  await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/forgot-password',
    payload: { usernameOrEmail: b.staff.username },
  });
  // The reset mail is written after the answer has gone: wait for it, so B's outbox has a row to attack with.
  await ctx.app.background.settled();
  const outbox = (await bAdmin.get('/api/mail/outbox')).json() as { id: number }[];
  await bAdmin.post('/api/setup/samples/sampleSave', {
    Name: `${MARK} sample`,
    Status: 'open',
    Answer: 'No',
  });
  await bAdmin.post('/api/setup/helpTexts/helpTextSave', {
    StateName: 'Secret.Generic',
    Title: `${MARK} generic help`,
    Content: MARK,
  });
  // Contacts: a listed contact with an entry and a link, linked to B's member, so every contacts, directory and
  // search route is attacked with B's contact, entry and link ids.
  const contact = async (model: Record<string, unknown>) =>
    (
      (
        await bAdmin.post('/api/contacts/contacts/contactSave', {
          ContactType: 'individual',
          Status: 'active',
          IsListed: true,
          PublishedFields: 63,
          ...model,
        })
      ).json() as { Data: { ContactId: number } }
    ).Data.ContactId;
  const bContact = await contact({
    FirstName: MARK,
    LastName: `${MARK}son`,
    Email: 'zqx@secret-b.org',
    City: MARK,
  });
  const bOrg = await contact({ ContactType: 'organization', OrganizationName: `${MARK} Org` });
  const entry = (
    await bAdmin.post('/api/contacts/entries/entrySave', {
      ContactId: bContact,
      Value: `${MARK.toLowerCase()}@b.org`,
    })
  ).json() as { Data: { EntryId: number } };
  const link = (
    await bAdmin.post('/api/contacts/links/linkSave', {
      ContactId: bContact,
      RelatedContactId: bOrg,
      LinkType: 'employeeOf',
    })
  ).json() as { Data: { LinkId: number } };
  await withTenantTx(ctx.database.db, { tenantId: b.tenant.id }, (tx) =>
    tx.execute(sql`update contacts set user_id = ${b.member.id} where contact_id = ${bContact}`),
  );
  // A CSV import of B (its upload, dry run and job), attacked by its id like every other record.
  const upload = await uploadFile(
    ctx.app,
    (await signIn(ctx.app, b.admin)).cookie,
    '/api/contacts/import/upload',
    `First,Last,Email\r\n${MARK},Import,import@secret-b.org`,
    `${MARK}.csv`,
  );
  bImport = (upload.json() as { ImportId: string }).ImportId;
  expect(bImport).toEqual(expect.any(String));
  await bAdmin.post('/api/contacts/import/commit', {
    ImportId: bImport,
    Mapping: { FirstName: 'First', LastName: 'Last', Email: 'Email' },
  });
  await ctx.app.worker.drain(b.tenant.id);
  bIds = await foreignIds(b.tenant.id);
  // The records made above are among them: found by the catalogue, not listed here.
  for (const id of [bContact, bOrg, entry.Data.EntryId, link.Data.LinkId, bTerms, bImport, b.member.id])
    expect(bIds, `B's id ${id}`).toContain(id);
  expect(outbox.length).toBeGreaterThan(0);
});
afterAll(() => ctx.close());

/**
 * Every id B holds, found in the catalogue rather than listed per route: the key columns (other than tenant_id) of
 * every tenant-owned table's primary key, and the users of its memberships, read in B's own scope (its three lowest
 * and its highest value of each). A table or route added later is attacked with its ids without editing this test.
 */
async function foreignIds(tenantId: string): Promise<(number | string)[]> {
  const keys = rowsOf<{ table: string; column: string; type: string }>(
    await ctx.database.db.execute(sql`
      select c.relname as table, a.attname as column, format_type(a.atttypid, a.atttypmod) as type
        from pg_index x join pg_class c on c.oid = x.indrelid join pg_namespace n on n.oid = c.relnamespace
        join pg_attribute a on a.attrelid = c.oid and a.attnum = any(x.indkey)
       where n.nspname = 'public' and x.indisprimary and a.attname <> 'tenant_id'
         and format_type(a.atttypid, a.atttypmod) in ('bigint', 'integer', 'uuid')
         and exists (select 1 from pg_attribute t where t.attrelid = c.oid and t.attname = 'tenant_id')`),
  );
  expect(keys.length).toBeGreaterThan(10);
  const ids = new Set<number | string>();
  await withTenantTx(ctx.database.db, { tenantId }, async (tx) => {
    for (const k of keys) {
      const col = sql.identifier(k.column);
      const table = sql.identifier(k.table);
      const rows = rowsOf<{ v: string }>(
        await tx.execute(sql`(select ${col}::text as v from ${table} where tenant_id = ${tenantId} order by ${col} limit 3)
          union all (select ${col}::text from ${table} where tenant_id = ${tenantId} order by ${col} desc limit 1)`),
      );
      for (const { v } of rows) ids.add(k.type === 'uuid' ? v : Number(v));
    }
  });
  return [...ids];
}

/** B's data as B sees it: compared before and after the attack. */
async function snapshotB(): Promise<string> {
  const api = client(ctx.app, (await signIn(ctx.app, b.admin)).cookie);
  const parts = await Promise.all(
    [
      '/api/setup/users',
      '/api/setup/terms/current',
      '/api/Setup/TermsofUse',
      '/api/setup/samples',
      '/api/contacts/contacts',
      '/api/contacts/entries',
      '/api/contacts/links',
      '/api/setup/helpTexts',
      '/api/help/Secret.Screen',
      '/api/status',
      '/api/status/maintenance',
      `/api/contacts/import/${bImport}`,
    ].map(async (u) => (await api.get(u)).body),
  );
  // Sign-in times change with every snapshot; everything else must not.
  return parts.join('\n').replace(/"[lL]astSignInAt":"[^"]*"/g, '');
}

function fill(url: string, id: number | string): string {
  return url.replace(/:(\w+)/g, (_m, name: string) => (name === 'stateName' ? 'Secret.Screen' : String(id)));
}

function bodiesFor(id: number | string): unknown[] {
  return [
    {},
    { id, Id: id, userId: id, TermsOfUseId: id, UserLoginTypeId: 1, IsAccepted: true },
    { UserLoginTypeId: 1, TermsOfUseId: bTerms, IsAccepted: false },
    { flags: { betaDashboard: true } },
    { Title: 'overwritten', Content: 'overwritten' },
    // Generic screen layer: a record id in the model, as its Save, SaveDraft and DuplicateCheck take it.
    {
      SampleId: id,
      Name: 'overwritten',
      Status: 'open',
      Answer: 'No',
      StateName: 'Secret.Generic',
      Content: 'overwritten',
    },
    // Contacts: the record, entry and link ids, merge, and the member's own profile.
    {
      ContactId: id,
      EntryId: id,
      LinkId: id,
      RelatedContactId: id,
      KeepContactId: id,
      MergeContactId: id,
      ContactType: 'individual',
      Status: 'active',
      LastName: 'overwritten',
      Value: 'overwritten@example.org',
      LinkType: 'employeeOf',
      Answer: 'Yes',
    },
    // A list's bulk actions on B's ids.
    { Action: 'change', Ids: [id], Changes: { LastName: 'overwritten', Name: 'overwritten' } },
    { Action: 'delete', Ids: [id] },
    // Contacts import: B's upload id with a mapping of its columns.
    { ImportId: id, Mapping: { FirstName: 'First', LastName: 'Last', Email: 'Email' } },
    // The query tool: a shipped query over contacts, and B's saved query by its name in the tool.
    { QueryName: 'contacts.withoutEmail' },
    { QueryName: `my.${id}` },
  ];
}

/**
 * Attacks every registered route with every id of B and the bodies given, signed in as `user` of A; nothing of B may
 * come back, no 5xx. Answers the number of attempts.
 */
async function attack(
  user: { username: string; password: string },
  bodies: (id: number | string) => unknown[],
): Promise<number> {
  const routes = ctx.app.apiRoutes.filter((r) => r.permission !== 'public' || r.url.includes(':'));
  expect(routes.length).toBeGreaterThan(20);
  let attempts = 0;
  // Routes that end or switch the caller's session get a fresh session of A for each attempt.
  const changesSession = /logout|impersonate|change-password|change-username|takeaction|login/;
  let cookie = (await signIn(ctx.app, user)).cookie;
  for (const route of routes) {
    for (const id of bIds) {
      for (const body of route.method === 'GET' ? [undefined] : bodies(id)) {
        if (changesSession.test(route.url)) cookie = (await signIn(ctx.app, user)).cookie;
        const attempt = () =>
          ctx.app.inject({
            method: route.method as 'GET',
            url: fill(route.url, id),
            headers: { cookie },
            ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
          });
        let res = await attempt();
        if (res.statusCode === 401 && route.permission !== 'public') {
          // An earlier attempt ended the session: attack again with a live one, so no route is skipped.
          cookie = (await signIn(ctx.app, user)).cookie;
          res = await attempt();
        }
        attempts += 1;
        if (changesSession.test(route.url)) cookie = (await signIn(ctx.app, user)).cookie;
        const where = `${user.username} ${route.method} ${route.url} ${id}`;
        expect(res.statusCode, where).toBeLessThan(500);
        expect(res.body, `${where} leaked B`).not.toContain(MARK);
        expect(res.body, `${where} leaked B's tenant id`).not.toContain(b.tenant.id);
        for (const u of [b.admin, b.staff, b.member]) {
          expect(res.body, `${where} leaked a B username`).not.toContain(u.username);
        }
        if (route.url.includes(':') && res.statusCode < 300) {
          // A 2xx on an id route must be about A's own records: the impersonated user, for instance, is never B's.
          expect(res.body, where).not.toContain(`"id":${b.admin.id},"username"`);
        }
      }
    }
  }
  return attempts;
}

describe('R1: cross-tenant isolation over every registered route', () => {
  it('never answers B data to A, whatever route, id or body', async () => {
    const before = await snapshotB();
    expect(await attack(a.admin, bodiesFor)).toBeGreaterThan(200);
    expect(await snapshotB()).toBe(before);
  }, 900_000);

  // A's member and A's staff: another role of another tenant, with B's ids in one body holding every field the
  // bodies above name (each route reads the fields it knows).
  const oneBody = (id: number | string) => [{}, Object.assign({}, ...(bodiesFor(id) as object[]))];
  it('never answers B data to a member of A', async () => {
    const before = await snapshotB();
    expect(await attack(a.member, oneBody)).toBeGreaterThan(200);
    expect(await snapshotB()).toBe(before);
  }, 900_000);

  it('never answers B data to the staff of A', async () => {
    const before = await snapshotB();
    expect(await attack(a.staff, oneBody)).toBeGreaterThan(200);
    expect(await snapshotB()).toBe(before);
  }, 900_000);
});

describe('R2: row-level security', () => {
  it('is enabled and forced on every tenant-owned table, and the app role owns nothing and cannot bypass it', async () => {
    const owner = ctx.database.ownerDb;
    // On PGlite the owner and app share one connection; read the catalogue through the app connection (catalogues are readable).
    const reader = ctx.database.kind === 'pglite' ? ctx.database.db : owner;
    const tables = rowsOf<{
      relname: string;
      relrowsecurity: boolean;
      relforcerowsecurity: boolean;
      owner: string;
    }>(
      await reader.execute(sql`
        select c.relname, c.relrowsecurity, c.relforcerowsecurity, pg_get_userbyid(c.relowner) as owner
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relkind = 'r'
           and (exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped)
                or c.relname = 'tenants')`),
    );
    expect(tables.length).toBeGreaterThanOrEqual(8);
    for (const t of tables) {
      // Identity tables: their tenant_id is the scope a token opens, read by id before an association is known
      // (the session lookup; an invitation link, decision 0162).
      if (t.relname === 'sessions' || t.relname === 'invitation_tokens') continue;
      expect(t.relrowsecurity, `${t.relname} has row-level security`).toBe(true);
      expect(t.relforcerowsecurity, `${t.relname} forces row-level security`).toBe(true);
      expect(t.owner).not.toBe('guildhall_app');
    }
    const role = rowsOf<{ rolbypassrls: boolean; rolsuper: boolean; owns: number }>(
      await reader.execute(sql`
        select r.rolbypassrls, r.rolsuper,
               (select count(*)::int from pg_class c where c.relowner = r.oid) as owns
          from pg_roles r where r.rolname = 'guildhall_app'`),
    )[0];
    expect(role).toEqual({ rolbypassrls: false, rolsuper: false, owns: 0 });
    const who = rowsOf<{ current_user: string }>(await ctx.database.db.execute(sql`select current_user`))[0];
    expect(who?.current_user).toBe('guildhall_app');
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'runs every pooled connection as the application role from its start, and RESET ROLE keeps it',
    async () => {
      // As many connections at once as the pool holds: each one is checked, not only a reused one.
      const seen = await Promise.all(
        Array.from({ length: 4 }, () =>
          ctx.database.db.transaction(async (tx) => {
            const before = rowsOf<{ u: string }>(await tx.execute(sql`select current_user as u`))[0]?.u;
            await tx.execute(sql`reset role`);
            const after = rowsOf<{ u: string }>(await tx.execute(sql`select current_user as u`))[0]?.u;
            await tx.execute(sql`select pg_sleep(0.05)`);
            return [before, after];
          }),
        ),
      );
      expect(seen).toEqual(Array.from({ length: 4 }, () => ['guildhall_app', 'guildhall_app']));
    },
  );

  it('shows no rows of any tenant-owned table when no tenant is set, and only its own rows when one is', async () => {
    const tables = rowsOf<{ relname: string }>(
      await ctx.database.db.execute(sql`
        select c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relkind = 'r' and c.relforcerowsecurity`),
    ).map((t) => t.relname);
    for (const table of tables) {
      const none = rowsOf<{ n: number }>(
        await ctx.database.db.transaction((tx) =>
          tx.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`),
        ),
      )[0];
      expect(none?.n, `${table} without a tenant`).toBe(0);
      const col = table === 'tenants' ? 'id' : 'tenant_id';
      const foreign = rowsOf<{ n: number }>(
        await withTenantTx(ctx.database.db, { tenantId: a.tenant.id }, (tx) =>
          tx.execute(
            sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.identifier(col)} <> ${a.tenant.id}`,
          ),
        ),
      )[0];
      expect(foreign?.n, `${table} rows of other tenants`).toBe(0);
    }
  });

  it('refuses to write a row into another tenant', async () => {
    const error = await withTenantTx(ctx.database.db, { tenantId: a.tenant.id }, (tx) =>
      tx.execute(
        sql`insert into help_texts (tenant_id, state_name, title, content) values (${b.tenant.id}, 'x', 'x', 'x')`,
      ),
    ).then(
      () => null,
      (e: Error & { cause?: unknown }) => e,
    );
    expect(String(error?.cause ?? error)).toMatch(/row-level security/);
  });
});
