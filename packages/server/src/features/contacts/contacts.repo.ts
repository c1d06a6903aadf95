/** Queries of contacts beyond the generic engine: search documents, counters, duplicates, the directory. */
import {
  contactCounts,
  contacts,
  type Fragment,
  q,
  rowsOf,
  runFragment,
  searchDocuments,
  type Tx,
  tenants,
} from '@guildhall/db';
import {
  type ContactRecord,
  contactSearchDocuments,
  DEFAULT_DIRECTORY_STATUSES,
  type SearchDocumentInput,
} from '@guildhall/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ExtraFieldsSource } from '../../platform/resources/extra-fields.ts';

/** Contact columns as the shared ContactRecord. */
export const contactRecordColumns = {
  ContactId: contacts.contactId,
  ContactType: contacts.contactType,
  FirstName: contacts.firstName,
  LastName: contacts.lastName,
  OrganizationName: contacts.organizationName,
  DisplayName: contacts.displayName,
  Status: contacts.status,
  AccountNumber: contacts.accountNumber,
  Email: contacts.email,
  Phone: contacts.phone,
  Website: contacts.website,
  Address1: contacts.address1,
  Address2: contacts.address2,
  City: contacts.city,
  StateProvince: contacts.stateProvince,
  PostalCode: contacts.postalCode,
  CountryCode: contacts.countryCode,
  IsListed: contacts.isListed,
  PublishedFields: contacts.publishedFields,
  IsDeleted: contacts.isDeleted,
  UserId: contacts.userId,
  Notes: contacts.notes,
};
export type ContactRow = ContactRecord & { IsDeleted: boolean; UserId: number | null; Notes: string | null };

export async function findContact(
  tx: Tx,
  tenantId: string,
  contactId: number,
): Promise<ContactRow | undefined> {
  const [row] = await tx
    .select(contactRecordColumns)
    .from(contacts)
    .where(and(eq(contacts.tenantId, tenantId), eq(contacts.contactId, contactId)));
  return row;
}

export async function liveContactExists(tx: Tx, tenantId: string, contactId: unknown): Promise<boolean> {
  const id = Number(contactId);
  if (!Number.isSafeInteger(id) || id <= 0) return false;
  const row = await findContact(tx, tenantId, id);
  return row !== undefined && !row.IsDeleted;
}

/** The organisation a contact works for (its first live "employee of" link), for RelatedTo. */
export async function employerName(tx: Tx, tenantId: string, contactId: number): Promise<string | null> {
  const r = rowsOf<{ name: string }>(
    await tx.execute(sql`
      select o.display_name as name from contact_links l
        join contacts o on o.tenant_id = l.tenant_id and o.contact_id = l.related_contact_id and not o.is_deleted
       where l.tenant_id = ${tenantId} and l.contact_id = ${contactId} and not l.is_deleted
         and l.link_type = 'employeeOf'
       order by l.link_id limit 1`),
  );
  return r[0]?.name ?? null;
}

export async function entryValues(tx: Tx, tenantId: string, contactId: number): Promise<string[]> {
  const r = rowsOf<{ value: string }>(
    await tx.execute(sql`
      select value from contact_entries
       where tenant_id = ${tenantId} and contact_id = ${contactId} and not is_deleted
       order by entry_id limit 50`),
  );
  return r.map((x) => x.value);
}

/** Replaces the search documents of these records (same transaction as the write that changed them). */
export async function replaceSearchDocuments(
  tx: Tx,
  tenantId: string,
  entityTypes: readonly string[],
  entityIds: readonly string[],
  docs: readonly SearchDocumentInput[],
): Promise<void> {
  if (entityIds.length > 0) {
    await tx
      .delete(searchDocuments)
      .where(
        and(
          eq(searchDocuments.tenantId, tenantId),
          inArray(searchDocuments.entityType, [...entityTypes]),
          inArray(searchDocuments.entityId, [...entityIds]),
        ),
      );
  }
  if (docs.length > 0) {
    await tx.insert(searchDocuments).values(docs.map((d) => ({ ...d, tenantId, updatedAt: new Date() })));
  }
}

export const CONTACT_DOCUMENT_TYPES = ['Contact', 'DirectoryContact'] as const;

/** The contact statuses the association's member directory lists (its setting, or active members only). */
export async function directoryStatuses(tx: Tx, tenantId: string): Promise<readonly string[]> {
  const [t] = await tx.select({ settings: tenants.settings }).from(tenants).where(eq(tenants.id, tenantId));
  return t?.settings.directoryStatuses ?? DEFAULT_DIRECTORY_STATUSES;
}

/** Rebuilds a contact's search documents from the record, its entries and its employer. */
export async function refreshContactSearch(
  tx: Tx,
  tenantId: string,
  contactId: number,
  /** What other features add to contacts (custom fields): their searchable texts join the documents. */
  extra?: ExtraFieldsSource,
): Promise<void> {
  const c = await findContact(tx, tenantId, contactId);
  const texts = c && !c.IsDeleted ? await extra?.searchTexts?.(tx, tenantId, [contactId]) : undefined;
  const docs = c
    ? contactSearchDocuments(
        c,
        await entryValues(tx, tenantId, contactId),
        await employerName(tx, tenantId, contactId),
        c.IsListed ? await directoryStatuses(tx, tenantId) : DEFAULT_DIRECTORY_STATUSES,
        texts?.get(contactId),
      )
    : [];
  await replaceSearchDocuments(tx, tenantId, CONTACT_DOCUMENT_TYPES, [String(contactId)], docs);
}

/** Contacts linked to an organisation (their RelatedTo shows its name), at most `limit`. */
export async function linkedContactIds(
  tx: Tx,
  tenantId: string,
  orgId: number,
  limit = 500,
): Promise<number[]> {
  const r = rowsOf<{ id: string | number }>(
    await tx.execute(sql`
      select distinct contact_id as id from contact_links
       where tenant_id = ${tenantId} and related_contact_id = ${orgId} and not is_deleted limit ${limit}`),
  );
  return r.map((x) => Number(x.id));
}

/** Adds deltas to the per-tenant counters (one statement, zero deltas skipped). */
export async function adjustCounts(tx: Tx, tenantId: string, deltas: Map<string, number>): Promise<void> {
  const rows = [...deltas.entries()]
    .filter(([, n]) => n !== 0)
    .map(([k, n]) => {
      const i = k.indexOf('\u0000');
      return { tenantId, facet: k.slice(0, i), value: k.slice(i + 1), n };
    });
  if (rows.length === 0) return;
  await tx
    .insert(contactCounts)
    .values(rows)
    .onConflictDoUpdate({
      target: [contactCounts.tenantId, contactCounts.facet, contactCounts.value],
      set: { n: sql`${contactCounts.n} + excluded.n` },
    });
}

/** One counter as a statement (its row's `n`): lists run it with their page in one round trip (decision 0060). */
export function countStatement(tenantId: string, facet: string, value: string): Fragment {
  return q`select n from contact_counts where tenant_id = ${tenantId} and facet = ${facet} and value = ${value}`;
}

export async function readCount(tx: Tx, tenantId: string, facet: string, value: string): Promise<number> {
  const [r] = await runFragment<{ n: unknown }>(tx, countStatement(tenantId, facet, value));
  return Number(r?.n ?? 0);
}

export interface DuplicateMatch {
  ContactId: number;
  DisplayName: string;
  AccountNumber: string | null;
  reason: 'email' | 'namePostal';
}

/** The highest number of the association's account numbers made by accountNumberOf ("A0000250" -> 250). */
export function highestAccountNumberStatement(tenantId: string): Fragment {
  return q`select max(substring(account_number from '^A([0-9]{7,15})$')::bigint) from contacts
    where tenant_id = ${tenantId} and account_number like 'A%'`;
}

export async function accountNumberTaken(tx: Tx, tenantId: string, accountNumber: string): Promise<boolean> {
  const r = await runFragment(
    tx,
    q`select 1 from contacts where tenant_id = ${tenantId} and account_number = ${accountNumber} limit 1`,
  );
  return r.length > 0;
}

/**
 * Live contacts with the same email (record or entry), or the same name and postal code: an individual's first and
 * last name (whatever organisation each names), an organisation's name; postal codes without spaces, dashes or case.
 */
export async function findDuplicates(
  tx: Tx,
  tenantId: string,
  probe: {
    email: string | null;
    first: string;
    last: string;
    org: string;
    postal: string;
    self: number | null;
  },
): Promise<DuplicateMatch[]> {
  const parts = [];
  if (probe.email) {
    parts.push(sql`
      select c.contact_id, c.display_name, c.account_number, 'email' as reason from contacts c
       where c.tenant_id = ${tenantId} and lower(c.email) = ${probe.email} and not c.is_deleted
      union
      select c.contact_id, c.display_name, c.account_number, 'email' from contact_entries e
        join contacts c on c.tenant_id = e.tenant_id and c.contact_id = e.contact_id and not c.is_deleted
       where e.tenant_id = ${tenantId} and lower(e.value) = ${probe.email} and e.comm_type = 'email' and not e.is_deleted`);
  }
  const postalMatch = sql`upper(regexp_replace(c.postal_code, '[[:space:]-]', '', 'g')) = ${probe.postal}`;
  if (probe.postal && probe.org) {
    parts.push(sql`
      select c.contact_id, c.display_name, c.account_number, 'namePostal' from contacts c
       where c.tenant_id = ${tenantId} and ${postalMatch} and not c.is_deleted
         and c.contact_type = 'organization' and lower(coalesce(c.organization_name, '')) = ${probe.org}`);
  } else if (probe.postal && probe.last) {
    parts.push(sql`
      select c.contact_id, c.display_name, c.account_number, 'namePostal' from contacts c
       where c.tenant_id = ${tenantId} and ${postalMatch} and not c.is_deleted
         and c.contact_type <> 'organization'
         and lower(coalesce(c.first_name, '')) = ${probe.first} and lower(coalesce(c.last_name, '')) = ${probe.last}`);
  }
  if (parts.length === 0) return [];
  const r = rowsOf<{
    contact_id: string | number;
    display_name: string;
    account_number: string | null;
    reason: 'email' | 'namePostal';
  }>(
    await tx.execute(
      sql`select * from (${sql.join(parts, sql` union `)}) d where ${probe.self === null ? sql`true` : sql`d.contact_id <> ${probe.self}`} order by 1 limit 20`,
    ),
  );
  const seen = new Set<number>();
  const out: DuplicateMatch[] = [];
  for (const x of r) {
    const id = Number(x.contact_id);
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({
      ContactId: id,
      DisplayName: x.display_name,
      AccountNumber: x.account_number,
      reason: x.reason,
    });
  }
  return out;
}

/**
 * Listed contacts whose member-directory documents disagree with the statuses listed (a document for a status no
 * longer listed, or none for one now listed): after the association changes what its directory lists.
 */
export async function directoryMismatches(
  tx: Tx,
  tenantId: string,
  statuses: readonly string[],
  limit: number,
): Promise<number[]> {
  const r = await runFragment<{ id: unknown }>(
    tx,
    q`select c.contact_id as id from contacts c
       where c.tenant_id = ${tenantId} and not c.is_deleted and c.is_listed
         and (c.status = any(string_to_array(${statuses.join(',')}, ','))) <> exists (
           select 1 from search_documents d where d.tenant_id = c.tenant_id and d.audience = 'member'
              and d.entity_type = 'DirectoryContact' and d.entity_id = c.contact_id::text)
       limit ${limit}`,
  );
  return r.map((x) => Number(x.id));
}

/** Live links naming the contact on either side, with the other contact's name and account number. */
export async function relationsOf(
  tx: Tx,
  tenantId: string,
  contactId: number,
): Promise<
  {
    link_id: unknown;
    link_type: string;
    outgoing: boolean;
    other_id: unknown;
    display_name: string;
    account_number: string | null;
  }[]
> {
  return rowsOf(
    await tx.execute(sql`
      select l.link_id, l.link_type, l.contact_id = ${contactId} as outgoing, o.contact_id as other_id,
             o.display_name, o.account_number
        from contact_links l
        join contacts o on o.tenant_id = l.tenant_id and not o.is_deleted
         and o.contact_id = case when l.contact_id = ${contactId} then l.related_contact_id else l.contact_id end
       where l.tenant_id = ${tenantId} and not l.is_deleted
         and (l.contact_id = ${contactId} or l.related_contact_id = ${contactId})
       order by o.display_name, l.link_id limit 500`),
  );
}
