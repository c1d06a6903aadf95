import { describe, expect, it } from 'vitest';
import { audienceOfArea, foldSearchText, searchTerms, searchTextOf } from './search.rules.ts';

describe('foldSearchText', () => {
  it.each([
    ['Zoë Ångström', 'zoe angstrom'],
    ['  Łukasz   Straße ', 'lukasz strasse'],
    ['Ærøskøbing', 'aeroskobing'],
    ['CAFÉ', 'cafe'],
    ['', ''],
  ])('%s -> %s', (input, out) => {
    expect(foldSearchText(input)).toBe(out);
    expect(foldSearchText(foldSearchText(input))).toBe(out);
  });
  it('answers empty for null', () => expect(foldSearchText(null)).toBe(''));
});

describe('searchTerms and searchTextOf', () => {
  it('splits and folds the query', () => {
    expect(searchTerms(' José,  García ')).toEqual(['jose', 'garcia']);
    expect(searchTerms('a@b.org')).toEqual(['a@b.org']);
  });
  it('skips empty parts', () => expect(searchTextOf(['Renée', null, '', 'Lyon'])).toBe('renee lyon'));
  it('maps areas to audiences', () => {
    expect(audienceOfArea('backoffice')).toBe('staff');
    expect(audienceOfArea('mic')).toBe('member');
  });
});
