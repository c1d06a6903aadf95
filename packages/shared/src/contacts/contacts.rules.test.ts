import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ContactRecord,
  contactDisplayName,
  contactFacets,
  contactSearchDocuments,
  contactSpokenName,
  DEFAULT_PUBLISHED_FIELDS,
  directoryContactOf,
  displayEntryValue,
  duplicateMessage,
  emailKey,
  MERGE_FIELDS,
  mergeConfirmation,
  normalizeContactEntry,
  PUBLISH,
  planMerge,
} from './contacts.rules.ts';

const person: ContactRecord = {
  ContactId: 7,
  ContactType: 'individual',
  FirstName: 'Ana',
  LastName: 'García',
  OrganizationName: 'Riverside Rowing',
  DisplayName: 'García, Ana',
  Status: 'active',
  AccountNumber: 'A0000007',
  Email: 'ana@example.org',
  Phone: '3125550100',
  Website: 'https://ana.example.org',
  Address1: '1 Lake St',
  Address2: null,
  City: 'Chicago',
  StateProvince: 'IL',
  PostalCode: '60601',
  CountryCode: 'US',
  IsListed: true,
  PublishedFields: DEFAULT_PUBLISHED_FIELDS,
};

describe('names', () => {
  it('display "Last, First" for people and the organisation name for organisations', () => {
    expect(contactDisplayName(person)).toBe('García, Ana');
    expect(contactDisplayName({ ContactType: 'individual', LastName: ' Smith ' })).toBe('Smith');
    expect(contactDisplayName({ ContactType: 'individual', FirstName: 'Cher' })).toBe('Cher');
    expect(contactDisplayName({ ContactType: 'organization', OrganizationName: 'Acme' })).toBe('Acme');
    expect(contactDisplayName({ ContactType: 'organization' })).toBe('(no name)');
    expect(contactDisplayName({ ContactType: 'individual', OrganizationName: 'Acme' })).toBe('Acme');
    expect(contactDisplayName({})).toBe('(no name)');
  });

  it('speak "First Last"', () => {
    expect(contactSpokenName(person)).toBe('Ana García');
    expect(contactSpokenName({ ...person, ContactType: 'organization' })).toBe('Riverside Rowing');
    expect(contactSpokenName({ ...person, ContactType: 'organization', OrganizationName: ' ' })).toBe(
      '(no name)',
    );
    expect(contactSpokenName({ ...person, FirstName: null, LastName: null })).toBe('(no name)');
  });
});

describe('contact-info entries (spec 001 section 5: entry type detection)', () => {
  it('detect and normalise email, phone and website', () => {
    expect(normalizeContactEntry(' ana@example.org ')).toEqual({
      ok: true,
      CommType: 'email',
      Value: 'ana@example.org',
    });
    expect(normalizeContactEntry('(312) 555-0100')).toEqual({
      ok: true,
      CommType: 'phone',
      Value: '3125550100',
    });
    expect(normalizeContactEntry('example.org', 'https://')).toEqual({
      ok: true,
      CommType: 'website',
      Value: 'https://example.org',
    });
  });

  it('refuse what is none of them, or empty', () => {
    expect(normalizeContactEntry('')).toEqual({ ok: false, error: 'The value is required.' });
    expect(normalizeContactEntry('hello there')).toEqual({
      ok: false,
      error: 'Enter an email address, a phone number or a website.',
    });
  });

  it('show phones as (xxx) xxx-xxxx and other values as stored', () => {
    expect(displayEntryValue('phone', '3125550100')).toBe('(312) 555-0100');
    expect(displayEntryValue('email', 'a@b.org')).toBe('a@b.org');
  });
});

describe('the member directory publishes only what the contact chose', () => {
  it('with the default: city, state and organisation, nothing else', () => {
    const d = directoryContactOf(person);
    expect(d).toMatchObject({
      DirectoryContactId: 7,
      DisplayName: 'Ana García',
      City: 'Chicago',
      OrganizationName: 'Riverside Rowing',
    });
    expect(d.Email).toBeNull();
    expect(d.Phone).toBeNull();
    expect(d.Address1).toBeNull();
    expect(d.Website).toBeNull();
  });

  it('with everything published, phones formatted and the related organisation preferred', () => {
    const all = Object.values(PUBLISH).reduce((m, b) => m | b, 0);
    const d = directoryContactOf({ ...person, PublishedFields: all }, 'Lakeside Club');
    expect(d).toMatchObject({
      Email: 'ana@example.org',
      Phone: '(312) 555-0100',
      Address1: '1 Lake St',
      OrganizationName: 'Lakeside Club',
    });
  });

  it('an organisation keeps its own name and has no person names', () => {
    const d = directoryContactOf({ ...person, ContactType: 'organization', PublishedFields: 0 });
    expect(d).toMatchObject({
      FirstName: null,
      LastName: null,
      OrganizationName: 'Riverside Rowing',
      City: null,
    });
  });

  it('never publishes an unpublished field, whatever the flags (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 63 }), (flags) => {
        const d = directoryContactOf({ ...person, PublishedFields: flags });
        if (!(flags & PUBLISH.Email)) expect(d.Email).toBeNull();
        if (!(flags & PUBLISH.Phone)) expect(d.Phone).toBeNull();
        if (!(flags & PUBLISH.Website)) expect(d.Website).toBeNull();
        if (!(flags & PUBLISH.Street)) expect(d.Address1).toBeNull();
      }),
    );
  });
});

describe('search documents', () => {
  it('give staff everything and members only the published fields of a listed contact', () => {
    const docs = contactSearchDocuments(person, ['ana.work@example.org']);
    expect(docs.map((d) => d.audience)).toEqual(['staff', 'member']);
    const [staff, member] = docs;
    expect(staff?.searchText).toContain('a0000007');
    expect(staff?.searchText).toContain('ana.work@example.org');
    expect(staff?.titleKey).toBe('ana garcia');
    expect(member?.entityType).toBe('DirectoryContact');
    expect(member?.searchText).not.toContain('ana@example.org');
    expect(member?.facets.AccountNumber).toBeNull();
  });

  it('give an unlisted contact no member document and a deleted one none at all', () => {
    expect(contactSearchDocuments({ ...person, IsListed: false }).map((d) => d.audience)).toEqual(['staff']);
    expect(contactSearchDocuments({ ...person, IsDeleted: true })).toEqual([]);
  });

  it('relate an organisation to nothing and a person to their organisation', () => {
    const org = contactSearchDocuments({ ...person, ContactType: 'organization' });
    expect(org[0]?.facets.RelatedTo).toBeNull();
    expect(org[1]?.facets.RelatedTo).toBeNull();
    expect(contactSearchDocuments(person, [], 'Lakeside Club')[0]?.facets.RelatedTo).toBe('Lakeside Club');
  });
});

describe('counters, emails and the duplicate message', () => {
  it('count the total and each counted facet', () => {
    expect(contactFacets({ Status: 'active', ContactType: 'individual', IsListed: true })).toEqual([
      ['', ''],
      ['status', 'active'],
      ['contactType', 'individual'],
      ['isListed', 'true'],
    ]);
    expect(contactFacets({ Status: 'x', ContactType: 'y', IsListed: 'yes' })[3]).toEqual([
      'isListed',
      'false',
    ]);
  });

  it('match emails without case or spaces', () => {
    expect(emailKey(' Ana@Example.ORG ')).toBe('ana@example.org');
    expect(emailKey('')).toBeNull();
    expect(emailKey(42)).toBeNull();
  });

  it('ask before saving a possible duplicate, naming at most three', () => {
    const m = (id: number, reason: 'email' | 'namePostal') => ({
      DisplayName: `C${id}`,
      AccountNumber: id === 3 ? null : `A000000${id}`,
      reason,
    });
    expect(duplicateMessage([m(1, 'email')])).toBe(
      'This contact may already exist: C1 (A0000001), same email. Save it anyway?',
    );
    // Named as people tell them apart (name and account number), never by an internal id.
    expect(
      duplicateMessage([m(1, 'email'), m(2, 'namePostal'), m(3, 'email'), m(4, 'email'), m(5, 'email')]),
    ).toBe(
      'This contact may already exist: C1 (A0000001), same email; C2 (A0000002), same name and postal code; C3, same email and 2 more. Save it anyway?',
    );
  });
});

describe('merge plan', () => {
  const keep = {
    DisplayName: 'Adams, William',
    AccountNumber: 'A0000138',
    Email: 'w@a.example',
    City: 'Boston',
  };
  const gone = {
    DisplayName: 'Adams, Bill',
    AccountNumber: 'A0000292',
    Email: 'b@a.example',
    Phone: '6175550100',
    City: 'Cambridge',
    Notes: 'Call after 5 pm.',
  };

  it('names both contacts in the confirmation', () => {
    expect(mergeConfirmation(keep, gone)).toBe(
      'Adams, William (A0000138) will absorb Adams, Bill (A0000292)',
    );
  });

  it('fills empty fields, adds differing email as an entry, keeps other differences and notes in the notes', () => {
    const plan = planMerge(keep, gone);
    expect(plan.changes.Phone).toBe('6175550100');
    expect(plan.changes.Email).toBeUndefined();
    expect(plan.entries).toEqual([{ CommType: 'email', Value: 'b@a.example' }]);
    expect(plan.changes.Notes).toBe(
      'From Adams, Bill (A0000292), merged into this contact:\nAccount number: A0000292\nCity: Cambridge\nCall after 5 pm.',
    );
    expect(planMerge(keep, gone, ['B@A.example']).entries).toEqual([]);
  });

  it('loses no value of the duplicate, whatever both hold', () => {
    const side = fc.record(
      Object.fromEntries(
        [...MERGE_FIELDS, 'Notes'].map((f) => [
          f,
          fc.option(fc.string({ minLength: 1, maxLength: 8 }), { nil: null }),
        ]),
      ) as Record<string, fc.Arbitrary<string | null>>,
    );
    fc.assert(
      fc.property(side, side, (k, g) => {
        const plan = planMerge({ ...k, DisplayName: 'K' }, { ...g, DisplayName: 'G' });
        const after: Record<string, unknown> = { ...k, ...plan.changes };
        const kept = [
          ...Object.values(after).filter((v): v is string => typeof v === 'string'),
          ...plan.entries.map((e) => e.Value),
        ].map((v) => v.trim().toLowerCase());
        for (const f of [...MERGE_FIELDS, 'Notes'] as const) {
          const v = g[f];
          if (typeof v !== 'string' || v.trim() === '') continue;
          const needle = v.trim().toLowerCase();
          expect(kept.some((x) => x.includes(needle))).toBe(true);
        }
        // Nothing the kept contact held is lost either.
        for (const f of [...MERGE_FIELDS, 'Notes'] as const) {
          const v = k[f];
          if (typeof v === 'string' && v.trim() !== '') expect(String(after[f])).toContain(v);
        }
      }),
    );
  });
});
