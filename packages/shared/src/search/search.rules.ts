/**
 * Global search rules shared by the index writers and the query: text is folded (lower case, accents and
 * ligatures removed) the same way on both sides, since the embedded database has no unaccent.
 */

const SPECIAL: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};
const SPECIAL_RE = /[ßæœøłđðþı]/g;

/** "Zoë Ångström-Łukasz" -> "zoe angstrom-lukasz". Pure and idempotent. */
export function foldSearchText(text: string | null | undefined): string {
  return (text ?? '')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(SPECIAL_RE, (c) => SPECIAL[c] ?? c)
    .replace(/\s+/g, ' ')
    .trim();
}

/** The folded words of a query, at most 8, each at most 60 characters (the rest is ignored). */
export function searchTerms(query: string): string[] {
  return foldSearchText(query)
    .split(/[\s,;]+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}@]+|[^\p{L}\p{N}]+$/gu, ''))
    .filter((w) => w.length > 0)
    .slice(0, 8)
    .map((w) => w.slice(0, 60));
}

/** Joins the parts of a record that search matches into its folded search text. */
export function searchTextOf(parts: readonly (string | null | undefined)[]): string {
  return foldSearchText(parts.filter((p) => p != null && p !== '').join(' '));
}

/** The two areas of spec 000 section 6: `backoffice` searches what staff see; any other area what members see. */
export type SearchAudience = 'staff' | 'member';
export function audienceOfArea(area: string): SearchAudience {
  return area.toLowerCase() === 'backoffice' ? 'staff' : 'member';
}

/** Hits answered per search. */
export const SEARCH_LIMIT = 20;
/** Shortest query that searches (a shorter one answers no hits). */
export const SEARCH_MIN_LENGTH = 2;
