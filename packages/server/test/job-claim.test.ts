/**
 * R2 for the job queue: claiming a job of any tenant is the privilege of a role (guildhall_jobs, owner of the
 * SECURITY DEFINER claim functions), not of a setting. The application role may set app.job_claim itself; it must
 * see and change no job row without a tenant all the same, while the claim functions still claim every tenant's
 * jobs. The worker running claimed jobs is covered by the export and import tests.
 */
import { type Database, rowsOf, withTenantTx } from '@guildhall/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenant, type TenantWithUsers, testDatabase, unique } from './helpers.ts';

let database: Database;
let a: TenantWithUsers;
let b: TenantWithUsers;
/** A job kind no worker handles, unique to this run (the PostgreSQL database is shared by the test files). */
const kind = unique('probe-');

async function addJob(tenantId: string): Promise<string> {
  const r = await withTenantTx(database.db, { tenantId }, (tx) =>
    tx.execute(
      sql`insert into jobs (tenant_id, kind, payload) values (${tenantId}, ${kind}, '{}') returning id`,
    ),
  );
  const row = rowsOf<{ id: string }>(r)[0];
  if (!row) throw new Error('job insert returned nothing');
  return row.id;
}

async function jobOf(tenantId: string, id: string) {
  const r = await withTenantTx(database.db, { tenantId }, (tx) =>
    tx.execute(sql`select status, error, attempts from jobs where id = ${id}`),
  );
  return rowsOf<{ status: string; error: string | null; attempts: number }>(r)[0];
}

let jobA = '';
let jobB = '';

beforeAll(async () => {
  database = await testDatabase();
  a = await seedTenant(database);
  b = await seedTenant(database);
  jobA = await addJob(a.tenant.id);
  jobB = await addJob(b.tenant.id);
});
afterAll(() => database.close());

describe('R2: claiming jobs is a role, not a setting', () => {
  it('the application role sees and changes no job without a tenant, even with app.job_claim on', async () => {
    const seen = await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local app.job_claim = 'on'`);
      const who = rowsOf<{ u: string; s: string }>(
        await tx.execute(sql`select current_user as u, current_setting('app.job_claim') as s`),
      )[0];
      const count = rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from jobs`))[0];
      const updated = rowsOf(
        await tx.execute(sql`update jobs set error = 'hijacked', status = 'failed' returning id`),
      );
      const deleted = rowsOf(await tx.execute(sql`delete from jobs returning id`));
      return { who, count: count?.n, updated: updated.length, deleted: deleted.length };
    });
    expect(seen).toEqual({ who: { u: 'guildhall_app', s: 'on' }, count: 0, updated: 0, deleted: 0 });
    // Both tenants' jobs exist and are untouched.
    expect(await jobOf(a.tenant.id, jobA)).toEqual({ status: 'queued', error: null, attempts: 0 });
    expect(await jobOf(b.tenant.id, jobB)).toEqual({ status: 'queued', error: null, attempts: 0 });
  });

  it('inside a tenant scope, app.job_claim shows no job of another tenant', async () => {
    const foreign = await withTenantTx(database.db, { tenantId: a.tenant.id }, async (tx) => {
      await tx.execute(sql`set local app.job_claim = 'on'`);
      return rowsOf<{ n: number }>(
        await tx.execute(sql`select count(*)::int as n from jobs where tenant_id <> ${a.tenant.id}`),
      )[0]?.n;
    });
    expect(foreign).toBe(0);
  });

  it('the claim functions still claim the jobs of every tenant, each once', async () => {
    const claim3 = async () =>
      rowsOf<{ tenant_id: string; id: string; attempts: number }>(
        await database.db.transaction((tx) =>
          tx.execute(sql`select * from gh_claim_job(${`{${kind}}`}::text[], '2 minutes'::interval, 3)`),
        ),
      );
    const first = await claim3();
    const second = await claim3();
    expect(await claim3()).toEqual([]);
    const claimed = [...first, ...second].map((j) => `${j.tenant_id}/${j.id}/${j.attempts}`).sort();
    expect(claimed).toEqual([`${a.tenant.id}/${jobA}/1`, `${b.tenant.id}/${jobB}/1`].sort());
    expect((await jobOf(a.tenant.id, jobA))?.status).toBe('running');
    expect((await jobOf(b.tenant.id, jobB))?.status).toBe('running');

    // The one-argument claim of instances not yet updated works the same way.
    const jobC = await addJob(b.tenant.id);
    const old = rowsOf<{ tenant_id: string; id: string }>(
      await database.db.execute(sql`select * from gh_claim_job(${`{${kind}}`}::text[])`),
    );
    expect(old.map((j) => `${j.tenant_id}/${j.id}`)).toEqual([`${b.tenant.id}/${jobC}`]);
    expect(
      rowsOf(await database.db.execute(sql`select * from gh_claim_job(${`{${kind}}`}::text[])`)),
    ).toEqual([]);
  });

  it('guildhall_jobs owns the claim functions, may touch jobs only, and the application role is not a member of it', async () => {
    const role = rowsOf<Record<string, unknown>>(
      await database.db.execute(sql`
        select r.rolcanlogin, r.rolsuper, r.rolbypassrls, r.rolcreaterole, r.rolcreatedb,
               (select count(*)::int from pg_class c where c.relowner = r.oid) as owns,
               pg_has_role('guildhall_app', r.oid, 'MEMBER') as app_is_member,
               pg_has_role('guildhall_app', r.oid, 'USAGE') as app_has_usage,
               (select count(*)::int from pg_auth_members m
                 where m.roleid = r.oid and m.member = (select oid from pg_roles where rolname = 'guildhall_app'))
                 as app_grants
          from pg_roles r where r.rolname = 'guildhall_jobs'`),
    );
    expect(role).toEqual([
      {
        rolcanlogin: false,
        rolsuper: false,
        rolbypassrls: false,
        rolcreaterole: false,
        rolcreatedb: false,
        owns: 0,
        app_is_member: false,
        app_has_usage: false,
        app_grants: 0,
      },
    ]);

    // Every privilege guildhall_jobs has on a table of the schema: SELECT and UPDATE on jobs.
    const privileges = rowsOf<{ relname: string; privilege: string }>(
      await database.db.execute(sql`
        select c.relname, p.privilege
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
          cross join unnest(array['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES', 'TRIGGER']) p(privilege)
         where n.nspname = 'public' and c.relkind in ('r', 'v', 'm', 'p')
           and has_table_privilege('guildhall_jobs', c.oid, p.privilege)
         order by 1, 2`),
    );
    expect(privileges).toEqual([
      { relname: 'jobs', privilege: 'SELECT' },
      { relname: 'jobs', privilege: 'UPDATE' },
    ]);

    const functions = rowsOf<{
      args: string;
      owner: string;
      prosecdef: boolean;
      config: string[];
      grantees: string[];
    }>(
      await database.db.execute(sql`
        select pg_get_function_identity_arguments(p.oid) as args, pg_get_userbyid(p.proowner) as owner,
               p.prosecdef, coalesce(p.proconfig, '{}')::text[] as config,
               array(select distinct case when x.grantee = 0 then 'PUBLIC' else pg_get_userbyid(x.grantee) end
                       from aclexplode(p.proacl) x where x.privilege_type = 'EXECUTE' order by 1)::text[] as grantees
          from pg_proc p where p.proname = 'gh_claim_job'
         order by 1`),
    );
    expect(functions.map((f) => f.args)).toEqual([
      'p_kinds text[]',
      'p_kinds text[], p_stale_after interval, p_max_attempts integer',
    ]);
    for (const f of functions) {
      expect(f, f.args).toMatchObject({
        owner: 'guildhall_jobs',
        prosecdef: true,
        config: ['search_path=public, pg_temp'],
        grantees: ['guildhall_app', 'guildhall_jobs'],
      });
    }

    // No policy of any table trusts a setting the application role may set to see other tenants' rows.
    const policies = rowsOf<{ tablename: string; policyname: string; roles: string[]; qual: string }>(
      await database.db.execute(sql`
        select tablename, policyname, roles::text[] as roles, coalesce(qual, '') as qual
          from pg_policies where schemaname = 'public' order by 1, 2`),
    );
    for (const p of policies) expect(p.qual, `${p.tablename}.${p.policyname}`).not.toMatch(/job_claim/);
    expect(policies.find((p) => p.policyname === 'job_claim')).toMatchObject({
      tablename: 'jobs',
      roles: ['guildhall_jobs'],
      qual: expect.stringMatching(/CURRENT_USER = 'guildhall_jobs'/),
    });
  });
});
