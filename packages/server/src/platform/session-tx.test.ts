/**
 * Lists look the session up inside their own tenant transaction (one round trip for `begin`, the session and the
 * scope). The same access rules must hold as for routes checked before the handler, and the opening transaction
 * must roll back and give its connection back whatever happens.
 */
import { q, rowsOf, withOpeningTx, withTenantTx } from '@guildhall/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
  testDatabase,
} from '../../test/helpers.ts';
import { buildApp } from '../app.ts';
import { features } from '../features/index.ts';
import { defineFeature } from './feature-module.ts';
import { hashToken, readWithSession, type SessionHint, sessionHint, withSessionTx } from './session.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
const list = '/api/contacts/contacts/contactData?$top=50&$skip=0';

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
});
afterAll(() => ctx.close());

async function contact(api: ReturnType<typeof client>, name: string) {
  const res = await api.post('/api/contacts/contacts/contactSave', {
    ContactType: 'individual',
    Status: 'active',
    FirstName: name,
    LastName: 'Scoped',
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('a list looks its session up inside its transaction', () => {
  it('answers the session tenant only, with the tenant page size from the lookup', async () => {
    const api = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
    const apiOther = client(ctx.app, (await signIn(ctx.app, other.staff)).cookie);
    await contact(api, 'Mine');
    await contact(apiOther, 'Theirs');
    // The page size comes with the session lookup: a change shows on the next request of a live session.
    const admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
    const current = await admin.post('/api/settings/tenantSettings/tenantSettingsGet', {});
    expect(current.statusCode, current.body).toBe(200);
    const saved = await admin.post('/api/settings/tenantSettings/tenantSettingsSave', {
      ...(current.json() as Record<string, unknown>),
      ListPageSize: 37,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const res = await api.post(list, {});
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { Results: { DisplayName: string }[]; ModelItems: { PageSize: number } };
    expect(body.Results.map((r) => r.DisplayName)).toEqual(['Scoped, Mine']);
    expect(body.ModelItems.PageSize).toBe(37);
    const theirs = (await apiOther.post(list, {})).json() as { Results: { DisplayName: string }[] };
    expect(theirs.Results.map((r) => r.DisplayName)).toEqual(['Scoped, Theirs']);
  });

  it('refuses no cookie, an unknown cookie and a signed-out session with 401', async () => {
    expect((await ctx.app.inject({ method: 'POST', url: list, payload: {} })).statusCode).toBe(401);
    const bogus = client(ctx.app, `gh_session=${'x'.repeat(43)}`);
    expect((await bogus.post(list, {})).statusCode).toBe(401);
    const { cookie } = await signIn(ctx.app, t.staff);
    const api = client(ctx.app, cookie);
    expect((await api.get('/api/contacts/contacts?$top=5')).statusCode).toBe(200);
    expect((await api.post('/api/auth/logout')).statusCode).toBe(200);
    const after = await api.post(list, {});
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ message: expect.any(String) });
  });

  it('finds no session, and scopes nothing, once the user is no longer a member of its tenant', async () => {
    const gone = await seedTenant(ctx.database);
    const { cookie } = await signIn(ctx.app, gone.staff);
    const api = client(ctx.app, cookie);
    expect((await api.post(list, {})).statusCode).toBe(200);
    await ctx.database.ownerExec(
      `delete from tenant_users where tenant_id = '${gone.tenant.id}' and user_id = ${gone.staff.id}`,
    );
    expect((await api.post(list, {})).statusCode).toBe(401);
    // The lookup itself: no row, and the transaction it opened is scoped to no tenant.
    const hash = hashToken(cookie.split('=')[1] ?? '');
    const seen = await withOpeningTx(
      ctx.database.db,
      `select * from gh_session_lookup('${hash}')`,
      async (tx, rows) => {
        const r = await tx.execute(
          sql`select coalesce(current_setting('app.tenant_id', true), '') as tenant`,
        );
        return { rows: rows.length, tenant: rowsOf<{ tenant: string }>(r)[0]?.tenant };
      },
    );
    expect(seen).toEqual({ rows: 0, tenant: '' });
  });

  it('checks the permission on what the lookup found: a member gets 403', async () => {
    const member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
    expect((await member.post(list, {})).statusCode).toBe(403);
    expect((await member.get('/api/contacts/contacts')).statusCode).toBe(403);
  });

  it('keeps the sign-in gates: a pending security prompt blocks the list', async () => {
    const { cookie } = await signIn(ctx.app, t.staff);
    await ctx.database.ownerExec(
      `update users set is_require_password_reset = true where id = ${t.staff.id}`,
    );
    try {
      const res = await client(ctx.app, cookie).post(list, {});
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'GatePending' });
    } finally {
      await ctx.database.ownerExec(
        `update users set is_require_password_reset = false where id = ${t.staff.id}`,
      );
    }
  });
});

describe('the opening transaction', () => {
  it('answers the opening statement rows and scopes what follows', async () => {
    const seen = await withOpeningTx(
      ctx.database.db,
      `select set_config('app.tenant_id', '${t.tenant.id}', true) as tenant`,
      async (tx, rows) => {
        const r = await tx.execute(sql`select current_setting('app.tenant_id', true) as tenant`);
        return { opening: rows[0]?.tenant, inside: rowsOf<{ tenant: string }>(r)[0]?.tenant };
      },
    );
    expect(seen).toEqual({ opening: t.tenant.id, inside: t.tenant.id });
  });

  it('rolls back on a thrown error and on a failing statement, and gives every connection back', async () => {
    const marker = `rollback-${Date.now()}`;
    // More failures than the pool has connections: a leaked connection would make the last call wait forever.
    for (let i = 0; i < 12; i++) {
      await expect(
        withTenantTx(ctx.database.db, { tenantId: t.tenant.id, userId: t.staff.id }, async (tx) => {
          await tx.execute(
            sql`insert into help_texts (tenant_id, state_name, title, content) values (${t.tenant.id}, ${`${marker}-${i}`}, 'x', 'x')`,
          );
          if (i % 2) throw new Error('thrown mid-way');
          await tx.execute(sql`select 1 / 0`);
        }),
      ).rejects.toThrow();
    }
    await expect(
      withOpeningTx(ctx.database.db, 'select no_such_function()', async () => 'never'),
    ).rejects.toThrow();
    const left = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(sql`select count(*)::int as n from help_texts where state_name like ${`${marker}%`}`),
    );
    expect(rowsOf<{ n: number }>(left)[0]?.n).toBe(0);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'survives a connection killed inside a transaction: the call fails, the process and the pool go on',
    async () => {
      const failed = withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, async (tx) => {
        const pid = rowsOf<{ pid: number }>(await tx.execute(sql`select pg_backend_pid() as pid`))[0]?.pid;
        await ctx.database.ownerExec(`select pg_terminate_backend(${Number(pid)})`);
        await new Promise((r) => setTimeout(r, 100)); // the connection's error arrives while it is checked out
        await tx.execute(sql`select 1`);
      });
      await expect(failed).rejects.toThrow();
      const again = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
        tx.execute(sql`select 1 as one`),
      );
      expect(rowsOf<{ one: number }>(again)[0]?.one).toBe(1);
    },
  );

  it('refuses a scope that is not a tenant id and a user number', async () => {
    await expect(
      withTenantTx(ctx.database.db, { tenantId: "x', true); drop table users; --" }, async () => 1),
    ).rejects.toThrow('tenant id');
    await expect(
      withTenantTx(ctx.database.db, { tenantId: t.tenant.id, userId: 1.5 }, async () => 1),
    ).rejects.toThrow('user id');
  });
});

describe('a list page in one round trip, once the instance knows the session', () => {
  const tokenOf = (cookie: string) => cookie.split('=')[1] ?? '';
  type Page = { Results: { DisplayName: string }[]; TotalRecordAvailable: number; ModelItems: unknown };

  it('answers what the usual way answers, learning the session from its first lookup and forgetting it at sign-out', async () => {
    await contact(client(ctx.app, (await signIn(ctx.app, t.staff)).cookie), 'Onetrip');
    const { cookie } = await signIn(ctx.app, t.staff);
    const api = client(ctx.app, cookie);
    // Signing in looks nothing up: the session's first request takes the usual way, and this instance learns it.
    expect(sessionHint(ctx.database, tokenOf(cookie))).toBeUndefined();
    const path = `${list}&$orderby=DisplayName desc`;
    const usual = await api.post(path, { SearchText: 'Onetrip' });
    expect(usual.statusCode, usual.body).toBe(200);
    expect(sessionHint(ctx.database, tokenOf(cookie))).toEqual({
      tenantId: t.tenant.id,
      role: 'staff',
      userId: t.staff.id,
      termsPending: false,
      promptsPending: false,
    });
    const oneTrip = await api.post(path, { SearchText: 'Onetrip' });
    expect(oneTrip.statusCode, oneTrip.body).toBe(200);
    expect(oneTrip.json()).toEqual(usual.json());
    expect((oneTrip.json() as Page).Results.map((r) => r.DisplayName)).toEqual(['Scoped, Onetrip']);
    // A column the resource does not declare: 400, as the usual way answers it.
    const bad = await api.post(list, { ColumnsToShow: ['Nope'] });
    expect(bad.statusCode).toBe(400);
    expect((await api.post('/api/auth/logout')).statusCode).toBe(200);
    expect(sessionHint(ctx.database, tokenOf(cookie))).toBeUndefined();
  });

  it('answers from the one trip only when the whole hint held: another user, role or gate takes the usual way', async () => {
    const { cookie } = await signIn(ctx.app, t.staff);
    const api = client(ctx.app, cookie);
    const path = `${list}&$orderby=DisplayName desc`;
    const usual = await api.post(path, {});
    expect(usual.statusCode, usual.body).toBe(200);
    const counts = ctx.app.pipelineCounts;
    const ask = async () => {
      const before = { ...counts };
      const res = await api.post(path, {});
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual(usual.json());
      return { oneTrip: counts.oneTrip - before.oneTrip, usual: counts.usual - before.usual };
    };
    expect(await ask()).toEqual({ oneTrip: 1, usual: 0 });
    const wrongs: Partial<SessionHint>[] = [
      { userId: t.admin.id },
      { role: 'admin' },
      { promptsPending: true },
    ];
    for (const wrong of wrongs) {
      const hint = sessionHint(ctx.database, tokenOf(cookie));
      if (!hint) throw new Error('the session has no hint');
      Object.assign(hint, wrong);
      expect(await ask()).toEqual({ oneTrip: 0, usual: 1 });
      // The lookup corrected the hint: the next page is one trip again.
      expect(await ask()).toEqual({ oneTrip: 1, usual: 0 });
    }
  });

  it('decides on what its own lookup finds: revoked, demoted, gated or gone sessions get no rows', async () => {
    const u = await seedTenant(ctx.database);
    const staff = async () => {
      const { cookie } = await signIn(ctx.app, u.staff);
      const api = client(ctx.app, cookie);
      expect((await api.post(list, {})).statusCode).toBe(200);
      expect(sessionHint(ctx.database, tokenOf(cookie))?.role).toBe('staff');
      return { api, hash: hashToken(tokenOf(cookie)) };
    };
    // Revoked behind this instance's back (another instance signed it out): 401, no rows.
    const revoked = await staff();
    await ctx.database.ownerExec(`update sessions set revoked_at = now() where id = '${revoked.hash}'`);
    const r1 = await revoked.api.post(list, {});
    expect(r1.statusCode).toBe(401);
    expect(r1.json()).toEqual({ message: expect.any(String) });
    // Demoted to member while the hint still says staff: 403.
    const demoted = await staff();
    await ctx.database.ownerExec(
      `update tenant_users set role = 'member' where tenant_id = '${u.tenant.id}' and user_id = ${u.staff.id}`,
    );
    try {
      const r2 = await demoted.api.post(list, {});
      expect(r2.statusCode).toBe(403);
      expect(r2.body).not.toContain('Results');
    } finally {
      await ctx.database.ownerExec(
        `update tenant_users set role = 'staff' where tenant_id = '${u.tenant.id}' and user_id = ${u.staff.id}`,
      );
    }
    // A sign-in gate that opened after the hint: GatePending.
    const gated = await staff();
    await ctx.database.ownerExec(
      `update users set is_require_password_reset = true where id = ${u.staff.id}`,
    );
    try {
      const r3 = await gated.api.post(list, {});
      expect(r3.statusCode).toBe(403);
      expect(r3.json()).toMatchObject({ code: 'GatePending' });
    } finally {
      await ctx.database.ownerExec(
        `update users set is_require_password_reset = false where id = ${u.staff.id}`,
      );
    }
    // Expired: 401.
    const expired = await staff();
    await ctx.database.ownerExec(
      `update sessions set expires_at = now() - interval '1 second' where id = '${expired.hash}'`,
    );
    expect((await expired.api.post(list, {})).statusCode).toBe(401);
  });
});

describe('the pipeline refuses a route that declares its needs wrongly', () => {
  const start = async (route: { url: string; config: Record<string, unknown> }) => {
    const bad = defineFeature({
      name: 'bad',
      routes: async (app) => {
        app.get(route.url, { config: route.config, handler: async () => ({}) });
      },
    });
    const database = await testDatabase(1);
    try {
      await (await buildApp({ database, config: ctx.config, modules: [...features, bad] })).close();
      return null;
    } catch (err) {
      return (err as Error).message;
    } finally {
      await database.close();
    }
  };
  it('a public route that asks for a scoped transaction, a one-trip read without one, no permission', async () => {
    expect(await start({ url: '/api/bad/public', config: { permission: 'public', scoped: true } })).toBe(
      'Route GET /api/bad/public is public: there is no caller to scope a transaction to.',
    );
    expect(
      await start({ url: '/api/bad/trip', config: { permission: 'backoffice', oneTrip: () => null } }),
    ).toBe('Route GET /api/bad/trip declares oneTrip without scoped.');
    expect(await start({ url: '/api/bad/none', config: {} })).toBe(
      'Route GET /api/bad/none declares no permission; add config.permission.',
    );
  }, 180_000);
});

describe('every transaction a request opens has JIT off', () => {
  // Decision 0112: PostgreSQL compiles a statement whose estimated cost passes jit_above_cost, branches that never
  // run included (a custom sort's run of records without a value): the session lookup's transactions carried the
  // server's default, and a page sorted by a custom date at $skip 100,000 at a million contacts spent 159 of its 180
  // ms compiling (decision 0196).
  it('in the tenant scope, the session lookup opening a transaction and the one-trip read', async () => {
    const { cookie } = await signIn(ctx.app, t.staff);
    const token = cookie.replace(/^gh_session=/, '').split(';')[0] ?? '';
    const jitOf = (rows: { jit?: unknown }[] | undefined) => rows?.[0]?.jit;
    const scoped = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, async (tx) =>
      rowsOf<{ jit: string }>(await tx.execute(sql`select current_setting('jit') as jit`)),
    );
    expect(jitOf(scoped)).toBe('off');
    const opened = await withSessionTx(ctx.database, token, async (tx, auth) => {
      expect(auth?.tenantId).toBe(t.tenant.id);
      return rowsOf<{ jit: string }>(await tx.execute(sql`select current_setting('jit') as jit`));
    });
    expect(jitOf(opened)).toBe('off');
    const read = await readWithSession(ctx.database, token, [q`select current_setting('jit') as jit`]);
    expect(read.auth?.tenantId).toBe(t.tenant.id);
    expect(jitOf(read.rows[0])).toBe('off');
  });
});
