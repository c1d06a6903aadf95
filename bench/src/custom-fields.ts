/**
 * Custom fields at scale (issue 14, decision 0111): contacts with 10 custom fields each on PostgreSQL, a page of 50
 * filtered by one custom dropdown value and sorted by a custom date, its total included, beside the same shape of
 * query on built-in columns (status filter, last-name sort). Both run as the application role under row-level
 * security, in a tenant transaction, as the list statements do. SQL-level figures: the generic list does not yet
 * plan custom-field sorts and filters, so there is no HTTP figure for them.
 */
import { execFileSync } from 'node:child_process';
import { type Database, openDatabase, rowsOf, withTenantTx } from '@guildhall/db';
import { createTenant } from '@guildhall/db/seed/factories';
import { bulkSeedContacts, postgresTarget } from '@guildhall/seed/bulk';
import { CUSTOM_FIELD_DATA_TYPES as T } from '@guildhall/shared';
import { sql } from 'drizzle-orm';

interface Stats {
  p50: number;
  p95: number;
  n: number;
}

function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => +(s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0).toFixed(2);
  return { p50: at(0.5), p95: at(0.95), n: s.length };
}

/** The ten fields: what their values are made of, per contact number. */
const FIELDS: { name: string; type: number; column: string; value: string }[] = [
  { name: 'Chapter', type: T.Dropdown, column: 'choice_id', value: '(c.contact_id % 5) + 1' },
  {
    name: 'Certified on',
    type: T.Date,
    column: 'date_value',
    value: "date '2000-01-01' + ((c.contact_id * 7919) % 9000)::int",
  },
  { name: 'Years in trade', type: T.Number, column: 'number_value', value: '(c.contact_id * 13) % 40' },
  { name: 'Pledge', type: T.Currency, column: 'number_value', value: '((c.contact_id % 10) + 1) * 2500' },
  {
    name: 'Interests',
    type: T.MultiChoice,
    column: 'choice_ids',
    value: 'array[(c.contact_id % 4) + 1]::bigint[]',
  },
  { name: 'Volunteer', type: T.YesNo, column: 'choice_id', value: '(c.contact_id % 2) + 1' },
  { name: 'Diet', type: T.Text, column: 'text_value', value: "'Diet ' || (c.contact_id % 97)" },
  { name: 'Consent', type: T.Checkbox, column: 'bool_value', value: 'c.contact_id % 3 = 0' },
  {
    name: 'Last call',
    type: T.DateTime,
    column: 'datetime_value',
    value: "timestamptz '2025-01-01' + ((c.contact_id % 500) || ' hours')::interval",
  },
  { name: 'Notes', type: T.MultiLineText, column: 'text_value', value: "'Note ' || c.contact_id" },
];

export async function measureCustomFields(
  count: number,
  databaseName = `custom-fields_bench_${process.pid}`,
) {
  const url = `postgres://postgres@127.0.0.1:5432/${databaseName}`;
  execFileSync('createdb', ['-h', '127.0.0.1', '-U', 'postgres', databaseName]);
  let database: Database | null = null;
  try {
    database = await openDatabase({ databaseUrl: url, poolSize: 4 });
    await database.migrate();
    const tenant = await createTenant(database.db, {
      name: 'Bench Association',
      slug: `bench-${process.pid}`,
    });
    const target = postgresTarget(url);
    await bulkSeedContacts(target, { tenantId: tenant.id, count });
    await target.close();
    const started = performance.now();
    const ids: number[] = [];
    await withTenantTx(database.db, { tenantId: tenant.id }, async (tx) => {
      for (const [i, f] of FIELDS.entries()) {
        const choices =
          f.type === T.Dropdown || f.type === T.MultiChoice || f.type === T.YesNo
            ? JSON.stringify([1, 2, 3, 4, 5].map((Id) => ({ Id, Name: `Choice ${Id}` })))
            : '[]';
        const [row] = rowsOf<{ id: number }>(
          await tx.execute(sql`insert into custom_fields (tenant_id, entity, name, data_type_id, page_number, sort_order, choices)
            values (${tenant.id}, 'Contact', ${f.name}, ${f.type}, 1, ${i}, ${choices}::jsonb) returning custom_field_id as id`),
        );
        ids.push(Number(row?.id));
      }
    });
    // The values as the owner (one statement per field, every contact a value of each).
    for (const [i, f] of FIELDS.entries())
      await database.ownerDb.execute(
        sql.raw(`insert into custom_field_values (tenant_id, field_id, record_id, ${f.column})
          select c.tenant_id, ${ids[i]}, c.contact_id, ${f.value} from contacts c where c.tenant_id = '${tenant.id}'`),
      );
    await database.ownerDb.execute(sql`vacuum analyze custom_field_values`);
    const loadMs = Math.round(performance.now() - started);
    const [dropdown, date] = ids;
    const scope = { tenantId: tenant.id };
    const customPage = (choice: number) =>
      withTenantTx(database!.db, scope, async (tx) => {
        const page = await tx.execute(sql`select c.contact_id, c.display_name, d.date_value
          from custom_field_values d
          join contacts c on c.tenant_id = d.tenant_id and c.contact_id = d.record_id and not c.is_deleted
          where d.tenant_id = ${tenant.id} and d.field_id = ${date} and d.date_value is not null
            and exists (select 1 from custom_field_values f where f.tenant_id = d.tenant_id and f.field_id = ${dropdown}
                          and f.choice_id = ${choice} and f.record_id = d.record_id)
          order by d.date_value, d.record_id limit 50`);
        const total = await tx.execute(sql`select count(*)::int as n from custom_field_values f
          join contacts c on c.tenant_id = f.tenant_id and c.contact_id = f.record_id and not c.is_deleted
          where f.tenant_id = ${tenant.id} and f.field_id = ${dropdown} and f.choice_id = ${choice}`);
        return { rows: rowsOf(page).length, total: rowsOf<{ n: number }>(total)[0]?.n ?? 0 };
      });
    const builtInPage = () =>
      withTenantTx(database!.db, scope, async (tx) => {
        const page = await tx.execute(sql`select contact_id, display_name, last_name from contacts
          where tenant_id = ${tenant.id} and not is_deleted and status = 'active'
          order by last_name, contact_id limit 50`);
        const total = await tx.execute(sql`select count(*)::int as n from contacts
          where tenant_id = ${tenant.id} and not is_deleted and status = 'active'`);
        return { rows: rowsOf(page).length, total: rowsOf<{ n: number }>(total)[0]?.n ?? 0 };
      });
    const time = async (fn: () => Promise<{ rows: number; total: number }>, n = 100, warm = 10) => {
      for (let i = 0; i < warm; i++) await fn();
      const samples: number[] = [];
      let last = { rows: 0, total: 0 };
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        last = await fn();
        samples.push(performance.now() - t0);
      }
      return { ...stats(samples), rows: last.rows, total: last.total };
    };
    const custom = await time(() => customPage(3));
    const builtIn = await time(builtInPage);
    return {
      bar: 'P1 on custom fields: a page of 50 filtered by a custom dropdown value and sorted by a custom date, total included, p95 <= 50 ms',
      level:
        'SQL in a tenant transaction under row-level security (no HTTP: the generic list does not plan custom fields yet)',
      contacts: count,
      fieldsPerContact: FIELDS.length,
      values: count * FIELDS.length,
      valuesLoadMs: loadMs,
      customDropdownFilterCustomDateSort: { ...custom, pass: custom.p95 <= 50 },
      builtInStatusFilterLastNameSort: builtIn,
    };
  } finally {
    await database?.close();
    execFileSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--if-exists', databaseName]);
  }
}
