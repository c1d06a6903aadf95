/** Use cases of contacts beyond the generic layer: the member directory, a member's own profile, merge. */
import {
  contactEntries,
  contactLinks,
  contacts,
  q,
  rowsOf,
  type Tx,
  tenantUsers,
  toDrizzle,
} from '@guildhall/db';
import type { ContactUserLink } from '@guildhall/shared';
import {
  type ContactRelation,
  contactLabel,
  contactsResource,
  type DirectoryContact,
  directoryContactOf,
  formatPhone,
  isInDirectory,
  type Model,
  planMerge,
  relationName,
  searchTerms,
} from '@guildhall/shared';
import { and, asc, eq, sql } from 'drizzle-orm';
import { audit } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/context.ts';
import { HttpError, notFound } from '../../platform/errors.ts';
import { searchWordsCondition } from '../../platform/resources/list-search.ts';
import { type BoundResource, boundResource } from '../../platform/resources/registry.ts';
import * as generic from '../../platform/resources/resource.service.ts';
import { countDeltas } from './contacts.hooks.ts';
import * as repo from './contacts.repo.ts';

/** The fields other features publish in the directory (custom fields), by contact. */
async function publishedFields(
  tx: Tx,
  auth: AuthContext,
  resources: readonly BoundResource[],
  ids: readonly number[],
) {
  const extra = boundResource(resources, contactsResource.name).extraFields;
  return (await extra?.published?.(tx, auth.tenantId, ids)) ?? new Map();
}

export async function directoryContact(
  tx: Tx,
  auth: AuthContext,
  resources: readonly BoundResource[],
  id: number,
): Promise<DirectoryContact> {
  const c = await repo.findContact(tx, auth.tenantId, id);
  if (!c || !isInDirectory(c, await repo.directoryStatuses(tx, auth.tenantId))) throw notFound();
  const custom = (await publishedFields(tx, auth, resources, [id])).get(id) ?? [];
  return { ...directoryContactOf(c, await repo.employerName(tx, auth.tenantId, id)), CustomFields: custom };
}

export async function directoryList(
  tx: Tx,
  auth: AuthContext,
  resources: readonly BoundResource[],
  query: { $skip: number; $top: number; search?: string | undefined },
): Promise<{ Results: DirectoryContact[]; TotalRecordAvailable: number }> {
  const terms = searchTerms(query.search ?? '');
  const statuses = await repo.directoryStatuses(tx, auth.tenantId);
  let ids: number[];
  let total: number;
  if (terms.length === 0) {
    // Listed contacts of the statuses the association publishes (its setting; active members by default).
    const listed = sql`tenant_id = ${auth.tenantId} and not is_deleted and is_listed
      and status = any(string_to_array(${statuses.join(',')}, ','))`;
    const [c] = rowsOf<{ n: number }>(
      await tx.execute(sql`select count(*)::int as n from contacts where ${listed}`),
    );
    total = c?.n ?? 0;
    const r = rowsOf<{ id: string | number }>(
      await tx.execute(sql`
        select contact_id as id from contacts where ${listed}
         order by display_name, contact_id limit ${query.$top} offset ${query.$skip}`),
    );
    ids = r.map((x) => Number(x.id));
  } else {
    // Only what members may match: the member documents, made of published fields.
    // Each word as the list search box matches it (decision 0199: one or two characters where a word begins).
    const where = toDrizzle(searchWordsCondition(q`search_text`, terms));
    const scope = sql`tenant_id = ${auth.tenantId} and audience = 'member' and entity_type = 'DirectoryContact'`;
    const [c] = rowsOf<{ n: number }>(
      await tx.execute(sql`select count(*)::int as n from search_documents where ${scope} and ${where}`),
    );
    total = c?.n ?? 0;
    const r = rowsOf<{ id: string }>(
      await tx.execute(sql`
        select entity_id as id from search_documents where ${scope} and ${where}
         order by title_key, entity_id limit ${query.$top} offset ${query.$skip}`),
    );
    ids = r.map((x) => Number(x.id));
  }
  const results: DirectoryContact[] = [];
  const custom = await publishedFields(tx, auth, resources, ids);
  for (const id of ids) {
    const c = await repo.findContact(tx, auth.tenantId, id);
    if (c && isInDirectory(c, statuses))
      results.push({
        ...directoryContactOf(c, await repo.employerName(tx, auth.tenantId, id)),
        CustomFields: custom.get(id) ?? [],
      });
  }
  return { Results: results, TotalRecordAvailable: total };
}

/**
 * The contact a sign-in names (`contacts.user_id`; the first by id if several), or null: the module's
 * `callerContact`, which the pipeline's `ownContactId(request)` reads for the member area's own-rows routes.
 */
export async function callerContact(tx: Tx, auth: AuthContext): Promise<number | null> {
  const [row] = await tx
    .select({ id: contacts.contactId })
    .from(contacts)
    .where(
      and(
        eq(contacts.tenantId, auth.tenantId),
        eq(contacts.userId, auth.userId),
        eq(contacts.isDeleted, false),
      ),
    )
    .orderBy(asc(contacts.contactId))
    .limit(1);
  return row ? row.id : null;
}

/** The member's own record (`id`: their contact, the pipeline's `ownContactId`). */
export async function myProfile(tx: Tx, auth: AuthContext, id: number) {
  const c = await repo.findContact(tx, auth.tenantId, id);
  if (!c) throw notFound();
  // The member's own record: every field of theirs is shown to them, published or not (staff notes never).
  return {
    ...directoryContactOf({ ...c, PublishedFields: 63 }, await repo.employerName(tx, auth.tenantId, id)),
    Phone: c.Phone ? formatPhone(c.Phone) : null,
    IsListed: c.IsListed,
    PublishedFields: c.PublishedFields,
    Status: c.Status,
    AccountNumber: c.AccountNumber,
  };
}

/** A member changes their own profile: only the member-editable fields, through the generic inline edit. */
/** `resources`: the app's bound resources, so that the edit runs with the contacts hooks (search, counters). */
export async function updateMyProfile(
  tx: Tx,
  auth: AuthContext,
  resources: readonly BoundResource[],
  id: number,
  changes: Model,
) {
  if (Object.keys(changes).length === 0) throw new HttpError(400, 'Nothing to change.');
  await generic.inlineEdit(tx, auth, boundResource(resources, contactsResource.name), id, changes);
  return myProfile(tx, auth, id);
}

/**
 * Merges a duplicate into the contact kept, losing nothing of the duplicate (the shared planMerge): empty fields of
 * the kept contact are filled, a differing email, phone or website becomes a contact-info entry, other differing
 * values and the duplicate's notes join the kept contact's notes under a heading naming the duplicate. The
 * duplicate's entries and links move to the kept contact, the duplicate is marked deleted, and one audit row holds
 * both records as they were and the kept one as it became, notes included. Custom values: the kept contact keeps
 * its own, takes the duplicate's where it has none, and a differing one joins the notes like a built-in field's.
 */
export async function merge(
  tx: Tx,
  auth: AuthContext,
  resources: readonly BoundResource[],
  keepId: number,
  mergeId: number,
) {
  if (keepId === mergeId) throw new HttpError(400, 'Choose two different contacts to merge.');
  const keep = await repo.findContact(tx, auth.tenantId, keepId);
  const gone = await repo.findContact(tx, auth.tenantId, mergeId);
  if (!keep || keep.IsDeleted || !gone || gone.IsDeleted) throw notFound();
  // Fields a feature adds (custom fields): the kept contact takes the duplicate's where it has none.
  const extra = boundResource(resources, contactsResource.name).extraFields;
  const differing = (await extra?.recordsMerged?.(tx, auth.tenantId, keepId, mergeId)) ?? [];
  const plan = planMerge(keep, gone, await repo.entryValues(tx, auth.tenantId, keepId), differing);
  const now = new Date();
  const scope = (t: typeof contactEntries | typeof contactLinks) => eq(t.tenantId, auth.tenantId);
  const movedEntries = await tx
    .update(contactEntries)
    .set({ contactId: keepId, updatedAt: now })
    .where(and(scope(contactEntries), eq(contactEntries.contactId, mergeId)))
    .returning({ id: contactEntries.entryId });
  const addedEntries =
    plan.entries.length === 0
      ? []
      : await tx
          .insert(contactEntries)
          .values(
            plan.entries.map((e) => ({
              tenantId: auth.tenantId,
              contactId: keepId,
              commType: e.CommType,
              value: e.Value,
            })),
          )
          .returning({ id: contactEntries.entryId });
  // Links of the merged contact, either side, now point at the kept one (a link to itself is dropped).
  const movedLinks = await tx
    .update(contactLinks)
    .set({ contactId: keepId, updatedAt: now })
    .where(and(scope(contactLinks), eq(contactLinks.contactId, mergeId)))
    .returning({ id: contactLinks.linkId });
  await tx
    .update(contactLinks)
    .set({ relatedContactId: keepId, updatedAt: now })
    .where(and(scope(contactLinks), eq(contactLinks.relatedContactId, mergeId)));
  await tx
    .update(contactLinks)
    .set({ isDeleted: true })
    .where(
      and(scope(contactLinks), eq(contactLinks.contactId, keepId), eq(contactLinks.relatedContactId, keepId)),
    );
  await tx
    .update(contacts)
    .set({ userId: null, isDeleted: true, updatedAt: now })
    .where(and(eq(contacts.tenantId, auth.tenantId), eq(contacts.contactId, mergeId)));
  const c = plan.changes;
  await tx
    .update(contacts)
    .set({
      ...(c.Email !== undefined ? { email: c.Email } : {}),
      ...(c.Phone !== undefined ? { phone: c.Phone } : {}),
      ...(c.Website !== undefined ? { website: c.Website } : {}),
      ...(c.AccountNumber !== undefined ? { accountNumber: c.AccountNumber } : {}),
      ...(c.Address1 !== undefined ? { address1: c.Address1 } : {}),
      ...(c.Address2 !== undefined ? { address2: c.Address2 } : {}),
      ...(c.City !== undefined ? { city: c.City } : {}),
      ...(c.StateProvince !== undefined ? { stateProvince: c.StateProvince } : {}),
      ...(c.PostalCode !== undefined ? { postalCode: c.PostalCode } : {}),
      ...(c.CountryCode !== undefined ? { countryCode: c.CountryCode } : {}),
      ...(c.Notes !== undefined ? { notes: c.Notes } : {}),
      userId: keep.UserId ?? gone.UserId,
      updatedAt: now,
    })
    .where(and(eq(contacts.tenantId, auth.tenantId), eq(contacts.contactId, keepId)));
  // The audit history of the merged contact stays under its id; this row ties the two together.
  const after = await repo.findContact(tx, auth.tenantId, keepId);
  await audit(tx, auth, {
    action: 'merge',
    entity: contactsResource.name,
    entityId: keepId,
    before: { kept: keep, merged: gone },
    after: {
      kept: after,
      mergedContactId: mergeId,
      movedEntryIds: movedEntries.map((e) => e.id),
      addedEntryIds: addedEntries.map((e) => e.id),
      movedLinkIds: movedLinks.map((l) => l.id),
    },
  });
  await repo.adjustCounts(tx, auth.tenantId, countDeltas(gone as unknown as Model, null));
  await repo.replaceSearchDocuments(tx, auth.tenantId, repo.CONTACT_DOCUMENT_TYPES, [String(mergeId)], []);
  await repo.refreshContactSearch(tx, auth.tenantId, keepId, extra);
  return {
    ContactId: keepId,
    MergedContactId: mergeId,
    MovedEntries: movedEntries.length + addedEntries.length,
    MovedLinks: movedLinks.length,
  };
}

/** A contact's related contacts from its own side, both ends of every link, named (never by id). */
export async function relations(tx: Tx, auth: AuthContext, contactId: number): Promise<ContactRelation[]> {
  if (!(await repo.liveContactExists(tx, auth.tenantId, contactId))) throw notFound();
  return (await repo.relationsOf(tx, auth.tenantId, contactId)).map((r) => ({
    LinkId: Number(r.link_id),
    LinkType: r.link_type,
    Relation: relationName(r.link_type, r.outgoing === true),
    OtherContactId: Number(r.other_id),
    OtherName: contactLabel({ DisplayName: r.display_name, AccountNumber: r.account_number }),
  }));
}

/** The contact and the user linked to it; 404 for a contact the association does not have. */
export async function userLinkOf(tx: Tx, auth: AuthContext, contactId: number): Promise<ContactUserLink> {
  const [row] = rowsOf<{
    contact_id: number;
    display_name: string;
    user_id: number | null;
    user_name: string | null;
    username: string | null;
  }>(
    await tx.execute(sql`select c.contact_id, c.display_name, m.user_id, u.display_name as user_name, u.username
      from contacts c
      left join tenant_users m on m.tenant_id = c.tenant_id and m.user_id = c.user_id
      left join users u on u.id = m.user_id
      where c.tenant_id = ${auth.tenantId} and c.contact_id = ${contactId} and not c.is_deleted`),
  );
  if (!row) throw notFound();
  return {
    ContactId: Number(row.contact_id),
    ContactName: row.display_name,
    UserId: row.user_id === null ? null : Number(row.user_id),
    UserName: row.user_name,
    Username: row.username,
  };
}

/** The contact a user of the association is linked to, or null; 404 for a user the association does not have. */
export async function contactOfUser(
  tx: Tx,
  auth: AuthContext,
  userId: number,
): Promise<ContactUserLink | null> {
  const [member] = await tx
    .select({ userId: tenantUsers.userId })
    .from(tenantUsers)
    .where(and(eq(tenantUsers.tenantId, auth.tenantId), eq(tenantUsers.userId, userId)));
  if (!member) throw notFound();
  const [contact] = await tx
    .select({ id: contacts.contactId })
    .from(contacts)
    .where(
      and(eq(contacts.tenantId, auth.tenantId), eq(contacts.userId, userId), eq(contacts.isDeleted, false)),
    )
    .limit(1);
  return contact ? userLinkOf(tx, auth, contact.id) : null;
}

/**
 * Links a contact to a user of the association (or unlinks it, with null). The user's link to another contact of
 * the association moves here: a user signs in as one contact. A user of another association is refused as unknown.
 */
export async function linkUser(
  tx: Tx,
  auth: AuthContext,
  contactId: number,
  userId: number | null,
): Promise<ContactUserLink> {
  const before = await userLinkOf(tx, auth, contactId);
  if (userId !== null) {
    const [member] = await tx
      .select({ userId: tenantUsers.userId })
      .from(tenantUsers)
      .where(and(eq(tenantUsers.tenantId, auth.tenantId), eq(tenantUsers.userId, userId)));
    if (!member)
      throw new HttpError(400, 'Choose a user of this association.', { UserId: ['No such user here.'] });
    const moved = await tx
      .update(contacts)
      .set({ userId: null, updatedAt: new Date() })
      .where(and(eq(contacts.tenantId, auth.tenantId), eq(contacts.userId, userId)))
      .returning({ id: contacts.contactId });
    for (const m of moved)
      if (m.id !== contactId)
        await audit(tx, auth, {
          action: 'update',
          entity: 'contacts',
          entityId: String(m.id),
          before: { UserId: userId },
          after: { UserId: null },
        });
  }
  await tx
    .update(contacts)
    .set({ userId, updatedAt: new Date() })
    .where(and(eq(contacts.tenantId, auth.tenantId), eq(contacts.contactId, contactId)));
  const after = await userLinkOf(tx, auth, contactId);
  await audit(tx, auth, {
    action: 'update',
    entity: 'contacts',
    entityId: String(contactId),
    before: { UserId: before.UserId, User: before.UserName },
    after: { UserId: after.UserId, User: after.UserName },
  });
  return after;
}
