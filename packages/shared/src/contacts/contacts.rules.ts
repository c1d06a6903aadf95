/**
 * Pure rules of contacts: their statuses and types, the display name, contact-info entries as typed, what the
 * member directory publishes, the search documents of a contact and the duplicate check's reasons.
 */

import { validateEmailAddress } from '../platform/fields/email.rules.ts';
import { formatPhone, phoneDigits } from '../platform/fields/phone.rules.ts';
import { normalizeWebsite } from '../platform/fields/website.rules.ts';
import { foldSearchText, searchTextOf } from '../search/search.rules.ts';
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
      const digits = phoneDigits(text);
      if (digits.length === 0) return { ok: false, error: 'The phone number has no digits.' };
      return { ok: true, CommType: 'phone', Value: digits };
    }
    case 'website':
      return { ok: true, CommType: 'website', Value: normalizeWebsite(text, websitePrefix) };
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

/** The directory's view of a listed contact: its name, type and the published fields only. */
export interface DirectoryContact {
  DirectoryContactId: number;
  DisplayName: string;
  ContactType: string;
  FirstName: string | null;
  LastName: string | null;
  OrganizationName: string | null;
  Email: string | null;
  Phone: string | null;
  Website: string | null;
  Address1: string | null;
  Address2: string | null;
  PostalCode: string | null;
  City: string | null;
  StateProvince: string | null;
  CountryCode: string | null;
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
 * contact is listed and live, one for members made of the published fields only, so a member can neither see nor
 * match a field that is not published.
 */
export function contactSearchDocuments(
  c: ContactRecord & { IsDeleted?: boolean },
  entries: readonly string[] = [],
  relatedTo: string | null = null,
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
  if (c.IsListed) {
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

/** Fields a member may change on their own profile; everything else is the association's. */
export const MEMBER_EDITABLE_FIELDS = [
  'Email',
  'Phone',
  'Website',
  'Address1',
  'Address2',
  'City',
  'StateProvince',
  'PostalCode',
  'CountryCode',
  'IsListed',
  'PublishedFields',
] as const;

/** Lower-cased, trimmed email for matching; null when empty. */
export function emailKey(email: unknown): string | null {
  return typeof email === 'string' && email.trim() !== '' ? email.trim().toLowerCase() : null;
}

/** The YesNo message of the duplicate check. */
export function duplicateMessage(
  matches: readonly { DisplayName: string; ContactId: number; reason: 'email' | 'namePostal' }[],
): string {
  const list = matches
    .slice(0, 3)
    .map(
      (m) =>
        `${m.DisplayName} (#${m.ContactId}, same ${m.reason === 'email' ? 'email' : 'name and postal code'})`,
    )
    .join('; ');
  const more = matches.length > 3 ? ` and ${matches.length - 3} more` : '';
  return `This contact may already exist: ${list}${more}. Save it anyway?`;
}
