import { describe, expect, it } from 'vitest';
import { contactLinksResource, contactsResource } from '../contacts/contacts.resource.ts';
import { eventDetailsResource } from '../events/events.resource.ts';
import { auditChanges, auditMergedName, auditRecordText } from './audit.rules.ts';

const ada = {
  ContactId: 138,
  ContactType: 'individual',
  FirstName: 'Ada',
  LastName: 'Lovelace',
  DisplayName: 'Lovelace, Ada',
  Status: 'active',
  AccountNumber: 'A0000138',
  Phone: '3125550100',
  IsListed: false,
  PublishedFields: 16,
};

describe('the audit log as people read it', () => {
  it('names the record by its name and account number, never by its internal id', () => {
    const text = auditRecordText(contactsResource, 'contacts', ada, { ...ada, Status: 'lapsed' });
    expect(text).toBe('Contact Lovelace, Ada (A0000138)');
    expect(text).not.toContain('#');
  });

  it('names a choice by its option, not its stored id', () => {
    const link = { LinkId: 7, ContactId: 1, RelatedContactId: 2, LinkType: 'employeeOf' };
    expect(auditRecordText(contactLinksResource, 'contactLinks', null, link)).toBe(
      'Related contact Employee of',
    );
  });

  it('lists the changed fields with their labels and their values as shown', () => {
    expect(
      auditChanges(contactsResource, ada, {
        ...ada,
        Status: 'lapsed',
        Phone: '+442079460958',
        IsListed: true,
        PublishedFields: 16 | 2,
      }),
    ).toEqual([
      { field: 'Status', label: 'Status', before: 'Active', after: 'Lapsed' },
      { field: 'Phone', label: 'Phone', before: '(312) 555-0100', after: '+44 20 7946 0958' },
      { field: 'IsListed', label: 'Listed in the member directory', before: 'No', after: 'Yes' },
      {
        field: 'PublishedFields',
        label: 'Published in the directory',
        before: 'City and state',
        after: 'Phone, City and state',
      },
    ]);
  });

  it('a create lists what it set; a merge compares the kept record and names the absorbed one', () => {
    expect(auditChanges(contactsResource, null, { ContactId: 1, LastName: 'Zeller' })).toEqual([
      { field: 'LastName', label: 'Last name', before: '—', after: 'Zeller' },
    ]);
    const merged = {
      ...ada,
      ContactId: 292,
      FirstName: 'Bill',
      DisplayName: 'Lovelace, Bill',
      AccountNumber: 'A0000292',
    };
    const before = { kept: ada, merged };
    const after = { kept: { ...ada, Notes: 'From Lovelace, Bill (A0000292)' }, mergedContactId: 292 };
    expect(auditChanges(contactsResource, before, after).map((c) => c.label)).toEqual(['Notes']);
    expect(auditMergedName(contactsResource, before)).toBe('Lovelace, Bill (A0000292)');
    expect(auditRecordText(contactsResource, 'contacts', before, after)).toBe(
      'Contact Lovelace, Ada (A0000138)',
    );
  });
});

describe('entities no resource declares', () => {
  it('are named by a label and their own title, never by the raw entity name', () => {
    expect(auditRecordText(null, 'savedReports', null, { Title: 'Members by type' })).toBe(
      'Saved report Members by type',
    );
    expect(auditRecordText(null, 'savedReports', { Title: 'Old' }, null)).toBe('Saved report Old');
    expect(auditRecordText(null, 'mailSuppressions', null, null)).toBe('Mail suppression');
  });
});

describe('a record named by a moment', () => {
  it("reads it in the reader's zone, never as stored", () => {
    const occurrence = { EventDetailId: 4, EventId: 1, StartsAt: '2027-02-10T14:30:00.000Z' };
    expect(auditRecordText(eventDetailsResource, 'eventDetails', null, occurrence, 'America/Chicago')).toBe(
      'Occurrence 02/10/2027 8:30 AM CST',
    );
    expect(auditRecordText(eventDetailsResource, 'eventDetails', null, occurrence, 'Asia/Tokyo')).toBe(
      'Occurrence 02/10/2027 11:30 PM GMT+9',
    );
  });
});
