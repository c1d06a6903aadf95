import { describe, expect, it } from 'vitest';
import { chunks, emailHandle, generateContact, random, referenceRows } from './bulk.ts';

describe('bulk seed rows', () => {
  it('the fast rows equal the rows made through the shared rules, contact by contact', () => {
    const tenant = '11111111-2222-4333-8444-555555555555';
    const count = 12_000;
    const block = 5_000;
    const rows = chunks(tenant, 42, 1001, 5001, count, block, 700);
    const fast = { contacts: '', entries: '', docs: '' };
    const facets = new Map<string, number>();
    for (let k = 0; k < rows.count; k++) {
      const c = rows.make(k);
      fast.contacts += c.contacts;
      fast.entries += c.entries;
      fast.docs += c.docs;
      for (const [f, n] of c.facets) facets.set(f, (facets.get(f) ?? 0) + n);
    }
    const ref = { contacts: '', entries: '', docs: '' };
    const refFacets = new Map<string, number>();
    for (let startOfBlock = 0; startOfBlock < count; startOfBlock += block) {
      const rand = random(42 + startOfBlock);
      for (let i = startOfBlock; i < Math.min(count, startOfBlock + block); i++) {
        const r = referenceRows(tenant, generateContact(rand, 1001 + i, i + 1), 5001 + 2 * i);
        ref.contacts += r.contacts;
        ref.entries += r.entries;
        ref.docs += r.docs;
        for (const f of r.facets.keys()) refFacets.set(f, (refFacets.get(f) ?? 0) + 1);
      }
    }
    expect(fast.contacts).toBe(ref.contacts);
    expect(fast.entries).toBe(ref.entries);
    expect(fast.docs).toBe(ref.docs);
    expect(Object.fromEntries(facets)).toEqual(Object.fromEntries(refFacets));
    // Organisations, listed contacts (member documents) and accented names all occur in the sample.
    expect(fast.docs).toContain('\tmember\tDirectoryContact\t');
    expect(fast.contacts).toContain('\torganization\t');
    expect(fast.contacts).toMatch(/[éëåłøüñçö]/i);
  });
});

describe('email handles', () => {
  it('spell every letter of a name in ASCII, including those that do not decompose', () => {
    expect(emailHandle('łukasz.søren')).toBe('lukasz.soren');
    expect(emailHandle('zoë.renée')).toBe('zoe.renee');
    expect(emailHandle('åsa.björn')).toBe('asa.bjorn');
    expect(emailHandle('josé.o’brien')).toBe('jose.obrien');
  });
});
