/** A person's name split into its parts (GET /api/Signup/ParseName/{name} answers FirstName and LastName). */
export interface ParsedName {
  Prefix: string;
  FirstName: string;
  MiddleName: string;
  LastName: string;
  Suffix: string;
  Nickname: string;
  /** "Full name must parse into both a first and a last name; otherwise the name field is invalid." */
  Valid: boolean;
}

/** Titles written before a name. Compared without dots and case. */
export const NAME_PREFIXES: ReadonlySet<string> = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'dr',
  'prof',
  'professor',
  'rev',
  'reverend',
  'fr',
  'father',
  'pastor',
  'rabbi',
  'hon',
  'honorable',
  'judge',
  'sir',
  'dame',
  'capt',
  'captain',
  'col',
  'gen',
  'lt',
  'maj',
  'sgt',
  'cmdr',
  'adm',
]);

/** Generational and professional suffixes written after a name. Compared without dots and case. */
export const NAME_SUFFIXES: ReadonlySet<string> = new Set([
  'jr',
  'sr',
  'ii',
  'iii',
  'iv',
  'v',
  'vi',
  'esq',
  'md',
  'phd',
  'edd',
  'dds',
  'dmd',
  'dvm',
  'jd',
  'rn',
  'cpa',
  'cfa',
  'cfp',
  'mba',
  'pmp',
  'cae',
  'cmp',
  'ret',
]);

/** Lower-case words that begin a family name: "van Beethoven", "de la Cruz", "bin Laden". */
export const LAST_NAME_PARTICLES: ReadonlySet<string> = new Set([
  'van',
  'von',
  'der',
  'den',
  'de',
  'del',
  'della',
  'dela',
  'di',
  'da',
  'das',
  'dos',
  'du',
  'la',
  'le',
  'st',
  'ter',
  'ten',
  'bin',
  'ibn',
  'al',
  'el',
  'mac',
]);

function bare(token: string): string {
  return token.replace(/[.,]/g, '').toLowerCase();
}

const isPrefix = (token: string) => NAME_PREFIXES.has(bare(token));
const isSuffix = (token: string) => NAME_SUFFIXES.has(bare(token));
/** Roman numerals that are also initials: only taken as suffixes after at least two names. */
const WEAK_SUFFIXES: ReadonlySet<string> = new Set(['v', 'vi']);
const isTrailingSuffix = (token: string, count: number) =>
  isSuffix(token) && (count > 2 || !WEAK_SUFFIXES.has(bare(token)));
const isParticle = (token: string) => LAST_NAME_PARTICLES.has(bare(token));

const EMPTY: ParsedName = {
  Prefix: '',
  FirstName: '',
  MiddleName: '',
  LastName: '',
  Suffix: '',
  Nickname: '',
  Valid: false,
};

function words(text: string): string[] {
  return text.split(' ').filter((word) => word !== '');
}

/** Splits a given-names part ("Dr. John Robert") into prefix, first and middle names. */
function splitGiven(tokens: string[]): { prefix: string[]; first: string; middle: string[] } {
  const prefix: string[] = [];
  const rest = [...tokens];
  while (rest.length > 1 && rest[0] !== undefined && isPrefix(rest[0])) prefix.push(rest.shift() as string);
  return { prefix, first: rest[0] ?? '', middle: rest.slice(1) };
}

/**
 * Parses a full name into first and last name (spec 001 section 5), understanding middle names, titles before the
 * name (Dr., Mrs.), suffixes after it (Jr., III, PhD, CAE), family-name particles (van, de la), a nickname in
 * double quotes or brackets, and the "Last, First" order. A name without both a first and a last name is invalid.
 */
export function parseFullName(input: string | null | undefined): ParsedName {
  let text = (input ?? '').replace(/\s+/g, ' ').trim();
  let nickname = '';
  text = text
    .replace(/\s*(?:"([^"]*)"|“([^”]*)”|\(([^)]*)\))\s*/g, (_, quoted, curly, bracketed) => {
      nickname ||= String(quoted ?? curly ?? bracketed ?? '').trim();
      return ' ';
    })
    .trim();
  if (text === '') return { ...EMPTY, Nickname: nickname };

  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const suffixes: string[] = [];
  let given: string[];
  let family: string[];

  const afterFirst = parts.slice(1);
  const reversed = afterFirst.length > 0 && !afterFirst.every((part) => words(part).every(isSuffix));
  if (reversed) {
    // "Last, First Middle[, Suffix]"
    const lastTokens = words(parts[0] ?? '');
    while (lastTokens.length > 1 && isSuffix(lastTokens[lastTokens.length - 1] ?? '')) {
      suffixes.unshift(lastTokens.pop() as string);
    }
    const givenTokens = words(parts[1] ?? '');
    while (givenTokens.length > 1 && isSuffix(givenTokens[givenTokens.length - 1] ?? '')) {
      suffixes.unshift(givenTokens.pop() as string);
    }
    suffixes.push(...parts.slice(2));
    family = lastTokens;
    given = givenTokens;
  } else {
    // "First Middle Last[, Suffix]"
    suffixes.push(...afterFirst);
    const tokens = words(parts[0] ?? '');
    const trailing: string[] = [];
    while (tokens.length > 1 && isTrailingSuffix(tokens[tokens.length - 1] ?? '', tokens.length)) {
      trailing.unshift(tokens.pop() as string);
    }
    suffixes.unshift(...trailing);
    const leading: string[] = [];
    while (tokens.length > 1 && isPrefix(tokens[0] ?? '')) leading.push(tokens.shift() as string);
    if (tokens.length === 1 && leading.length > 0) {
      // "Dr. Smith": a title and a family name, no first name.
      return { ...EMPTY, Prefix: leading.join(' '), LastName: tokens[0] ?? '', Suffix: suffixes.join(', ') };
    }
    let start = tokens.length - 1;
    while (start > 1 && isParticle(tokens[start - 1] ?? '')) start--;
    family = tokens.length > 1 ? tokens.slice(start) : [];
    given = [...leading, ...tokens.slice(0, tokens.length > 1 ? start : 1)];
  }

  const { prefix, first, middle } = splitGiven(given);
  const result: ParsedName = {
    Prefix: prefix.join(' '),
    FirstName: first,
    MiddleName: middle.join(' '),
    LastName: family.join(' '),
    Suffix: suffixes.join(', '),
    Nickname: nickname,
    Valid: false,
  };
  result.Valid = result.FirstName !== '' && result.LastName !== '';
  return result;
}

/** The message shown on a name field that does not parse into a first and a last name. */
export const FULL_NAME_INVALID_MESSAGE = 'Enter both a first and a last name.';
