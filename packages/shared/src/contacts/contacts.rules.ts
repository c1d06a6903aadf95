/**
 * Pure rules of contacts: their statuses and types, the display name, contact-info entries as typed, what the
 * member directory publishes, the search documents of a contact and the duplicate check's reasons.
 */

import { validateEmailAddress } from '../platform/fields/email.rules.ts';
import { formatPhone, parsePhone } from '../platform/fields/phone.rules.ts';
import { parseWebsite } from '../platform/fields/website.rules.ts';
import { foldSearchText, searchTextOf } from '../search/search.rules.ts';
import type { DirectoryContact } from './contacts.schema.ts';
import { type ContactEntryType, detectEntryType } from './entry.rules.ts';

export const CONTACT_TYPES = [
  { Id: 'individual', Name: 'Individual' },
  { Id: 'organization', Name: 'Organization' },
] as const;
export type ContactType = (typeof CONTACT_TYPES)[number]['Id'];

export const CONTACT_STATUSES = [
  { Id: 'active', Name: 'Active' },
  { Id: 'inactive', Name: 'Inactive' },
  { Id: 'prospect', Name: 'Prospect' },
  { Id: 'lapsed', Name: 'Lapsed' },
  { Id: 'deceased', Name: 'Deceased' },
] as const;

export const CONTACT_LINK_TYPES = [
  { Id: 'employeeOf', Name: 'Employee of' },
  { Id: 'primaryContact', Name: 'Primary contact of' },
] as const;

/** What a listed contact shows in the member directory: bit keys of the PublishedFields flags. */
export const DIRECTORY_FIELDS = [
  { Id: 1, Name: 'Email' },
  { Id: 2, Name: 'Phone' },
  { Id: 4, Name: 'Website' },
  { Id: 8, Name: 'Street address' },
  { Id: 16, Name: 'City and state' },
  { Id: 32, Name: 'Organization' },
] as const;
export const PUBLISH = {
  Email: 1,
  Phone: 2,
  Website: 4,
  Street: 8,
  CityState: 16,
  Organization: 32,
} as const;
/** A new contact publishes its city, state and organisation once listed. */
export const DEFAULT_PUBLISHED_FIELDS = PUBLISH.CityState | PUBLISH.Organization;

export interface ContactRecord {
  ContactId: number;
  ContactType: string;
  FirstName: string | null;
  LastName: string | null;
  OrganizationName: string | null;
  DisplayName: string;
  Status: string;
  AccountNumber: string | null;
  Email: string | null;
  Phone: string | null;
  Website: string | null;
  Address1: string | null;
  Address2: string | null;
  City: string | null;
  StateProvince: string | null;
  PostalCode: string | null;
  CountryCode: string | null;
  IsListed: boolean;
  PublishedFields: number;
}

/** "Last, First" for an individual (whichever parts exist), the organisation name for an organisation. */
export function contactDisplayName(c: {
  ContactType?: unknown;
  FirstName?: unknown;
  LastName?: unknown;
  OrganizationName?: unknown;
}): string {
  const text = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
  if (c.ContactType === 'organization') return text(c.OrganizationName) || '(no name)';
  const first = text(c.FirstName);
  const last = text(c.LastName);
  if (first && last) return `${last}, ${first}`;
  return last || first || text(c.OrganizationName) || '(no name)';
}

/** The name as people say it: "First Last" (search titles and the directory). */
export function contactSpokenName(
  c: Pick<ContactRecord, 'ContactType' | 'FirstName' | 'LastName' | 'OrganizationName'>,
): string {
  if (c.ContactType === 'organization') return c.OrganizationName?.trim() || '(no name)';
  return [c.FirstName, c.LastName].filter((p) => p && p.trim() !== '').join(' ') || '(no name)';
}

export type EntryCheck =
  | { ok: true; CommType: ContactEntryType; Value: string }
  | { ok: false; error: string };

/**
 * A contact-info entry as typed: its type is detected (email, phone, website), a phone keeps its digits and is
 * shown as (xxx) xxx-xxxx, a website gets the tenant's prefix, an email must pass the email rule.
 */
export function normalizeContactEntry(value: string, websitePrefix?: string): EntryCheck {
  const text = value.trim();
  const type = detectEntryType(text);
  switch (type) {
    case 'email': {
      const r = validateEmailAddress(text);
      return r.Valid
        ? { ok: true, CommType: 'email', Value: text }
        : { ok: false, error: r.ErrorMessages.join(', ') };
    }
    case 'phone': {
      const phone = parsePhone(text);
      if (!phone.ok) return { ok: false, error: phone.error };
      if (phone.value === null) return { ok: false, error: 'The value is required.' };
      return { ok: true, CommType: 'phone', Value: phone.value };
    }
    case 'website': {
      const site = parseWebsite(text, websitePrefix);
      if (!site.ok) return { ok: false, error: site.error };
      return { ok: true, CommType: 'website', Value: site.value ?? '' };
    }
    default:
      return text === ''
        ? { ok: false, error: 'The value is required.' }
        : { ok: false, error: 'Enter an email address, a phone number or a website.' };
  }
}

/** An entry as shown: phones formatted. */
export function displayEntryValue(commType: string, value: string): string {
  return commType === 'phone' ? formatPhone(value) : value;
}

export function directoryContactOf(c: ContactRecord, relatedTo: string | null = null): DirectoryContact {
  const has = (bit: number) => (c.PublishedFields & bit) === bit;
  const street = has(PUBLISH.Street);
  const place = street || has(PUBLISH.CityState);
  const isOrg = c.ContactType === 'organization';
  return {
    DirectoryContactId: c.ContactId,
    DisplayName: contactSpokenName(c),
    ContactType: c.ContactType,
    FirstName: isOrg ? null : c.FirstName,
    LastName: isOrg ? null : c.LastName,
    OrganizationName: isOrg
      ? c.OrganizationName
      : has(PUBLISH.Organization)
        ? (relatedTo ?? c.OrganizationName)
        : null,
    Email: has(PUBLISH.Email) ? c.Email : null,
    Phone: has(PUBLISH.Phone) && c.Phone ? formatPhone(c.Phone) : null,
    Website: has(PUBLISH.Website) ? c.Website : null,
    Address1: street ? c.Address1 : null,
    Address2: street ? c.Address2 : null,
    PostalCode: street ? c.PostalCode : null,
    City: place ? c.City : null,
    StateProvince: place ? c.StateProvince : null,
    CountryCode: place ? c.CountryCode : null,
  };
}

export interface SearchDocumentInput {
  audience: 'staff' | 'member';
  entityType: string;
  entityId: string;
  title: string;
  titleKey: string;
  searchText: string;
  facets: Record<string, string | null>;
}

/**
 * The search documents of a contact: one for staff (everything staff search by, entries included) and, when the
 * contact is in the member directory (listed, live, of a status the association publishes), one for members made
 * of the published fields only, so a member can neither see nor match a contact or a field that is not published.
 */
export function contactSearchDocuments(
  c: ContactRecord & { IsDeleted?: boolean },
  entries: readonly string[] = [],
  relatedTo: string | null = null,
  directoryStatuses: readonly string[] = DEFAULT_DIRECTORY_STATUSES,
  /** Texts other features add (searchable custom fields): staff's, and those members may find in the directory. */
  extra: { staff: readonly string[]; member: readonly string[] } = { staff: [], member: [] },
): SearchDocumentInput[] {
  if (c.IsDeleted) return [];
  const title = contactSpokenName(c);
  const id = String(c.ContactId);
  const docs: SearchDocumentInput[] = [
    {
      audience: 'staff',
      entityType: 'Contact',
      entityId: id,
      title,
      titleKey: foldSearchText(title),
      searchText: searchTextOf([
        title,
        c.OrganizationName,
        relatedTo,
        c.AccountNumber,
        c.Email,
        c.Phone,
        c.City,
        c.StateProvince,
        c.PostalCode,
        ...entries,
        ...extra.staff,
      ]),
      facets: {
        RelatedTo: relatedTo ?? (c.ContactType === 'organization' ? null : c.OrganizationName),
        City: c.City,
        StateProvince: c.StateProvince,
        Status: c.Status,
        ContactType: c.ContactType,
        AccountNumber: c.AccountNumber,
      },
    },
  ];
  if (isInDirectory(c, directoryStatuses)) {
    const d = directoryContactOf(c, relatedTo);
    docs.push({
      audience: 'member',
      entityType: 'DirectoryContact',
      entityId: id,
      title,
      titleKey: foldSearchText(title),
      searchText: searchTextOf([
        title,
        d.OrganizationName,
        d.Email,
        d.Phone,
        d.Phone ? c.Phone : null,
        d.City,
        d.StateProvince,
        ...extra.member,
      ]),
      facets: {
        RelatedTo: c.ContactType === 'organization' ? null : d.OrganizationName,
        City: d.City,
        StateProvince: d.StateProvince,
        Status: null,
        ContactType: c.ContactType,
        AccountNumber: null,
      },
    });
  }
  return docs;
}

/** The counted facets of a live contact (the list's total and single-facet filters read these counters). */
export const COUNTED_FACETS = { Status: 'status', ContactType: 'contactType', IsListed: 'isListed' } as const;
export function contactFacets(c: {
  Status: unknown;
  ContactType: unknown;
  IsListed: unknown;
}): [string, string][] {
  return [
    ['', ''],
    ['status', String(c.Status)],
    ['contactType', String(c.ContactType)],
    ['isListed', String(c.IsListed === true)],
  ];
}

/** Lower-cased, trimmed email for matching; null when empty. */
export function emailKey(email: unknown): string | null {
  return typeof email === 'string' && email.trim() !== '' ? email.trim().toLowerCase() : null;
}

/** A contact as people tell it apart: "Adams, William (A0000138)", the name alone when it has no account number. */
export function contactLabel(c: { DisplayName?: unknown; AccountNumber?: unknown }): string {
  const name = typeof c.DisplayName === 'string' && c.DisplayName.trim() !== '' ? c.DisplayName : '(no name)';
  const account = typeof c.AccountNumber === 'string' ? c.AccountNumber.trim() : '';
  return account === '' ? name : `${name} (${account})`;
}

/** The YesNo message of the duplicate check. */
export function duplicateMessage(
  matches: readonly {
    DisplayName: string;
    AccountNumber?: string | null;
    reason: 'email' | 'namePostal';
  }[],
): string {
  const list = matches
    .slice(0, 3)
    .map((m) => `${contactLabel(m)}, same ${m.reason === 'email' ? 'email' : 'name and postal code'}`)
    .join('; ');
  const more = matches.length > 3 ? ` and ${matches.length - 3} more` : '';
  return `This contact may already exist: ${list}${more}. Save it anyway?`;
}

/** Postal codes compared as people mean them: "n1 9gu", "N1 9GU" and "N19GU" are one code. */
export function postalKey(postal: unknown): string {
  return typeof postal === 'string' ? postal.replace(/[\s-]/g, '').toUpperCase() : '';
}

/** The statuses the member directory lists when the association has not chosen: active members only. */
export const DEFAULT_DIRECTORY_STATUSES: readonly string[] = ['active'];

/** Whether the member directory shows this contact: listed by the contact and of a status the association publishes. */
export function isInDirectory(
  c: { IsListed: unknown; Status: unknown; IsDeleted?: unknown },
  statuses: readonly string[] = DEFAULT_DIRECTORY_STATUSES,
): boolean {
  return c.IsDeleted !== true && c.IsListed === true && statuses.includes(String(c.Status));
}

/** The per-tenant counter that numbers new contacts. */
export const ACCOUNT_NUMBER_COUNTER = 'contacts.accountNumber';
/** "A0000251": the account number of the n-th contact of an association, as the demo data numbers them. */
export function accountNumberOf(n: number): string {
  return `A${String(n).padStart(7, '0')}`;
}
/** The number in an account number made by accountNumberOf, or null for one typed by hand. */
export function accountNumberSequence(accountNumber: unknown): number | null {
  if (typeof accountNumber !== 'string') return null;
  const m = /^A(\d{7,15})$/.exec(accountNumber.trim());
  return m ? Number(m[1]) : null;
}

/** Contact fields a merge fills from the duplicate when the kept contact has none; a differing value is kept too. */
export const MERGE_FIELDS = [
  'Email',
  'Phone',
  'Website',
  'AccountNumber',
  'Address1',
  'Address2',
  'City',
  'StateProvince',
  'PostalCode',
  'CountryCode',
] as const;
type MergeField = (typeof MERGE_FIELDS)[number];
/** Fields whose differing value becomes a contact-info entry of the kept contact (with its type). */
const MERGE_ENTRY_TYPES: Partial<Record<MergeField, ContactEntryType>> = {
  Email: 'email',
  Phone: 'phone',
  Website: 'website',
};
const MERGE_LABELS: Record<MergeField, string> = {
  Email: 'Email',
  Phone: 'Phone',
  Website: 'Website',
  AccountNumber: 'Account number',
  Address1: 'Address 1',
  Address2: 'Address 2',
  City: 'City',
  StateProvince: 'State or province',
  PostalCode: 'Postal code',
  CountryCode: 'Country code',
};

export type MergeSide = Partial<Record<MergeField | 'Notes' | 'DisplayName', string | null>>;

export interface MergePlan {
  /** Fields of the kept contact that change (empty ones filled from the duplicate, and the notes). */
  changes: Partial<Record<MergeField | 'Notes', string | null>>;
  /** Contact-info entries the kept contact gains: the duplicate's email, phone and website that differ from its own. */
  entries: { CommType: ContactEntryType; Value: string }[];
}

const filled = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * What merging a duplicate into a kept contact changes, losing nothing of the duplicate: an empty field of the kept
 * contact takes the duplicate's value; a differing email, phone or website becomes a contact-info entry of the kept
 * contact (unless it already has that entry); any other differing field and the duplicate's notes are added to the
 * kept contact's notes under a heading that names the duplicate.
 */
export function planMerge(
  keep: MergeSide,
  gone: MergeSide,
  keptEntries: readonly string[] = [],
  /** Other differing values of the duplicate as "Label: value" lines (its custom fields the kept one fills). */
  extraValues: readonly string[] = [],
): MergePlan {
  const changes: MergePlan['changes'] = {};
  const entries: MergePlan['entries'] = [];
  const otherValues: string[] = [];
  for (const field of MERGE_FIELDS) {
    const theirs = gone[field];
    if (!filled(theirs)) continue;
    const own = keep[field];
    if (!filled(own)) {
      changes[field] = theirs;
      continue;
    }
    if (same(own, theirs)) continue;
    const type = MERGE_ENTRY_TYPES[field];
    if (type) {
      if (!keptEntries.some((e) => same(e, theirs))) entries.push({ CommType: type, Value: theirs });
    } else otherValues.push(`${MERGE_LABELS[field]}: ${theirs}`);
  }
  const theirNotes = filled(gone.Notes) ? gone.Notes : '';
  const ownNotes = filled(keep.Notes) ? keep.Notes : '';
  const parts = [
    ...otherValues,
    ...extraValues,
    ...(theirNotes !== '' && !same(theirNotes, ownNotes) ? [theirNotes] : []),
  ];
  if (parts.length > 0) {
    const block = `${mergedNotesHeading(gone)}\n${parts.join('\n')}`;
    changes.Notes = ownNotes === '' ? block : `${ownNotes}\n\n${block}`;
  }
  return { changes, entries };
}

/** The line a merge adds before what the duplicate held that the kept contact's fields could not. */
export function mergedNotesHeading(gone: { DisplayName?: unknown; AccountNumber?: unknown }): string {
  return `From ${contactLabel({ DisplayName: gone.DisplayName, AccountNumber: gone.AccountNumber })}, merged into this contact:`;
}

/** The merge confirmation: "Adams, William (A0000138) will absorb Adams, Bill (A0000292)". */
export function mergeConfirmation(
  keep: { DisplayName?: unknown; AccountNumber?: unknown },
  gone: { DisplayName?: unknown; AccountNumber?: unknown },
): string {
  return `${contactLabel(keep)} will absorb ${contactLabel(gone)}`;
}
