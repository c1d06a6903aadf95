/**
 * The import's writes, set-based (decision 0087): a batch of contacts is one insert or one update statement, their
 * audit entries one insert, their search documents one delete and one insert, the counters one upsert. What is
 * written is what the generic save writes for one contact; only the number of statements differs.
 *
 * A batch travels as one JSON parameter that `jsonb_to_recordset` reads into rows: the query builder's multi-row
 * insert spent 1.2-1.8 s of the main thread building the text of 1,000 rows (12,000 parameters), where the JSON
 * takes milliseconds. Lists of ids and numbers travel as one array or JSON parameter likewise.
 */
import {
  auditLog,
  contactEntries,
  contactLinks,
  contacts,
  rowsOf,
  searchDocuments,
  type Tx,
} from '@guildhall/db';
import { type ContactRecord, contactSearchDocuments, type Model } from '@guildhall/shared';
import { and, eq, getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { AuthContext } from '../../platform/context.ts';
import type { ExtraFieldsSource } from '../../platform/resources/extra-fields.ts';
import type * as repo from '../../platform/resources/resource.repo.ts';
import { CONTACT_DOCUMENT_TYPES, contactRecordColumns, directoryStatuses } from './contacts.repo.ts';

/** Rows of one statement: 1,000 contacts of about 25 values stay far below PostgreSQL's 65,535 parameters. */
export const IMPORT_BATCH = 1000;

/** Which of these account numbers a contact of the tenant (live or deleted) already has. */
export async function takenAccountNumbers(
  tx: Tx,
  tenantId: string,
  numbers: readonly string[],
): Promise<Set<string>> {
  const taken = new Set<string>();
  for (let i = 0; i < numbers.length; i += IMPORT_BATCH) {
    const chunk = numbers.slice(i, i + IMPORT_BATCH);
    const rows = rowsOf<{ n: string }>(
      await tx.execute(sql`select account_number as n from contacts where tenant_id = ${tenantId}
        and account_number in (select jsonb_array_elements_text(${JSON.stringify(chunk)}::jsonb))`),
    );
    for (const r of rows) taken.add(r.n);
  }
  return taken;
}

/** Whole contact rows by id (every property, as the generic layer reads a row). */
export async function contactRows(tx: Tx, tenantId: string, ids: readonly number[]): Promise<repo.Row[]> {
  const out: repo.Row[] = [];
  for (let i = 0; i < ids.length; i += IMPORT_BATCH) {
    const chunk = ids.slice(i, i + IMPORT_BATCH);
    out.push(
      ...((await tx
        .select()
        .from(contacts)
        .where(
          and(eq(contacts.tenantId, tenantId), sql`${contacts.contactId} = any(${idArray(chunk)})`),
        )) as repo.Row[]),
    );
  }
  return out;
}

/** New contacts, in one statement: answers their rows (whole, as the generic layer reads a row). */
export async function insertContacts(
  tx: Tx,
  tenantId: string,
  values: readonly repo.Row[],
): Promise<repo.Row[]> {
  if (values.length === 0) return [];
  const ids = await insertJson(tx, contacts, values, 'contact_id');
  return contactRows(
    tx,
    tenantId,
    ids.map((r) => Number(r.contact_id)),
  );
}

const columns = getTableColumns(contacts);

interface ColumnInfo {
  name: string;
  getSQLType(): string;
}

/** A list of ids as one `bigint[]` parameter. */
function idArray(ids: readonly number[]) {
  return sql`${`{${ids.map((id) => Math.trunc(Number(id))).join(',')}}`}::bigint[]`;
}

const jsonValue = (v: unknown) => (v instanceof Date ? v.toISOString() : v === undefined ? null : v);

/**
 * Inserts rows (Drizzle properties to values) in one statement per set of properties: the rows as one JSON
 * parameter read by `jsonb_to_recordset`; a property no row of a set carries keeps the column's default.
 * Answers `returning` of each row when asked.
 */
async function insertJson(
  tx: Tx,
  table: PgTable,
  rows: readonly Record<string, unknown>[],
  returning?: string,
): Promise<Record<string, unknown>[]> {
  const cols = getTableColumns(table) as unknown as Record<string, ColumnInfo>;
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const r of rows) {
    const key = Object.keys(r)
      .filter((p) => p in cols && r[p] !== undefined)
      .sort()
      .join(',');
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const out: Record<string, unknown>[] = [];
  for (const [key, group] of groups) {
    const props = key.split(',').filter((p) => p !== '');
    const names = props.map((p) => `"${(cols[p] as ColumnInfo).name}"`).join(', ');
    const definition = props
      .map((p) => `"${(cols[p] as ColumnInfo).name}" ${(cols[p] as ColumnInfo).getSQLType()}`)
      .join(', ');
    const json = JSON.stringify(
      group.map((r) => Object.fromEntries(props.map((p) => [(cols[p] as ColumnInfo).name, jsonValue(r[p])]))),
    );
    const result = await tx.execute(
      sql
        .raw(`insert into "${getTableName(table)}" (${names}) select ${names} from jsonb_to_recordset(`)
        .append(sql`${json}::jsonb`)
        .append(sql.raw(`) as r(${definition})${returning ? ` returning ${returning}` : ''}`)),
    );
    out.push(...rowsOf<Record<string, unknown>>(result));
  }
  return out;
}

/**
 * Existing contacts changed, in one statement: each row's values (Drizzle properties, `contactId` among them) are
 * read from one JSON parameter by `jsonb_to_recordset` and set on the row with that id. Answers the rows after.
 */
export async function updateContacts(
  tx: Tx,
  tenantId: string,
  values: readonly repo.Row[],
): Promise<repo.Row[]> {
  if (values.length === 0) return [];
  const props = [...new Set(values.flatMap((v) => Object.keys(v)))].filter(
    (p) => p in columns && p !== 'tenantId' && p !== 'contactId',
  );
  const col = (p: string) =>
    (columns as Record<string, { name: string; getSQLType(): string }>)[p] as {
      name: string;
      getSQLType(): string;
    };
  const records = values.map((v) => {
    const r: Record<string, unknown> = { contact_id: v.contactId };
    for (const p of props) r[col(p).name] = v[p] instanceof Date ? (v[p] as Date).toISOString() : v[p];
    return r;
  });
  // Only the properties a row carries are set on it: a row without one keeps its value (coalesce would also keep
  // a value the row sets to null, so each property says whether the row has it).
  const has = (p: string) => `r.has_${col(p).name}`;
  for (const [i, v] of values.entries())
    for (const p of props) (records[i] as Record<string, unknown>)[`has_${col(p).name}`] = p in v;
  const definition = [
    'contact_id bigint',
    ...props.flatMap((p) => [`"${col(p).name}" ${col(p).getSQLType()}`, `has_${col(p).name} boolean`]),
  ].join(', ');
  const assignments = props
    .map((p) => `"${col(p).name}" = case when ${has(p)} then r."${col(p).name}" else c."${col(p).name}" end`)
    .join(', ');
  await tx.execute(
    sql
      .raw(`update contacts c set ${assignments}
      from jsonb_to_recordset(`)
      .append(sql`${JSON.stringify(records)}::jsonb`)
      .append(
        sql.raw(`) as r(${definition})
      where c.tenant_id = `),
      )
      .append(sql`${tenantId}::uuid and c.contact_id = r.contact_id`),
  );
  return contactRows(
    tx,
    tenantId,
    values.map((v) => Number(v.contactId)),
  );
}

/** Audit entries of the import, one statement per batch: who, on whose behalf, before and after, as a save does. */
export async function insertAudit(
  tx: Tx,
  auth: Pick<AuthContext, 'tenantId' | 'userId' | 'impersonatorUserId'>,
  entity: string,
  entries: readonly { before: Model | null; after: Model; id: string }[],
): Promise<void> {
  for (let i = 0; i < entries.length; i += IMPORT_BATCH) {
    const chunk = entries.slice(i, i + IMPORT_BATCH);
    await insertJson(
      tx,
      auditLog,
      chunk.map((e) => ({
        tenantId: auth.tenantId,
        actorUserId: auth.impersonatorUserId ?? auth.userId,
        onBehalfOfUserId: auth.impersonatorUserId ? auth.userId : null,
        action: e.before ? 'update' : 'create',
        entity,
        entityId: e.id,
        before: e.before,
        after: e.after,
      })),
    );
  }
}

/** Live contacts linked to these organisations (their search documents name the organisation). */
export async function linkedToOrganizations(
  tx: Tx,
  tenantId: string,
  orgIds: readonly number[],
): Promise<number[]> {
  if (orgIds.length === 0) return [];
  const rows = await tx
    .selectDistinct({ id: contactLinks.contactId })
    .from(contactLinks)
    .where(
      and(
        eq(contactLinks.tenantId, tenantId),
        sql`${contactLinks.relatedContactId} = any(${idArray(orgIds)})`,
        eq(contactLinks.isDeleted, false),
      ),
    );
  return rows.map((r) => Number(r.id));
}

/**
 * Rebuilds the search documents of these contacts from their records, entries and employers, as
 * `refreshContactSearch` does for one: a few statements per batch of contacts.
 */
export async function refreshSearchOf(
  tx: Tx,
  tenantId: string,
  ids: readonly number[],
  /** What other features add to contacts (custom fields): their searchable texts join the documents. */
  extra?: ExtraFieldsSource,
): Promise<void> {
  // The association's directory statuses, as `refreshContactSearch` reads them for a listed contact.
  const statuses = ids.length > 0 ? await directoryStatuses(tx, tenantId) : [];
  for (let i = 0; i < ids.length; i += IMPORT_BATCH) {
    const chunk = [...new Set(ids.slice(i, i + IMPORT_BATCH))];
    const records = (await tx
      .select(contactRecordColumns)
      .from(contacts)
      .where(
        and(eq(contacts.tenantId, tenantId), sql`${contacts.contactId} = any(${idArray(chunk)})`),
      )) as (ContactRecord & {
      IsDeleted: boolean;
    })[];
    const entries = new Map<number, string[]>();
    const entryRows = await tx
      .select({ contactId: contactEntries.contactId, value: contactEntries.value })
      .from(contactEntries)
      .where(
        and(
          eq(contactEntries.tenantId, tenantId),
          sql`${contactEntries.contactId} = any(${idArray(chunk)})`,
          eq(contactEntries.isDeleted, false),
        ),
      )
      .orderBy(contactEntries.entryId);
    for (const e of entryRows) {
      const list = entries.get(e.contactId) ?? [];
      if (list.length < 50) list.push(e.value);
      entries.set(e.contactId, list);
    }
    const employers = new Map<number, string>();
    const employerRows = rowsOf<{ contact_id: string | number; name: string }>(
      await tx.execute(sql`
        select distinct on (l.contact_id) l.contact_id, o.display_name as name from contact_links l
          join contacts o on o.tenant_id = l.tenant_id and o.contact_id = l.related_contact_id and not o.is_deleted
         where l.tenant_id = ${tenantId} and l.contact_id = any(${idArray(chunk)}) and not l.is_deleted
           and l.link_type = 'employeeOf'
         order by l.contact_id, l.link_id`),
    );
    for (const e of employerRows) employers.set(Number(e.contact_id), e.name);
    const texts = await extra?.searchTexts?.(tx, tenantId, chunk);
    const docs = records.flatMap((c) =>
      contactSearchDocuments(
        c,
        entries.get(c.ContactId) ?? [],
        employers.get(c.ContactId) ?? null,
        statuses,
        texts?.get(c.ContactId),
      ),
    );
    await tx
      .delete(searchDocuments)
      .where(
        and(
          eq(searchDocuments.tenantId, tenantId),
          sql`${searchDocuments.entityType} = any(${`{${CONTACT_DOCUMENT_TYPES.join(',')}}`}::text[])`,
          sql`${searchDocuments.entityId} = any(${`{${chunk.join(',')}}`}::text[])`,
        ),
      );
    const now = new Date();
    for (let j = 0; j < docs.length; j += IMPORT_BATCH)
      await insertJson(
        tx,
        searchDocuments,
        docs.slice(j, j + IMPORT_BATCH).map((d) => ({ ...d, tenantId, updatedAt: now })),
      );
  }
}
