import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NAME_PREFIXES, NAME_SUFFIXES, parseFullName } from './name.rules.ts';

describe('full name parsing (spec 001 §5: "Full name must parse into both a first and a last name")', () => {
  it.each([
    ['Jane Doe', { FirstName: 'Jane', LastName: 'Doe', Valid: true }],
    ['  Jane   Doe  ', { FirstName: 'Jane', LastName: 'Doe', Valid: true }],
    ['Jane Mary Ann Doe', { FirstName: 'Jane', MiddleName: 'Mary Ann', LastName: 'Doe', Valid: true }],
    [
      'Dr. Martin Luther King Jr.',
      { Prefix: 'Dr.', FirstName: 'Martin', MiddleName: 'Luther', LastName: 'King', Suffix: 'Jr.' },
    ],
    ['Mrs Jane Doe', { Prefix: 'Mrs', FirstName: 'Jane', LastName: 'Doe' }],
    ['John Smith III', { FirstName: 'John', LastName: 'Smith', Suffix: 'III' }],
    ['John Smith, Jr.', { FirstName: 'John', LastName: 'Smith', Suffix: 'Jr.', Valid: true }],
    ['John Smith, Jr., CAE', { FirstName: 'John', LastName: 'Smith', Suffix: 'Jr., CAE' }],
    ['Jane Doe Ph.D.', { FirstName: 'Jane', LastName: 'Doe', Suffix: 'Ph.D.' }],
    ['Doe, Jane', { FirstName: 'Jane', LastName: 'Doe', Valid: true }],
    ['Doe, Jane Marie', { FirstName: 'Jane', MiddleName: 'Marie', LastName: 'Doe' }],
    ['Doe, Dr. Jane', { Prefix: 'Dr.', FirstName: 'Jane', LastName: 'Doe' }],
    ['Smith Jr., John', { FirstName: 'John', LastName: 'Smith', Suffix: 'Jr.' }],
    ['Smith, John Esq.', { FirstName: 'John', LastName: 'Smith', Suffix: 'Esq.' }],
    ['Smith, John, MD', { FirstName: 'John', LastName: 'Smith', Suffix: 'MD' }],
    ['Ludwig van Beethoven', { FirstName: 'Ludwig', LastName: 'van Beethoven' }],
    ['Jean de la Fontaine', { FirstName: 'Jean', LastName: 'de la Fontaine' }],
    ['Anh Le', { FirstName: 'Anh', LastName: 'Le' }],
    ['Mary V', { FirstName: 'Mary', LastName: 'V', Valid: true }],
    ['Mary Anne Smith V', { FirstName: 'Mary', MiddleName: 'Anne', LastName: 'Smith', Suffix: 'V' }],
    ['Robert "Bob" Smith', { FirstName: 'Robert', LastName: 'Smith', Nickname: 'Bob' }],
    ['Elizabeth (Liz) Taylor', { FirstName: 'Elizabeth', LastName: 'Taylor', Nickname: 'Liz' }],
    ['Jane “JJ” Doe', { FirstName: 'Jane', LastName: 'Doe', Nickname: 'JJ' }],
    [
      'Doe, Jane Marie, Jr., CPA',
      { FirstName: 'Jane', MiddleName: 'Marie', LastName: 'Doe', Suffix: 'Jr., CPA' },
    ],
    ['Rev. Dr. Jane Doe', { Prefix: 'Rev. Dr.', FirstName: 'Jane', LastName: 'Doe' }],
    ['John Paul St. Clair', { FirstName: 'John', MiddleName: 'Paul', LastName: 'St. Clair' }],
    ["Mary-Jane O'Neil-Smith", { FirstName: 'Mary-Jane', LastName: "O'Neil-Smith" }],
  ])('%j', (input, expected) => {
    expect(parseFullName(input)).toMatchObject(expected);
  });

  it.each([
    ['Cher', { FirstName: 'Cher', LastName: '' }],
    ['Dr. Smith', { Prefix: 'Dr.', FirstName: '', LastName: 'Smith' }],
    ['Smith Jr.', { FirstName: 'Smith', LastName: '' }],
    ['Smith, Jr.', { FirstName: 'Smith', LastName: '' }],
    ['', { FirstName: '', LastName: '' }],
    ['"Bob"', { Nickname: 'Bob' }],
    [null, {}],
    [' , ', {}],
  ])('"a name that yields no first or no last name is invalid": %j', (input, expected) => {
    const parsed = parseFullName(input);
    expect(parsed).toMatchObject(expected);
    expect(parsed.Valid).toBe(false);
  });

  it('property: a valid parse never invents characters and keeps first and last name non-empty', () => {
    const word = fc
      .stringMatching(/^[A-Z][a-z]{1,10}$/)
      .filter((w) => !NAME_PREFIXES.has(w.toLowerCase()) && !NAME_SUFFIXES.has(w.toLowerCase()));
    fc.assert(
      fc.property(fc.array(word, { minLength: 2, maxLength: 5 }), (words) => {
        const parsed = parseFullName(words.join(' '));
        expect(parsed.Valid).toBe(true);
        const rebuilt = [parsed.Prefix, parsed.FirstName, parsed.MiddleName, parsed.LastName, parsed.Suffix]
          .filter((part) => part !== '')
          .join(' ');
        expect(rebuilt.replace(/,/g, '')).toBe(words.join(' '));
      }),
    );
  });
});
