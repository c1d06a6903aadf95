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
  await ctx.app.worker.drain();
  bIds = [
    bImport,
    b.admin.id,
    b.staff.id,
    b.member.id,
    bTerms,
    ...outbox.map((m) => m.id),
    bContact,
    bOrg,
    entry.Data.EntryId,
    link.Data.LinkId,
  ];
});
afterAll(() => ctx.close());

/** B's data as B sees it: compared before and after the attack. */
async function snapshotB(): Promise<string> {
  const api = client(ctx.app, (await signIn(ctx.app, b.admin)).cookie);
  const parts = await Promise.all(
    [
      '/api/users',
      '/api/setup/terms',
      '/api/setup/samples',
      '/api/contacts/contacts',
      '/api/contacts/entries',
      '/api/contacts/links',
      '/api/setup/helpTexts',
      '/api/help/Secret.Screen',
      '/api/status',
      '/api/status/maintenance',
      '/api/settings/tenant',
      `/api/contacts/import/${bImport}`,
    ].map(async (u) => (await api.get(u)).body),
  );
  // Sign-in times change with every snapshot; everything else must not.
  return parts.join('\n').replace(/"lastSignInAt":"[^"]*"/g, '');
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
    // Contacts import: B's upload id with a mapping of its columns.
    { ImportId: id, Mapping: { FirstName: 'First', LastName: 'Last', Email: 'Email' } },
  ];
}

describe('R1: cross-tenant isolation over every registered route', () => {
  it('never answers B data to A, whatever route, id or body', async () => {
    const before = await snapshotB();
    const routes = ctx.app.apiRoutes.filter((r) => r.permission !== 'public' || r.url.includes(':'));
    expect(routes.length).toBeGreaterThan(20);
    let attempts = 0;
    // Routes that end or switch the caller's session get a fresh session of A for each attempt.
    const changesSession = /logout|impersonate|change-password|change-username|takeaction|login/;
    let cookie = (await signIn(ctx.app, a.admin)).cookie;
    for (const route of routes) {
      for (const id of [...new Set(bIds)]) {
        for (const body of route.method === 'GET' ? [undefined] : bodiesFor(id)) {
          if (changesSession.test(route.url)) cookie = (await signIn(ctx.app, a.admin)).cookie;
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
            cookie = (await signIn(ctx.app, a.admin)).cookie;
            res = await attempt();
          }
          attempts += 1;
          if (changesSession.test(route.url)) cookie = (await signIn(ctx.app, a.admin)).cookie;
          expect(res.statusCode, `${route.method} ${route.url}`).toBeLessThan(500);
          expect(res.body, `${route.method} ${route.url} leaked B`).not.toContain(MARK);
          expect(res.body, `${route.method} ${route.url} leaked B's tenant id`).not.toContain(b.tenant.id);
          for (const u of [b.admin, b.staff, b.member]) {
            expect(res.body, `${route.method} ${route.url} leaked a B username`).not.toContain(u.username);
          }
          if (route.url.includes(':') && res.statusCode < 300) {
            // A 2xx on an id route must be about A's own records: the impersonated user, for instance, is never B's.
            expect(res.body).not.toContain(`"id":${b.admin.id},"username"`);
          }
        }
      }
    }
    expect(attempts).toBeGreaterThan(200);
    expect(await snapshotB()).toBe(before);
  }, 480_000);
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
      if (t.relname === 'sessions') continue; // identity table: its tenant_id is the session's scope, read by the lookup only
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
