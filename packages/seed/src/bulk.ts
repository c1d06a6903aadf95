/**
 * Bulk seeding of realistic contacts with their contact-info entries, search documents and counters, through
 * COPY (pg-copy-streams on PostgreSQL, `COPY … FROM '/dev/blob'` on PGlite). Rows are generated from a seeded
 * random source, so a run is reproducible. Runs as the owner role (COPY into row-level-secured tables needs
 * BYPASSRLS). When the contacts tables are empty, their indexes are dropped during the load and rebuilt after
 * (a bulk index build is several times faster than maintaining them row by row). How the load is ordered to fit
 * P8 on two cores: decision 0045.
 */

import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import { APP_ROLE, type Database } from '@guildhall/db';
import type { PgliteThread } from '@guildhall/db/pglite-thread';
import {
  type ContactRecord,
  contactDisplayName,
  contactFacets,
  contactSearchDocuments,
  contactSpokenName,
  DEFAULT_DIRECTORY_STATUSES,
  DEFAULT_PUBLISHED_FIELDS,
  foldSearchText,
  PUBLISH,
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
export function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * COPY text format: tab-separated, `\N` for null. The generated values come from the fixed lists above and digits,
 * none of which holds a backslash, tab or line break (checked once below), so only the reference rows escape.
 */
function field(v: string | number | boolean | null): string {
  if (v === null) return '\\N';
  const s = String(v);
  return /[\\\t\n\r]/.test(s) ? s.replace(/[\\\t\n\r]/g, (ch) => TEXT_ESCAPES[ch] ?? ch) : s;
}
const TEXT_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const line = (values: (string | number | boolean | null)[]) => `${values.map(field).join('\t')}\n`;
for (const s of [...FIRST, ...LAST, ...CITIES.flat(), ...STREETS, ...ORG_WORDS, ...ORG_KINDS, ...STATUSES])
  if (/[\\\t\n\r]/.test(s)) throw new Error(`seed list value needs escaping: ${s}`);

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

/** Letters that do not decompose into a base letter and a mark, as people spell them in an address. */
const SPELLED: Record<string, string> = { ł: 'l', ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', đ: 'd', ı: 'i' };

/** The ASCII handle of an email address made from lower-case names: "łukasz.søren" → "lukasz.soren". */
export function emailHandle(text: string): string {
  return text
    .replace(/[łøæœßđı]/g, (c) => SPELLED[c] ?? c)
    .normalize('NFKD')
    .replace(/[^\w.]/g, '');
}

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
    Email: `${emailHandle(handle)}@example.org`,
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

/**
 * The reference rows of one contact, straight from the shared rules (display name, search documents, facets).
 * The fast generator below must produce exactly these; `chunk` compares them on a sample of every chunk.
 */
export function referenceRows(tenantId: string, c: ContactRecord, entryId: number): Chunk {
  let docs = '';
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
  const facets = new Map<string, number>();
  for (const [f, v] of contactFacets(c)) facets.set(`${f}\u0000${v}`, 1);
  return {
    contacts: line([
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
    ]),
    entries:
      line([tenantId, entryId, c.ContactId, 'email', c.Email]) +
      line([tenantId, entryId + 1, c.ContactId, 'phone', c.Phone]),
    docs,
    facets,
  };
}

/**
 * What the fast generator reuses across contacts: everything that depends only on a name, an organisation or a
 * city (display name, spoken title, folded search text, email handle, JSON facet values) is computed once.
 */
const json = (v: string | null) => (v === null ? 'null' : JSON.stringify(v));
/**
 * Built on the first use, not when the module loads: the demo seed imports this module at every start, and the
 * table of every first and last name takes about two seconds to build.
 */
let prepared: ReturnType<typeof prepareNames> | undefined;
const names = () => {
  prepared ??= prepareNames();
  return prepared;
};
function prepareNames() {
  const people = FIRST.flatMap((first) =>
    LAST.map((last) => {
      const base = { ContactType: 'individual', FirstName: first, LastName: last, OrganizationName: null };
      const title = contactSpokenName(base);
      return {
        first,
        last,
        display: contactDisplayName(base),
        title,
        titleKey: foldSearchText(title),
        handle: emailHandle(`${first.toLowerCase()}.${last.toLowerCase()}`),
      };
    }),
  );
  const orgs = ORG_WORDS.flatMap((w) =>
    ORG_KINDS.map((k) => {
      const name = `${w} ${k}`;
      return { name, key: foldSearchText(name), json: json(name) };
    }),
  );
  const places = CITIES.map(([city, state, zip]) => ({
    city,
    state,
    zip,
    cityKey: foldSearchText(city),
    stateKey: foldSearchText(state),
    zipKey: foldSearchText(zip),
    cityJson: json(city),
    stateJson: json(state),
    country: state === 'QC' ? 'CA' : 'US',
  }));
  return { people, orgs, places };
}
const STATUS_JSON = STATUSES.map(json);
const PUBLISHED = (bit: number) => (DEFAULT_PUBLISHED_FIELDS & bit) === bit;
const MEMBER_ORG = PUBLISHED(PUBLISH.Organization);
const MEMBER_PLACE = PUBLISHED(PUBLISH.Street) || PUBLISHED(PUBLISH.CityState);
const MEMBER_EMAIL = PUBLISHED(PUBLISH.Email);
const MEMBER_PHONE = PUBLISHED(PUBLISH.Phone);
const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** Contacts per block compared with their reference rows. */
const CHECKED_PER_CHUNK = 25;
/** Contacts per COPY write: small chunks keep the row strings short-lived (most of the cost was their garbage). */
const ROWS_PER_CHUNK = 1_000;

/** Which rows a pass makes: the search documents, or the contacts with their entries, or all three. */
export type Rows = 'docs' | 'contacts' | 'all';

/**
 * Rows for contacts start..end-1 (ids from firstId, entry ids from firstEntryId), drawing from `rand` (a block's
 * random source, continued from the previous chunk of the block). The random draws do not depend on `rows`.
 */
export function chunk(
  tenantId: string,
  rand: () => number,
  firstId: number,
  firstEntryId: number,
  start: number,
  end: number,
  rows: Rows = 'all',
): Chunk {
  const wantContacts = rows !== 'docs';
  const wantDocs = rows !== 'contacts';
  const contacts: string[] = [];
  const entries: string[] = [];
  const docs: string[] = [];
  // Counters by status index, organisation or not, listed or not.
  const counts = new Array<number>(STATUSES.length * 4).fill(0);
  const t = `${tenantId}\t`;
  const { people, orgs, places } = names();
  for (let i = start; i < end; i++) {
    const n = i + 1;
    const id = firstId + i;
    const isOrg = rand() < 0.05;
    const place = places[Math.floor(rand() * places.length)]!;
    const person = isOrg
      ? null
      : people[Math.floor(rand() * FIRST.length) * LAST.length + Math.floor(rand() * LAST.length)]!;
    let org: string | null = null;
    let orgKey = '';
    let orgJson = 'null';
    if (isOrg) {
      const o =
        orgs[
          Math.floor(rand() * ORG_WORDS.length) * ORG_KINDS.length + Math.floor(rand() * ORG_KINDS.length)
        ]!;
      org = `${o.name} ${n}`;
      orgKey = `${o.key} ${n}`;
    } else if (rand() < 0.3) {
      const o =
        orgs[
          Math.floor(rand() * ORG_WORDS.length) * ORG_KINDS.length + Math.floor(rand() * ORG_KINDS.length)
        ]!;
      org = o.name;
      orgKey = o.key;
      orgJson = o.json;
    }
    const si = Math.floor(rand() * STATUSES.length);
    const status = STATUSES[si]!;
    const account = `A${pad(n, 7)}`;
    const accountKey = `a${pad(n, 7)}`;
    const email = isOrg ? `info${n}@example.org` : `${person!.handle}${n}@example.org`;
    const area = 200 + Math.floor(rand() * 700);
    const local = pad(Math.floor(rand() * 10_000_000), 7);
    const phone = `${area}${local}`;
    const address1 = `${1 + Math.floor(rand() * 9999)} ${STREETS[Math.floor(rand() * STREETS.length)]} St`;
    const address2 = rand() < 0.1 ? `Suite ${1 + Math.floor(rand() * 900)}` : '\\N';
    const postal = `${place.zip}${pad(Math.floor(rand() * 100), 2)}`;
    const postalKey = `${place.zipKey}${postal.slice(place.zip.length)}`;
    const listed = rand() < 0.3;
    counts[si * 4 + (isOrg ? 2 : 0) + (listed ? 1 : 0)]!++;

    const type = isOrg ? 'organization' : 'individual';
    const title = isOrg ? (org as string) : person!.title;
    const titleKey = isOrg ? orgKey : person!.titleKey;
    if (wantContacts) {
      contacts.push(
        `${t}${id}\t${type}\t${isOrg ? '\\N' : person!.first}\t${isOrg ? '\\N' : person!.last}\t${org ?? '\\N'}\t${isOrg ? org : person!.display}\t${status}\t${account}\t${email}\t${phone}\t${isOrg ? `http://www.org${n}.example.org` : '\\N'}\t${address1}\t${address2}\t${place.city}\t${place.state}\t${postal}\t${place.country}\t${listed}\t${DEFAULT_PUBLISHED_FIELDS}\n`,
      );
      const e = firstEntryId + 2 * i;
      entries.push(`${t}${e}\t${id}\temail\t${email}\n${t}${e + 1}\t${id}\tphone\t${phone}\n`);
    }
    if (!wantDocs) continue;
    const typeJson = isOrg ? '"organization"' : '"individual"';
    const staffText = `${titleKey}${org === null ? '' : ` ${orgKey}`} ${accountKey} ${email} ${phone} ${place.cityKey} ${place.stateKey} ${postalKey} ${email} ${phone}`;
    docs.push(
      `${t}staff\tContact\t${id}\t${title}\t${titleKey}\t${staffText}\t{"RelatedTo":${isOrg ? 'null' : orgJson},"City":${place.cityJson},"StateProvince":${place.stateJson},"Status":${STATUS_JSON[si]},"ContactType":${typeJson},"AccountNumber":"${account}"}\n`,
    );
    // The member directory's documents: listed contacts of the statuses it lists by default.
    if (listed && DEFAULT_DIRECTORY_STATUSES.includes(status)) {
      const memberOrg = isOrg || MEMBER_ORG ? org : null;
      let memberText = titleKey;
      if (memberOrg !== null) memberText += ` ${orgKey}`;
      if (MEMBER_EMAIL) memberText += ` ${email}`;
      if (MEMBER_PHONE)
        memberText += ` (${phone.slice(0, 3)}) ${phone.slice(3, 6)}-${phone.slice(6)} ${phone}`;
      if (MEMBER_PLACE) memberText += ` ${place.cityKey} ${place.stateKey}`;
      docs.push(
        `${t}member\tDirectoryContact\t${id}\t${title}\t${titleKey}\t${memberText}\t{"RelatedTo":${isOrg || memberOrg === null ? 'null' : orgJson},"City":${MEMBER_PLACE ? place.cityJson : 'null'},"StateProvince":${MEMBER_PLACE ? place.stateJson : 'null'},"Status":null,"ContactType":${typeJson},"AccountNumber":null}\n`,
      );
    }
  }
  const facets = new Map<string, number>();
  const add = (k: string, n: number) => {
    if (n > 0) facets.set(k, (facets.get(k) ?? 0) + n);
  };
  counts.forEach((n, k) => {
    add('\u0000', n);
    add(`status\u0000${STATUSES[Math.floor(k / 4)]}`, n);
    add(`contactType\u0000${k & 2 ? 'organization' : 'individual'}`, n);
    add(`isListed\u0000${(k & 1) === 1}`, n);
  });
  return { contacts: contacts.join(''), entries: entries.join(''), docs: docs.join(''), facets };
}

/**
 * The rows of contacts start..end-1 in chunks of at most `rowsPerChunk`. The random source restarts at every
 * multiple of `blockSize` (seed + block start), so the data depends on the seed and the block size only. The first
 * contacts of every block are regenerated through the shared rules and must match the fast rows exactly.
 */
export function chunks(
  tenantId: string,
  seed: number,
  firstId: number,
  firstEntryId: number,
  count: number,
  blockSize: number,
  rowsPerChunk = ROWS_PER_CHUNK,
): { count: number; make: (k: number, rows?: Rows) => Chunk } {
  const ranges: [number, number][] = [];
  for (let block = 0; block < count; block += blockSize)
    for (let start = block; start < Math.min(count, block + blockSize); start += rowsPerChunk)
      ranges.push([start, Math.min(count, block + blockSize, start + rowsPerChunk)]);
  let rand = random(seed);
  return {
    count: ranges.length,
    /** Chunk k; chunks are made in order (a new pass starts again at 0). */
    make(k, rows = 'all') {
      const [start, end] = ranges[k]!;
      const fresh = start % blockSize === 0;
      if (fresh) rand = random(seed + start);
      const out = chunk(tenantId, rand, firstId, firstEntryId, start, end, rows);
      if (fresh)
        checkChunk(
          tenantId,
          seed,
          firstId,
          firstEntryId,
          start,
          Math.min(end, start + CHECKED_PER_CHUNK),
          out,
        );
      return out;
    },
  };
}

/** The first contacts of a block, regenerated through the shared rules, must match the fast rows exactly. */
function checkChunk(
  tenantId: string,
  seed: number,
  firstId: number,
  firstEntryId: number,
  start: number,
  end: number,
  fast: Chunk,
) {
  const rand = random(seed + start);
  const ref = { contacts: '', entries: '', docs: '' };
  const facets = new Map<string, number>();
  for (let i = start; i < end; i++) {
    const r = referenceRows(tenantId, generateContact(rand, firstId + i, i + 1), firstEntryId + 2 * i);
    ref.contacts += r.contacts;
    ref.entries += r.entries;
    ref.docs += r.docs;
    for (const k of r.facets.keys()) facets.set(k, (facets.get(k) ?? 0) + 1);
  }
  for (const part of ['contacts', 'entries', 'docs'] as const)
    if (fast[part] !== '' && !fast[part].startsWith(ref[part]))
      throw new Error(`bulk seed: the fast ${part} rows differ from the shared rules (contact ${start + 1})`);
  for (const k of facets.keys())
    if (!fast.facets.has(k)) throw new Error(`bulk seed: facet ${JSON.stringify(k)} is not counted`);
}

/** How the loader talks to the database: statements, and COPY of text-format rows into a table. */
export interface BulkTarget {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  copy(table: string, columns: string[], chunks: AsyncIterable<string>): Promise<void>;
  close(): Promise<void>;
  /** How many statements may usefully run at once (index builds); 1 when there is a single connection. */
  lanes?: number;
}

/** Attempts at opening a connection of the loader before its error is the load's. */
const CONNECT_ATTEMPTS = 5;

export function postgresTarget(url: string): BulkTarget {
  const pool = new pg.Pool({
    connectionString: url,
    max: 4,
    // Replica mode skips the per-row foreign-key triggers: the loader writes one known tenant (superuser only).
    // No statement or idle limit of the server's defaults ends an index build of several minutes.
    options:
      '-c maintenance_work_mem=256MB -c max_parallel_maintenance_workers=0 -c synchronous_commit=off -c session_replication_role=replica -c statement_timeout=0 -c idle_in_transaction_session_timeout=0 -c idle_session_timeout=0',
    keepAlive: true,
  });
  // An idle connection the server closes is dropped from the pool; without a listener its error ends the process.
  pool.on('error', () => undefined);
  /**
   * A connection of the pool, opened again when opening it failed: on a loaded host a new connection's start-up
   * packet can miss the server's authentication_timeout (one minute), and the server then closes it without a
   * word ("Connection terminated unexpectedly" before any statement was sent; the load died so twice in its index
   * lanes). Nothing was sent on a connection that failed to open, so opening it again is safe.
   */
  const connect = async (): Promise<pg.PoolClient> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await pool.connect();
      } catch (err) {
        if (attempt >= CONNECT_ATTEMPTS) throw err;
        await new Promise((r) => setTimeout(r, 500 * attempt));
      }
    }
  };
  return {
    lanes: 2,
    async query<T>(text: string, params: unknown[] = []) {
      const client = await connect();
      try {
        const rows = (await client.query(text, params)).rows as T[];
        client.release();
        return rows;
      } catch (err) {
        client.release(err as Error); // a connection that failed is closed, not kept
        throw err;
      }
    },
    async copy(table, columns, chunks) {
      const client = await connect();
      try {
        const stream = client.query(copyStreams.from(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
        // One chunk at a time: the generator runs only as far ahead as the slowest stream lets it.
        await pipeline(Readable.from(chunks, { objectMode: false, highWaterMark: 1 }), stream);
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * Runs `fn` with the bulk target of an open database, writing as the owner: on PGlite its one connection with the
 * role reset meanwhile, on PostgreSQL a pool of its own on `databaseUrl` (the owner's URL), closed after.
 */
export async function withBulkTarget<T>(
  database: Database,
  databaseUrl: string | undefined,
  fn: (target: BulkTarget) => Promise<T>,
): Promise<T> {
  if (database.pglite) {
    const pglite = database.pglite;
    await pglite.exec('RESET ROLE');
    try {
      return await fn(pgliteTarget(pglite));
    } finally {
      await pglite.exec(`SET ROLE ${APP_ROLE}`);
    }
  }
  if (!databaseUrl) throw new Error('Bulk loading into PostgreSQL needs the database URL.');
  const target = postgresTarget(databaseUrl);
  try {
    return await fn(target);
  } finally {
    await target.close();
  }
}

const PGLITE_COPY_CHARS = 8_000_000;

/** What a bulk load needs of the embedded engine: `query`, with a blob for COPY (PGlite or its worker thread). */
type PgliteQueries = Pick<PGlite, 'query'> | PgliteThread;

export function pgliteTarget(client: PgliteQueries): BulkTarget {
  return {
    lanes: 1,
    async query<T>(text: string, params: unknown[] = []) {
      return (await (client as PgliteThread).query<T>(text, params)).rows;
    },
    async copy(table, columns, chunks) {
      // Each COPY statement has a fixed cost here: chunks are gathered into blobs of a few megabytes.
      let parts: string[] = [];
      let size = 0;
      const flush = async () => {
        if (parts.length === 0) return;
        const blob = new Blob(parts);
        parts = [];
        size = 0;
        await (client as PgliteThread).query(`COPY ${table} (${columns.join(', ')}) FROM '/dev/blob'`, [], {
          blob,
        });
      };
      for await (const text of chunks) {
        parts.push(text);
        size += text.length;
        if (size >= PGLITE_COPY_CHARS) await flush();
      }
      await flush();
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

/**
 * One generation pass feeds several COPY streams: each chunk is generated once, and the fastest stream waits
 * when it is `ahead` chunks in front of the slowest (memory stays bounded).
 */
function fanOut(chunks: number, make: (k: number) => Chunk, streams: number, ahead = 8) {
  const made: (Chunk | undefined)[] = [];
  const taken = Array.from({ length: streams }, () => 0);
  let waiters: (() => void)[] = [];
  return (j: number, part: 'contacts' | 'entries' | 'docs') =>
    (async function* () {
      for (let k = 0; k < chunks; k++) {
        while (k >= made.length) {
          if (made.length - Math.min(...taken) >= ahead) await new Promise<void>((r) => waiters.push(r));
          else made.push(make(made.length));
        }
        const text = made[k]![part];
        taken[j] = k + 1;
        if (Math.min(...taken) > k) made[k] = undefined;
        const woken = waiters;
        waiters = [];
        for (const wake of woken) wake();
        yield text;
      }
    })();
}

/** Several COPY streams into one table share one generation pass: each takes the next chunk when it is ready. */
function shared(chunks: number, make: (k: number) => string) {
  let next = 0;
  return async function* () {
    while (next < chunks) yield make(next++);
  };
}

/**
 * What a loaded table gets once its indexes are back: VACUUM sets its visibility map, so lists read their keys by
 * index-only scans from the first request (right after a COPY no page is known all-visible, and a deep page or a
 * filtered one visits the table for every key it skips), and ANALYZE gives the planner its statistics. The
 * indexes have nothing to clean up after a load (INDEX_CLEANUP OFF skips reading them again).
 */
function readyForReads(table: string): string {
  return `VACUUM (ANALYZE, INDEX_CLEANUP OFF) ${table}`;
}

/** Index builds, longest first (the trigram index of the search text is the long pole of the load). */
function buildOrder(d: { indexname: string; indexdef: string; tablename: string }): number {
  if (d.indexname === 'search_documents_trgm_idx') return 0;
  if (/ USING gin /i.test(d.indexdef)) return 1;
  if (/lower\(/i.test(d.indexdef)) return 2;
  return d.tablename === 'contacts' ? 4 : 3;
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
  // The ids come from the tenant's own sequences (decision 0071), reserved as one block each: the rows carry them.
  const reserve = async (table: string, n: number) => {
    const [r] = await target.query<{ first: string }>('SELECT gh_reserve_ids($1::uuid, $2, $3) AS first', [
      tenantId,
      table,
      n,
    ]);
    return Number(r?.first);
  };
  const firstId = await reserve('contacts', count);
  const firstEntryId = await reserve('contact_entries', 2 * count);
  // Empty tables: drop the secondary indexes now, rebuild them in bulk after the load.
  const [empty] = await target.query<{ empty: boolean }>(
    'SELECT NOT EXISTS (SELECT 1 FROM contacts) AND NOT EXISTS (SELECT 1 FROM search_documents) AS empty',
  );
  const rebuild: { indexname: string; indexdef: string; tablename: string }[] = [];
  if (empty?.empty && count >= 50_000) {
    const defs = await target.query<{ indexname: string; indexdef: string; tablename: string }>(
      `SELECT i.indexname, i.indexdef, i.tablename FROM pg_indexes i
        WHERE i.schemaname = 'public' AND i.tablename = ANY($1)
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
      [[...TABLES]],
    );
    for (const d of defs) {
      await target.query(`DROP INDEX ${d.indexname}`);
      rebuild.push(d);
    }
  }
  // Statements after the load run on a few lanes that take the next one from a queue: the indexes longest
  // first, and each table's ANALYZE once its last index is back (ANALYZE reads the expression indexes too).
  const queue: string[] = [];
  const pending = new Map<string, number>(TABLES.map((t) => [t, 0]));
  for (const d of rebuild) pending.set(d.tablename, (pending.get(d.tablename) ?? 0) + 1);
  const tableOf = new Map(rebuild.map((d) => [d.indexdef, d.tablename]));
  let loaded = 0;
  let indexed = 0;
  let wakeLanes: (() => void)[] = [];
  const rank = new Map(rebuild.map((d) => [d.indexdef, buildOrder(d)]));
  const enqueue = (statements: string[], done = false) => {
    // One queue for all tables, longest build first (an ANALYZE is short: it goes first).
    queue.push(...statements);
    queue.sort((a, b) => (rank.get(a) ?? -1) - (rank.get(b) ?? -1));
    if (done) loaded = TABLES.length;
    const woken = wakeLanes;
    wakeLanes = [];
    for (const wake of woken) wake();
  };
  const tableLoaded = (table: string) => {
    loaded++;
    const statements = rebuild.filter((d) => d.tablename === table).map((d) => d.indexdef);
    enqueue(pending.get(table) === 0 ? [readyForReads(table)] : statements);
  };
  const lane = async () => {
    for (;;) {
      const next = queue.shift();
      if (next === undefined) {
        if (loaded === TABLES.length && [...pending.values()].every((n) => n === 0)) return;
        await new Promise<void>((r) => wakeLanes.push(r));
        continue;
      }
      const at = performance.now();
      await target.query(next);
      log(`${Math.round(performance.now() - at)} ms: ${next}`);
      const table = tableOf.get(next);
      if (table === undefined) continue;
      const left = (pending.get(table) ?? 1) - 1;
      pending.set(table, left);
      if (left === 0) {
        indexed = performance.now();
        enqueue([readyForReads(table)]);
      } else enqueue([]);
    }
  };
  const lanes = Promise.all(Array.from({ length: Math.max(1, target.lanes ?? 1) }, lane));
  lanes.catch(() => undefined); // awaited below; a failure is reported there

  const facets = new Map<string, number>();
  const rows = chunks(tenantId, seed, firstId, firstEntryId, count, size);
  let done = 0;
  // First the search documents, on two streams, so that their trigram index (the longest build) starts early and
  // runs while the contacts and their entries are generated again and copied.
  const docs = shared(rows.count, (k) => {
    const c = rows.make(k, 'docs');
    for (const [f, n] of c.facets) {
      facets.set(f, (facets.get(f) ?? 0) + n);
      if (f === '\u0000') done += n;
    }
    if (k % 50 === 0) log(`search documents ${done}/${count}`);
    return c.docs;
  });
  await Promise.all([
    target.copy('search_documents', DOC_COLUMNS, docs()),
    target.copy('search_documents', DOC_COLUMNS, docs()),
  ]);
  log(`search documents copied in ${Math.round(performance.now() - started)} ms`);
  tableLoaded('search_documents');
  const feed = fanOut(
    rows.count,
    (k) => {
      if (k % 50 === 0) log(`contacts ${k * ROWS_PER_CHUNK}/${count}`);
      return rows.make(k, 'contacts');
    },
    2,
  );
  await Promise.all([
    target.copy('contacts', CONTACT_COPY_COLUMNS, feed(0, 'contacts')).then(() => tableLoaded('contacts')),
    target
      .copy('contact_entries', ENTRY_COLUMNS, feed(1, 'entries'))
      .then(() => tableLoaded('contact_entries')),
  ]);
  const copied = performance.now();
  log(`copied in ${Math.round(copied - started)} ms`);
  enqueue([], true);
  await lanes;
  indexed = Math.max(indexed, copied);
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
  await target.query(readyForReads('contact_counts'));
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
