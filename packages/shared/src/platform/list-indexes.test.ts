import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  contactEntriesResource,
  contactLinksResource,
  contactsResource,
} from '../contacts/contacts.resource.ts';
import { usersResource } from '../users/users.resource.ts';
import {
  indexFieldsFor,
  LIST_SEARCH_ANYWHERE_FROM,
  listAccessPaths,
  listCountFacets,
  listCountRead,
  listCountValue,
  listIndexes,
  listSearchExpression,
  listSearchIndex,
  listSearchMatches,
  listSearchPatterns,
  listSearchWords,
  listSplitValues,
  parentFieldsOf,
} from './list-indexes.ts';
import { defineResource } from './resource.ts';

const all = [contactsResource, contactEntriesResource, contactLinksResource, usersResource];

describe('list indexes derived from a resource', () => {
  it('finds the parent fields by which other resources list this one as a tab', () => {
    expect(parentFieldsOf(contactEntriesResource, all)).toEqual(['ContactId']);
    expect(parentFieldsOf(contactsResource, all)).toEqual([]);
  });

  it('asks for every sortable field with no filter, each named filter and each parent', () => {
    const paths = listAccessPaths(contactsResource);
    const filters = 1 + contactsResource.filters.length;
    expect(paths).toHaveLength(filters * contactsResource.sortable.length);
    for (const sort of contactsResource.sortable)
      expect(paths).toContainEqual({ filter: 0, equal: [], sort });
    const child = listAccessPaths(contactEntriesResource, ['ContactId']);
    expect(
      child.filter((p) => p.filter === 'parent:ContactId').every((p) => p.equal[0] === 'ContactId'),
    ).toBe(true);
  });

  it('holds a field equal to each of a few values of an in filter, read as one run per value', () => {
    expect(listSplitValues({ PropertyName: 'Status', Operator: 'in', Value: [1, 2, 2] })).toEqual([1, 2]);
    expect(listSplitValues({ PropertyName: 'Status', Operator: 'in', Value: [1] })).toBeNull();
    expect(
      listSplitValues({ PropertyName: 'Status', Operator: 'in', Value: [...Array(11).keys()] }),
    ).toBeNull();
    expect(listSplitValues({ PropertyName: 'Status', Operator: 'eq', Value: 1 })).toBeNull();
    const waitlist = defineResource({
      ...contactsResource,
      name: 'waitlisted',
      filters: [
        { Id: 1, Name: 'Two', Criteria: [{ PropertyName: 'Status', Operator: 'in', Value: ['a', 'b'] }] },
        {
          Id: 2,
          Name: 'Many',
          Criteria: [{ PropertyName: 'City', Operator: 'in', Value: [...'abcdefghijk'] }],
        },
      ],
    });
    const paths = listAccessPaths(waitlist);
    expect(paths).toContainEqual({ filter: 1, equal: ['Status'], sort: 'City' });
    expect(paths).toContainEqual({ filter: 2, equal: [], sort: 'City' });
  });

  it('needs no index for a resource of few rows', () => {
    expect(listAccessPaths(usersResource)).toEqual([]);
    expect(listIndexes(usersResource)).toEqual([]);
  });

  it('orders an index as the equal fields, the sort field, then the key, without repeats', () => {
    expect(indexFieldsFor(contactsResource, { filter: 0, equal: [], sort: 'City' })).toEqual([
      'City',
      'ContactId',
    ]);
    expect(indexFieldsFor(contactsResource, { filter: 1, equal: ['Status'], sort: 'Status' })).toEqual([
      'Status',
      'ContactId',
    ]);
    expect(indexFieldsFor(contactsResource, { filter: 0, equal: [], sort: 'ContactId' })).toEqual([
      'ContactId',
    ]);
  });

  it('serves every access path by exactly one index, and no two indexes share their fields', () => {
    const paths = listAccessPaths(contactEntriesResource, ['ContactId']);
    const indexes = listIndexes(contactEntriesResource, ['ContactId']);
    expect(indexes.flatMap((i) => i.serves)).toHaveLength(paths.length);
    const ids = indexes.map((i) => i.fields.join(','));
    expect(new Set(ids).size).toBe(ids.length);
    for (const i of indexes)
      for (const p of i.serves) expect(indexFieldsFor(contactEntriesResource, p)).toEqual(i.fields);
  });
});

describe("a large list's search box index (decision 0102)", () => {
  it('is derived for a large resource with search fields, unless it has a search index of its own', () => {
    expect(listSearchIndex(contactEntriesResource)).toEqual({ fields: ['Value'] });
    expect(listSearchIndex(contactsResource)).toBeNull();
    expect(listSearchIndex(usersResource)).toBeNull();
    expect(listSearchIndex(contactLinksResource)).toBeNull();
  });

  it('spells the joined, lower-cased text of the fields the same way for the index and the statement', () => {
    expect(listSearchExpression(['"name"', '"location"'])).toBe(
      `lower((case when "name" is null then '' else "name"::text end) || ' ' || (case when "location" is null then '' else "location"::text end))`,
    );
    expect(listSearchExpression(['"value"'])).toBe(
      `lower((case when "value" is null then '' else "value"::text end))`,
    );
  });

  it('splits what is typed into at most 8 lower-cased words', () => {
    expect(listSearchWords('  Houston,  WORKSHOP;spring ')).toEqual(['houston', 'workshop', 'spring']);
    expect(listSearchWords('')).toEqual([]);
    expect(listSearchWords('a b c d e f g h i j')).toHaveLength(8);
  });
});

/** SQL LIKE with backslash escapes, as PostgreSQL evaluates it: `%` any run, `_` one character. */
function like(text: string, pattern: string): boolean {
  let re = '';
  const chars = [...pattern];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    if (c === '\\') re += (chars[++i] ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else if (c === '%') re += '[\\s\\S]*';
    else if (c === '_') re += '[\\s\\S]';
    else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'u').test(text);
}

describe('a search word of the list search box (decision 0199)', () => {
  it('matches where a word begins when it is shorter than three characters, anywhere from three', () => {
    expect(LIST_SEARCH_ANYWHERE_FROM).toBe(3);
    expect(listSearchPatterns('q')).toEqual(['q%', '% q%']);
    expect(listSearchPatterns('qu')).toEqual(['qu%', '% qu%']);
    expect(listSearchPatterns('qui')).toEqual(['%qui%']);
    expect(listSearchPatterns('5%')).toEqual(['5\\%%', '% 5\\%%']);
    for (const [text, word, hit] of [
      ['quinn, ada', 'q', true],
      ['smith, quentin', 'q', true],
      ['jacques, bob', 'q', false],
      ['jacques, bob', 'acq', true],
      ['mary-quill', 'qu', false],
      ['łukasz żółć', 'żó', true],
    ] as const)
      expect(listSearchMatches(text, word), `${word} in ${text}`).toBe(hit);
  });

  it('spells the same rule in its LIKE patterns as the reference says, for any text and word', () => {
    const alphabet = fc.constantFrom('a', 'b', 'q', ' ', '%', '_', '\\', '-', 'ż');
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 12 }).map((a) => a.join('')),
        fc
          .array(
            alphabet.filter((c) => c !== ' '),
            { minLength: 1, maxLength: 4 },
          )
          .map((a) => a.join('')),
        (text, word) => listSearchPatterns(word).some((p) => like(text, p)) === listSearchMatches(text, word),
      ),
      { numRuns: 2000 },
    );
  });
});

describe("a counted list's totals (decision 0103)", () => {
  const counted = defineResource({
    name: 'countedThings',
    feature: 'things',
    subfeature: 'things',
    view: 'thing',
    title: 'Things',
    table: 'things',
    key: 'Id',
    permissions: { read: 'backoffice', write: 'backoffice' },
    fields: {
      Id: { type: 'number', label: 'Id' },
      Status: { type: 'text', label: 'Status' },
      Kind: { type: 'number', label: 'Kind' },
      Repeats: { type: 'text', label: 'Repeats' },
      Name: { type: 'text', label: 'Name' },
    },
    columns: [{ field: 'Name', title: 'Name' }],
    sortable: ['Id', 'Name'],
    filterable: ['Status', 'Kind', 'Repeats', 'Name'],
    counted: true,
    filters: [
      { Id: 1, Name: 'Open', Criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'open' }] },
      { Id: 2, Name: 'Waiting', Criteria: [{ PropertyName: 'Kind', Operator: 'in', Value: [1, 2] }] },
      { Id: 3, Name: 'Repeating', Criteria: [{ PropertyName: 'Repeats', Operator: 'ne', Value: 'none' }] },
      {
        Id: 4,
        Name: 'Open and named',
        Criteria: [
          { PropertyName: 'Status', Operator: 'eq', Value: 'open' },
          { PropertyName: 'Name', Operator: 'eq', Value: 'x' },
        ],
      },
    ],
    form: [],
    defaultSort: { field: 'Name', direction: 'asc' },
  });

  it('counts by each field a named filter tests alone, only on a resource that asks for it', () => {
    expect(listCountFacets(counted)).toEqual(['Kind', 'Repeats', 'Status']);
    expect(listCountFacets(contactsResource)).toBeNull();
  });

  it('answers no filter, eq, in and ne from the counts, and anything else by counting rows', () => {
    expect(listCountRead(counted, [])).toEqual({ facet: '', values: [''], minus: false });
    expect(listCountRead(counted, [{ PropertyName: 'Status', Operator: 'eq', Value: 'open' }])).toEqual({
      facet: 'Status',
      values: ['open'],
      minus: false,
    });
    expect(listCountRead(counted, [{ PropertyName: 'Kind', Operator: 'in', Value: [1, 2] }])).toEqual({
      facet: 'Kind',
      values: ['1', '2'],
      minus: false,
    });
    expect(listCountRead(counted, [{ PropertyName: 'Repeats', Operator: 'ne', Value: 'none' }])).toEqual({
      facet: 'Repeats',
      values: ['none'],
      minus: true,
    });
    expect(listCountRead(counted, [{ PropertyName: 'Name', Operator: 'eq', Value: 'x' }])).toBeNull();
    expect(listCountRead(counted, [{ PropertyName: 'Status', Operator: 'gt', Value: 'a' }])).toBeNull();
    expect(listCountRead(counted, [{ PropertyName: 'Status', Operator: 'eq', Value: null }])).toBeNull();
    expect(
      listCountRead(counted, [
        { PropertyName: 'Status', Operator: 'eq', Value: 'open' },
        { PropertyName: 'Kind', Operator: 'eq', Value: 1 },
      ]),
    ).toBeNull();
    expect(listCountRead(contactsResource, [])).toBeNull();
  });

  it('keys a value as the column text the database counts it by', () => {
    expect([true, 4, 'open', null, undefined].map(listCountValue)).toEqual(['true', '4', 'open', '', '']);
    expect(listCountValue({})).toBeNull();
  });
});
