/**
 * Ready to distribute by tenant (Citus, decision 0071), checked on the catalogue rather than hoped for: every table
 * holding tenant data has `tenant_id` in its primary key, in every unique constraint or index and in every foreign
 * key to another tenant table (a key that lacks it cannot be enforced on one shard); no tenant table draws from a
 * sequence shared by all tenants; and record ids are numbered per association.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rowsOf } from '@guildhall/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, seedTenant, signIn, type TestContext, testApp } from './helpers.ts';

/** Identity tables: read before a tenant is known, replicated to every node as Citus reference tables. */
const REFERENCE_TABLES = new Set([
  'tenants',
  'users',
  'sessions',
  'login_failures',
  'password_reset_tokens',
  // An invitation link's token, read before the invitee is signed in (decision 0162).
  'invitation_tokens',
  'signup_requests',
  // Request counters of the rate limits, shared by every instance (not tenant data; distributed by key under Citus).
  'rate_limits',
  'gh_tenant_id_tables',
]);

let ctx: TestContext;
beforeAll(async () => {
  ctx = await testApp();
});
afterAll(() => ctx.close());

const read = async <T>(query: ReturnType<typeof sql>) =>
  rowsOf<T>(await (ctx.database.kind === 'pglite' ? ctx.database.db : ctx.database.ownerDb).execute(query));

describe('the catalogue is ready to distribute by tenant_id', () => {
  it('puts tenant_id in every primary key, unique key and foreign key between tenant tables', async () => {
    const tables = (
      await read<{ relname: string; has_tenant: boolean }>(sql`
        select c.relname,
               exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and not a.attisdropped) as has_tenant
          from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = 'public' and c.relkind in ('r', 'p') and c.relname not like '\\_\\_drizzle%'`)
    ).filter((t) => !REFERENCE_TABLES.has(t.relname));
    expect(tables.length).toBeGreaterThan(15);
    const problems: string[] = [];
    for (const t of tables)
      if (!t.has_tenant) problems.push(`${t.relname} has no tenant_id and is no reference table`);
    const distributed = tables.filter((t) => t.has_tenant).map((t) => t.relname);
    expect(distributed).toEqual(expect.arrayContaining(['contacts', 'audit_log', 'tenant_users', 'jobs']));
    // Primary keys, unique constraints and unique indexes.
    const keys = await read<{ table: string; name: string; kind: string; has_tenant: boolean }>(sql`
      select c.relname as table, i.relname as name,
             case when x.indisprimary then 'primary key' else 'unique key' end as kind,
             exists (select 1 from pg_attribute a
                      where a.attrelid = c.oid and a.attname = 'tenant_id' and a.attnum = any(x.indkey)) as has_tenant
        from pg_index x join pg_class c on c.oid = x.indrelid join pg_class i on i.oid = x.indexrelid
        join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and (x.indisunique or x.indisprimary)`);
    for (const table of distributed) {
      if (!keys.some((k) => k.table === table && k.kind === 'primary key'))
        problems.push(`${table} has no primary key`);
    }
    for (const k of keys)
      if (distributed.includes(k.table) && !k.has_tenant)
        problems.push(`${k.table}: ${k.kind} ${k.name} lacks tenant_id`);
    // Foreign keys: to a reference table anything goes; between tenant tables both sides carry tenant_id.
    const fks = await read<{
      table: string;
      name: string;
      target: string;
      local_tenant: boolean;
      target_tenant: boolean;
    }>(sql`
      select c.relname as table, k.conname as name, t.relname as target,
             exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'tenant_id' and a.attnum = any(k.conkey)) as local_tenant,
             exists (select 1 from pg_attribute a where a.attrelid = t.oid and a.attname = 'tenant_id' and a.attnum = any(k.confkey)) as target_tenant
        from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class t on t.oid = k.confrelid
        join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and k.contype = 'f'`);
    expect(fks.filter((f) => distributed.includes(f.table)).length).toBeGreaterThan(5);
    for (const f of fks) {
      if (!distributed.includes(f.table) || REFERENCE_TABLES.has(f.target)) continue;
      if (!f.local_tenant || !f.target_tenant)
        problems.push(`${f.table}: foreign key ${f.name} to ${f.target} lacks tenant_id on one side`);
    }
    expect(problems).toEqual([]);
  });

  it('sets the scope with SET LOCAL, which reaches Citus workers, never with set_config()', async () => {
    // A value set by set_config() stays on the coordinator; row-level security on a worker reads app.tenant_id.
    const functions = rowsOf<{ proname: string }>(
      await ctx.database.db.execute(sql`
        select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
         where n.nspname = 'public' and p.prosrc ~* ${String.raw`set_config\s*\(\s*'app\.`}`),
    ).map((r) => r.proname);
    expect(functions).toEqual([]);
    const root = join(import.meta.dirname, '..', '..');
    const offenders: string[] = [];
    for (const dir of ['server/src', 'db/src']) {
      for (const file of readdirSync(join(root, dir), { recursive: true }) as string[]) {
        if (!/\.ts$/.test(file) || /\.test\.ts$/.test(file)) continue;
        if (/set_config\(\s*'app\./.test(readFileSync(join(root, dir, file), 'utf8')))
          offenders.push(`${dir}/${file}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('draws no tenant data from a sequence all tenants share', async () => {
    const columns = await read<{
      table: string;
      column: string;
      identity: string;
      default: string | null;
    }>(sql`
      select c.relname as table, a.attname as column, a.attidentity as identity, pg_get_expr(d.adbin, d.adrelid) as default
        from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
       where n.nspname = 'public' and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
         and exists (select 1 from pg_attribute t where t.attrelid = c.oid and t.attname = 'tenant_id')`);
    const shared = columns
      .filter((c) => !REFERENCE_TABLES.has(c.table))
      .filter((c) => c.identity !== '' || /nextval\(/i.test(c.default ?? ''))
      .map((c) => `${c.table}.${c.column}`);
    expect(shared).toEqual([]);
    // The numbered ids are the ones the migration registered, each with gh_next_id as its default.
    const numbered = columns.filter((c) => /gh_next_id\(/.test(c.default ?? '')).map((c) => c.table);
    expect(numbered).toEqual(expect.arrayContaining(['contacts', 'contact_entries', 'audit_log', 'samples']));
  });

  it('numbers records per association: a new association’s first record is 1 whatever the others created', async () => {
    const first = await seedTenant(ctx.database);
    const firstApi = client(ctx.app, (await signIn(ctx.app, first.admin)).cookie);
    const save = async (api: ReturnType<typeof client>, name: string) => {
      const res = await api.post('/api/setup/samples/sampleSave', {
        Name: name,
        Status: 'open',
        Answer: 'No',
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { Data: { SampleId: number } }).Data.SampleId;
    };
    const ids = [await save(firstApi, 'One'), await save(firstApi, 'Two'), await save(firstApi, 'Three')];
    expect(ids).toEqual([ids[0], (ids[0] ?? 0) + 1, (ids[0] ?? 0) + 2]);
    const second = await seedTenant(ctx.database);
    const secondApi = client(ctx.app, (await signIn(ctx.app, second.admin)).cookie);
    expect(await save(secondApi, 'Alone')).toBe(1);
    expect(await save(firstApi, 'Four')).toBe((ids[0] ?? 0) + 3);
  });
});
