import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasWebsiteScheme, normalizeWebsite } from './website.rules.ts';

describe('website input (spec 000 §5: "http prefix (or the configured prefix) when no http, https, ftp or ftps scheme is present")', () => {
  it.each([
    ['example.org', undefined, 'http://example.org'],
    ['  www.example.org ', undefined, 'http://www.example.org'],
    ['https://example.org', undefined, 'https://example.org'],
    ['HTTP://EXAMPLE.ORG', undefined, 'HTTP://EXAMPLE.ORG'],
    ['ftp://files.example.org', undefined, 'ftp://files.example.org'],
    ['ftps://files.example.org', undefined, 'ftps://files.example.org'],
    ['//example.org', undefined, 'http://example.org'],
    ['example.org', 'https://', 'https://example.org'],
    ['example.org', '  ', 'http://example.org'],
    ['', 'https://', ''],
    [null, undefined, ''],
  ])('normalizeWebsite(%j, %j) = %j', (value, prefix, expected) => {
    expect(normalizeWebsite(value, prefix)).toBe(expected);
  });

  it('recognises the four schemes', () => {
    expect(hasWebsiteScheme('https://x.org')).toBe(true);
    expect(hasWebsiteScheme('mailto:x@y.org')).toBe(false);
  });

  it('property: normalizing twice changes nothing', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('http://', 'https://'), (value, prefix) => {
        const once = normalizeWebsite(value, prefix);
        expect(normalizeWebsite(once, prefix)).toBe(once);
      }),
    );
  });
});
