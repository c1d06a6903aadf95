/**
 * `npm run seed -- --tenant <slug> --contacts 1000000`: bulk-loads generated contacts into a tenant (created when
 * missing) with COPY. Real PostgreSQL through DATABASE_URL (or --database-url); otherwise the embedded database
 * in DATA_DIR (default ./data). Migrates first. `--domains` also loads as many memberships, invoices and event
 * attendees, and a tenth as many events, over those contacts (`bulk-domains.ts`).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase, rowsOf } from '@guildhall/db';
import { createTenant } from '@guildhall/db/seed/factories';
import { sql } from 'drizzle-orm';
import { bulkSeedContacts, withBulkTarget } from './bulk.ts';
import { bulkSeedDomains } from './bulk-domains.ts';

const { values } = parseArgs({
  options: {
    tenant: { type: 'string', default: 'demo' },
    contacts: { type: 'string', default: '100000' },
    'database-url': { type: 'string' },
    'data-dir': { type: 'string' },
    domains: { type: 'boolean', default: false },
  },
});
const count = Number(values.contacts);
if (!Number.isSafeInteger(count) || count < 1) throw new Error('--contacts needs a positive whole number');
const databaseUrl = values['database-url'] ?? process.env.DATABASE_URL;
const dataDir = resolve(values['data-dir'] ?? process.env.DATA_DIR ?? 'data');
const database = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir });
await database.migrate();
// The embedded database runs as the application role (row-level security); the seed looks up the tenant and
// loads with COPY as the owner, so an existing tenant (the demo association) is found and filled.
if (database.pglite) await database.pglite.exec('RESET ROLE');
const slug = values.tenant ?? 'demo';
let tenantId = rowsOf<{ id: string }>(
  await database.ownerDb.execute(sql`select id from tenants where slug = ${slug}`),
)[0]?.id;
if (!tenantId) tenantId = (await createTenant(database.db, { name: slug, slug })).id;
const id = tenantId;
const result = await withBulkTarget(database, databaseUrl, async (target) => {
  const contacts = await bulkSeedContacts(target, { tenantId: id, count, log: (m) => console.log(m) });
  if (!values.domains) return contacts;
  const counts = { memberships: count, invoices: count, events: Math.ceil(count / 10), attendees: count };
  const domains = await bulkSeedDomains(target, { tenantId: id, counts, log: (m) => console.log(m) });
  return { ...contacts, domains };
});
await database.close();
console.log(JSON.stringify({ tenant: slug, ...result }));
