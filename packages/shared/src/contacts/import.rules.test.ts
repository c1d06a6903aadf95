import { describe, expect, it } from 'vitest';
import {
  importRowName,
  importRowOf,
  rejectedRowsCsv,
  suggestMapping,
  unknownMappedColumns,
} from './import.rules.ts';

describe('suggestMapping', () => {
  it('matches headers by field id, label or alias, each header once', () => {
    expect(
      suggestMapping(['First Name', 'surname', 'E-mail', 'Zip', 'company', 'Whatever', 'account_number']),
    ).toEqual({
      FirstName: 'First Name',
      LastName: 'surname',
      Email: 'E-mail',
      PostalCode: 'Zip',
      OrganizationName: 'company',
      AccountNumber: 'account_number',
    });
    expect(suggestMapping(['Name'])).toEqual({ FullName: 'Name' });
  });

  it('names the mapped columns the file lacks', () => {
    expect(unknownMappedColumns({ Email: 'Mail', City: 'Town' }, ['Mail'])).toEqual(['Town']);
  });
});

describe('importRowOf', () => {
  const row = (r: Record<string, string>, mapping = {}) =>
    importRowOf(r, { FullName: 'Name', ContactInfo: 'Info', ...mapping }, { websitePrefix: 'https://' });

  it('splits a full name, detects an email, phone or website in a contact-info column', () => {
    expect(row({ Name: 'Dr. Ada King Lovelace', Info: 'ADA@Example.org' })).toMatchObject({
      ok: true,
      model: { FirstName: 'Ada', LastName: 'Lovelace', Email: 'ADA@Example.org', ContactType: 'individual' },
      email: 'ada@example.org',
    });
    expect(row({ Name: 'Ada Lovelace', Info: '(415) 555-0100' })).toMatchObject({
      ok: true,
      model: { Phone: expect.stringContaining('415') },
    });
    // An international number keeps its country code and extension; a short one is rejected with the reason.
    expect(row({ Name: 'Ada Lovelace', Info: '+44 20 7946 0958 x12' })).toMatchObject({
      ok: true,
      model: { Phone: '+442079460958 x12' },
    });
    const short = row({ Name: 'Ada Lovelace', Phone: '555-1234' }, { Phone: 'Phone' });
    expect(short.ok).toBe(false);
    expect(short.ok ? '' : short.reasons.join('\n')).toMatch(/10 digits/);
    expect(row({ Name: 'Ada Lovelace', Info: 'ada.example.org' })).toMatchObject({
      ok: true,
      model: { Website: 'https://ada.example.org' },
    });
  });

  it('an organisation without a person is an organisation; type and status are read by id or name', () => {
    const m = { OrganizationName: 'Org', ContactType: 'Type', Status: 'Status', AccountNumber: 'Acc' };
    expect(row({ Org: 'Acme', Type: '', Status: 'Prospect', Acc: 'A-1' }, m)).toMatchObject({
      ok: true,
      model: { OrganizationName: 'Acme', ContactType: 'organization', Status: 'prospect' },
      accountNumber: 'A-1',
      email: null,
    });
    expect(row({ Org: 'Acme', Type: 'Organization', Status: '' }, m)).toMatchObject({
      ok: true,
      model: { Status: 'active' },
    });
  });

  it('rejects with every reason', () => {
    const m = { ContactType: 'Type', Status: 'Status', Email: 'Email' };
    const r = row({ Name: '', Info: 'hello there', Type: 'robot', Status: 'asleep', Email: 'nope@' }, m);
    expect(r.ok).toBe(false);
    const reasons = r.ok ? [] : r.reasons;
    expect(reasons.join('\n')).toMatch(/not an email address, a phone number or a website/);
    expect(reasons.join('\n')).toMatch(/Contact type "robot"/);
    expect(reasons.join('\n')).toMatch(/Status "asleep"/);
    expect(reasons.join('\n')).toMatch(/^Email: /m);
    expect(row({ Name: '' })).toEqual({ ok: false, reasons: ['A person needs a first or a last name.'] });
    expect(row({ Name: '', Type: 'organization' }, { ContactType: 'Type' })).toMatchObject({
      ok: false,
      reasons: expect.arrayContaining(['An organization needs its name.']),
    });
    expect(row({ Name: '()' })).toMatchObject({
      ok: false,
      reasons: expect.arrayContaining(['The name "()" could not be read.']),
    });
  });

  it('keeps only the fields the file gives, so an update does not blank the others', () => {
    const r = importRowOf({ L: 'Hopper' }, { LastName: 'L' });
    expect(r).toEqual({
      ok: true,
      model: { LastName: 'Hopper', ContactType: 'individual', Status: 'active' },
      email: null,
      accountNumber: null,
    });
  });
});

describe('importRowName', () => {
  it("names a row by its person's names, else its full name, else its organisation, whatever was rejected", () => {
    const all = { FirstName: 'F', LastName: 'L', OrganizationName: 'O' } as const;
    expect(importRowName({ F: 'Ada', L: 'Lovelace', O: 'Engines' }, all)).toBe('Ada Lovelace');
    expect(importRowName({ N: ' Ada King ', O: 'Engines' }, { FullName: 'N', OrganizationName: 'O' })).toBe(
      'Ada King',
    );
    expect(importRowName({ O: 'Engines', E: 'x' }, { OrganizationName: 'O', Email: 'E' })).toBe('Engines');
    expect(importRowName({ E: 'x' }, { Email: 'E' })).toBe('');
  });
});

describe('rejectedRowsCsv', () => {
  it("writes the file's columns, the line and the reasons, quoted where needed, formulas as text, with a BOM", () => {
    const csv = rejectedRowsCsv(
      ['Name', 'Note'],
      [
        {
          line: 4,
          cells: { Name: 'Müller, Jo', Note: 'said "hi"' },
          reasons: ['Email: not valid.', 'Twice.'],
        },
        { line: 9, cells: { Name: '=HYPERLINK("x")', Note: '+1' }, reasons: ['-'] },
      ],
    );
    expect(csv.split('\r\n')).toEqual([
      '\uFEFFName,Note,Row,Reasons',
      '"Müller, Jo","said ""hi""",4,Email: not valid. Twice.',
      `"'=HYPERLINK(""x"")","'+1",9,"'-"`,
      '',
    ]);
  });
});
