import { describe, expect, it } from 'vitest';
import {
  contactEntriesResource,
  contactLinksResource,
  contactsResource,
} from '../contacts/contacts.resource.ts';
import { usersResource } from '../users/users.resource.ts';
import {
  indexFieldsFor,
  listAccessPaths,
  listIndexes,
  listSearchExpression,
  listSearchIndex,
  listSearchWords,
  parentFieldsOf,
} from './list-indexes.ts';

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
      `lower(coalesce("name"::text, '') || ' ' || coalesce("location"::text, ''))`,
    );
    expect(listSearchExpression(['"value"'])).toBe(`lower(coalesce("value"::text, ''))`);
  });

  it('splits what is typed into at most 8 lower-cased words', () => {
    expect(listSearchWords('  Houston,  WORKSHOP;spring ')).toEqual(['houston', 'workshop', 'spring']);
    expect(listSearchWords('')).toEqual([]);
    expect(listSearchWords('a b c d e f g h i j')).toHaveLength(8);
  });
});
