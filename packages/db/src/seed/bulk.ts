/**
 * Bulk seeding of realistic contacts with their contact-info entries, search documents and counters, through
 * COPY (pg-copy-streams on PostgreSQL, `COPY … FROM '/dev/blob'` on PGlite). Rows are generated from a seeded
 * random source, so a run is reproducible. Runs as the owner role (COPY into row-level-secured tables needs
 * BYPASSRLS). When the contacts tables are empty, their indexes are dropped during the load and rebuilt after
 * (a bulk index build is several times faster than maintaining them row by row).
 */

import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import {
  type ContactRecord,
  contactDisplayName,
  contactFacets,
  contactSearchDocuments,
  DEFAULT_PUBLISHED_FIELDS,
} from '@guildhall/shared';
import pg from 'pg';
import copyStreams from 'pg-copy-streams';

const FIRST =
  'James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard Susan Joseph Jessica Thomas Sarah Charles Karen Christopher Lisa Daniel Nancy Matthew Betty Anthony Sandra Mark Margaret Donald Ashley Steven Kimberly Andrew Emily Paul Donna Joshua Michelle Kenneth Carol Kevin Amanda Brian Melissa George Deborah Timothy Stephanie Ronald Rebecca Jason Sharon Edward Laura Jeffrey Cynthia Ryan Dorothy Jacob Amy Gary Kathleen Nicholas Angela Eric Shirley Jonathan Emma Stephen Brenda Larry Pamela Justin Nicole Scott Anna Brandon Samantha Benjamin Katherine Samuel Christine Gregory Debra Alexander Rachel Patrick Carolyn Frank Janet Raymond Maria Jack Olivia Dennis Heather Jerry Helen Tyler Catherine Aaron Diane José Zoë Renée Åsa Łukasz Chloé François Søren Mónica Björn'.split(
    ' ',
  );
const LAST =
  'Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards Collins Reyes Stewart Morris Morales Murphy Cook Rogers Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed Kelly Howard Ramos Kim Cox Ward Richardson Watson Brooks Chavez Wood James Bennett Gray Mendoza Ruiz Hughes Price Alvarez Castillo Sanders Patel Myers Long Ross Foster Jiménez Müller Østergaard Dubois Łukasiewicz Núñez Ångström Lefèvre'.split(
    ' ',
  );
const CITIES: [string, string, string][] = [
  ['Chicago', 'IL', '606'],
  ['Springfield', 'IL', '627'],
  ['New York', 'NY', '100'],
  ['Buffalo', 'NY', '142'],
  ['Los Angeles', 'CA', '900'],
  ['San Diego', 'CA', '921'],
  ['Houston', 'TX', '770'],
  ['Austin', 'TX', '787'],
  ['Phoenix', 'AZ', '850'],
  ['Philadelphia', 'PA', '191'],
  ['Denver', 'CO', '802'],
  ['Seattle', 'WA', '981'],
  ['Boston', 'MA', '021'],
  ['Miami', 'FL', '331'],
  ['Atlanta', 'GA', '303'],
  ['Portland', 'OR', '972'],
  ['Minneapolis', 'MN', '554'],
  ['Detroit', 'MI', '482'],
  ['Nashville', 'TN', '372'],
  ['Montréal', 'QC', 'H2X'],
];
const STREETS =
  'Main Oak Pine Maple Cedar Elm Washington Lake Hill Park Sunset Ridge River Church Mill'.split(' ');
const ORG_WORDS =
  'Acme Global United Prairie Summit Harbor Pioneer Keystone Liberty Beacon Heritage Frontier'.split(' ');
const ORG_KINDS = 'Partners Foundation Society Institute Group Guild Alliance Council Labs Works'.split(' ');
/** Status shares: active, inactive, prospect, lapsed (about a third each of active/other). */
const STATUSES = ['active', 'active', 'active', 'inactive', 'prospect', 'lapsed'];

/** A small, fast, seeded random source (mulberry32). */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function csv(v: string | number | boolean | null): string {
  if (v === null) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) || s === '' ? `"${s.replace(/"/g, '""')}"` : s;
}
const line = (values: (string | number | boolean | null)[]) => `${values.map(csv).join(',')}\n`;

export const CONTACT_COPY_COLUMNS = [
  'tenant_id',
  'contact_id',
  'contact_type',
  'first_name',
  'last_name',
  'organization_name',
  'display_name',
  'status',
  'account_number',
  'email',
  'phone',
  'website',
  'address1',
  'address2',
  'city',
  'state_province',
  'postal_code',
  'country_code',
  'is_listed',
  'published_fields',
];
const ENTRY_COLUMNS = ['tenant_id', 'entry_id', 'contact_id', 'comm_type', 'value'];
const DOC_COLUMNS = [
  'tenant_id',
  'audience',
  'entity_type',
  'entity_id',
  'title',
  'title_key',
  'search_text',
  'facets',
];
const TABLES = ['contacts', 'contact_entries', 'search_documents'] as const;

/** One generated contact (deterministic for a seed and an index). */
export function generateContact(rand: () => number, id: number, n: number): ContactRecord {
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)] as T;
  const isOrg = rand() < 0.05;
  const [city, state, zip] = pick(CITIES);
  const first = isOrg ? null : pick(FIRST);
  const last = isOrg ? null : pick(LAST);
  const org = isOrg
    ? `${pick(ORG_WORDS)} ${pick(ORG_KINDS)} ${n}`
    : rand() < 0.3
      ? `${pick(ORG_WORDS)} ${pick(ORG_KINDS)}`
      : null;
  const handle = isOrg ? `info${n}` : `${(first ?? '').toLowerCase()}.${(last ?? '').toLowerCase()}${n}`;
  const base = {
    ContactType: isOrg ? 'organization' : 'individual',
    FirstName: first,
    LastName: last,
    OrganizationName: org,
  };
  return {
    ContactId: id,
    ...base,
    DisplayName: contactDisplayName(base),
    Status: pick(STATUSES),
    AccountNumber: `A${String(n).padStart(7, '0')}`,
    Email: `${handle.normalize('NFKD').replace(/[^\w.]/g, '')}@example.org`,
    Phone: `${200 + Math.floor(rand() * 700)}${String(Math.floor(rand() * 10_000_000)).padStart(7, '0')}`,
    Website: isOrg ? `http://www.org${n}.example.org` : null,
    Address1: `${1 + Math.floor(rand() * 9999)} ${pick(STREETS)} St`,
    Address2: rand() < 0.1 ? `Suite ${1 + Math.floor(rand() * 900)}` : null,
    City: city,
    StateProvince: state,
    PostalCode: `${zip}${String(Math.floor(rand() * 100)).padStart(2, '0')}`,
    CountryCode: state === 'QC' ? 'CA' : 'US',
    IsListed: rand() < 0.3,
    PublishedFields: DEFAULT_PUBLISHED_FIELDS,
  };
}

interface Chunk {
  contacts: string;
  entries: string;
  docs: string;
  facets: Map<string, number>;
}

/** CSV for contacts start..end-1 (ids from firstId, entry ids from firstEntryId). */
function chunk(
  tenantId: string,
  seed: number,
  firstId: number,
  firstEntryId: number,
  start: number,
  end: number,
): Chunk {
  const rand = random(seed + start);
  let contacts = '';
  let entries = '';
  let docs = '';
  const facets = new Map<string, number>();
  for (let i = start; i < end; i++) {
    const c = generateContact(rand, firstId + i, i + 1);
    contacts += line([
      tenantId,
      c.ContactId,
      c.ContactType,
      c.FirstName,
      c.LastName,
      c.OrganizationName,
      c.DisplayName,
      c.Status,
      c.AccountNumber,
      c.Email,
      c.Phone,
      c.Website,
      c.Address1,
      c.Address2,
      c.City,
      c.StateProvince,
      c.PostalCode,
      c.CountryCode,
      c.IsListed,
      c.PublishedFields,
    ]);
    const e = firstEntryId + 2 * i;
    entries +=
      line([tenantId, e, c.ContactId, 'email', c.Email]) +
      line([tenantId, e + 1, c.ContactId, 'phone', c.Phone]);
    for (const d of contactSearchDocuments(c, [c.Email ?? '', c.Phone ?? '']))
      docs += line([
        tenantId,
        d.audience,
        d.entityType,
        d.entityId,
        d.title,
        d.titleKey,
        d.searchText,
        JSON.stringify(d.facets),
      ]);
    for (const [f, v] of contactFacets(c))
      facets.set(`${f}\u0000${v}`, (facets.get(`${f}\u0000${v}`) ?? 0) + 1);
  }
  return { contacts, entries, docs, facets };
}

/** How the loader talks to the database: statements, and COPY of CSV text into a table. */
export interface BulkTarget {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  copy(table: string, columns: string[], chunks: AsyncIterable<string>): Promise<void>;
  close(): Promise<void>;
}

export function postgresTarget(url: string): BulkTarget {
  const pool = new pg.Pool({
    connectionString: url,
    max: 4,
    // Replica mode skips the per-row foreign-key triggers: the loader writes one known tenant (superuser only).
    options: '-c maintenance_work_mem=256MB -c synchronous_commit=off -c session_replication_role=replica',
  });
  return {
    async query<T>(text: string, params: unknown[] = []) {
      return (await pool.query(text, params)).rows as T[];
    },
    async copy(table, columns, chunks) {
      const client = await pool.connect();
      try {
        const stream = client.query(
          copyStreams.from(`COPY ${table} (${columns.join(', ')}) FROM STDIN WITH (FORMAT csv)`),
        );
        await pipeline(Readable.from(chunks), stream);
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

export function pgliteTarget(client: PGlite): BulkTarget {
  return {
    async query<T>(text: string, params: unknown[] = []) {
      return (await client.query<T>(text, params)).rows;
    },
    async copy(table, columns, chunks) {
      for await (const text of chunks) {
        await client.query(`COPY ${table} (${columns.join(', ')}) FROM '/dev/blob' WITH (FORMAT csv)`, [], {
          blob: new Blob([text]),
        });
      }
    },
    close: async () => undefined,
  };
}

export interface BulkResult {
  contacts: number;
  entries: number;
  searchDocuments: number;
  ms: { generateAndCopy: number; indexes: number; total: number };
}

/** Loads `count` generated contacts into a tenant. */
export async function bulkSeedContacts(
  target: BulkTarget,
  options: {
    tenantId: string;
    count: number;
    seed?: number;
    chunkSize?: number;
    log?: (msg: string) => void;
  },
): Promise<BulkResult> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const { tenantId, count } = options;
  const size = options.chunkSize ?? 20_000;
  const seed = options.seed ?? 20260101;
  const reserve = async (seq: string, n: number) => {
    const [r] = await target.query<{ first: string }>(
      `SELECT setval('${seq}', nextval('${seq}') + $1 - 1) - $1 + 1 AS first`,
      [n],
    );
    return Number(r?.first);
  };
  const firstId = await reserve('contacts_contact_id_seq', count);
  const firstEntryId = await reserve('contact_entries_entry_id_seq', 2 * count);
  // Empty tables: drop the secondary indexes now, rebuild them in bulk after the load.
  const [empty] = await target.query<{ empty: boolean }>(
    'SELECT NOT EXISTS (SELECT 1 FROM contacts) AND NOT EXISTS (SELECT 1 FROM search_documents) AS empty',
  );
  const rebuild: string[] = [];
  if (empty?.empty && count >= 50_000) {
    const defs = await target.query<{ indexname: string; indexdef: string }>(
      `SELECT i.indexname, i.indexdef FROM pg_indexes i
        WHERE i.schemaname = 'public' AND i.tablename = ANY($1)
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
      [[...TABLES]],
    );
    for (const d of defs) {
      await target.query(`DROP INDEX ${d.indexname}`);
      rebuild.push(d.indexdef);
    }
  }
  const facets = new Map<string, number>();
  // Each table's stream generates its own chunks; generation is cheap next to the database's work.
  const stream = (part: 'contacts' | 'entries' | 'docs') =>
    (async function* () {
      for (let start = 0; start < count; start += size) {
        const c = chunk(tenantId, seed, firstId, firstEntryId, start, Math.min(count, start + size));
        if (part === 'contacts') {
          for (const [k, n] of c.facets) facets.set(k, (facets.get(k) ?? 0) + n);
          if (start % (size * 10) === 0) log(`contacts ${start}/${count}`);
        }
        yield c[part];
      }
    })();
  await Promise.all([
    target.copy('contacts', CONTACT_COPY_COLUMNS, stream('contacts')),
    target.copy('contact_entries', ENTRY_COLUMNS, stream('entries')),
    target.copy('search_documents', DOC_COLUMNS, stream('docs')),
  ]);
  const copied = performance.now();
  log(`copied in ${Math.round(copied - started)} ms; rebuilding ${rebuild.length} indexes`);
  await Promise.all(rebuild.map((def) => target.query(def)));
  const indexed = performance.now();
  const values = [...facets.entries()].map(([k, n]) => {
    const i = k.indexOf('\u0000');
    return [k.slice(0, i), k.slice(i + 1), n] as const;
  });
  for (const [facet, value, n] of values) {
    await target.query(
      `INSERT INTO contact_counts (tenant_id, facet, value, n) VALUES ($1, $2, $3, $4)
       ON CONFLICT (tenant_id, facet, value) DO UPDATE SET n = contact_counts.n + excluded.n`,
      [tenantId, facet, value, n],
    );
  }
  for (const t of TABLES) await target.query(`ANALYZE ${t}`);
  await target.query('ANALYZE contact_counts');
  const listed = values.find(([f, v]) => f === 'isListed' && v === 'true')?.[2] ?? 0;
  return {
    contacts: count,
    entries: 2 * count,
    searchDocuments: count + listed,
    ms: {
      generateAndCopy: Math.round(copied - started),
      indexes: Math.round(indexed - copied),
      total: Math.round(performance.now() - started),
    },
  };
}
