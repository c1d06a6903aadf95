/** "An open start is stored as -2147483647 and an open end as 2147483647." (spec 001 section 3) */
export const DECIMAL_RANGE_OPEN_START = -2_147_483_647;
export const DECIMAL_RANGE_OPEN_END = 2_147_483_647;

/** Decimal range as stored (spec 001 section 3: StartValue and EndValue). */
export interface DecimalRange {
  StartValue: number;
  EndValue: number;
}

/** The same range as a form holds it: null for an open bound. */
export interface OpenRange {
  start: number | null;
  end: number | null;
}

export function toDecimalRange(range: OpenRange): DecimalRange {
  return {
    StartValue: range.start ?? DECIMAL_RANGE_OPEN_START,
    EndValue: range.end ?? DECIMAL_RANGE_OPEN_END,
  };
}

export function fromDecimalRange(range: DecimalRange): OpenRange {
  return {
    start: range.StartValue <= DECIMAL_RANGE_OPEN_START ? null : range.StartValue,
    end: range.EndValue >= DECIMAL_RANGE_OPEN_END ? null : range.EndValue,
  };
}

/** True when the value lies in the range, bounds included. */
export function isInDecimalRange(value: number, range: DecimalRange): boolean {
  return value >= range.StartValue && value <= range.EndValue;
}

/**
 * A decimal range as a client sends it, made into the stored shape: a missing, empty (null or "") bound is open and
 * stored as the specification's constant; a bound may come as text ("12.5"). A bound past the open constants, a
 * bound that is not a number, and a start after the end are refused with the reason.
 */
export function parseDecimalRange(raw: unknown): { value: DecimalRange } | { error: 'shape' | 'order' } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { error: 'shape' };
  const r = raw as { StartValue?: unknown; EndValue?: unknown };
  const bound = (v: unknown, open: number): number | null => {
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return open;
    const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : Number.NaN;
    if (!Number.isFinite(n) || n < DECIMAL_RANGE_OPEN_START || n > DECIMAL_RANGE_OPEN_END) return null;
    return n;
  };
  const start = bound(r.StartValue, DECIMAL_RANGE_OPEN_START);
  const end = bound(r.EndValue, DECIMAL_RANGE_OPEN_END);
  if (start === null || end === null) return { error: 'shape' };
  const range = { StartValue: start, EndValue: end };
  return isValidDecimalRange(range) ? { value: range } : { error: 'order' };
}

/** How a range reads: "1 – 5", "at least 1", "at most 5", or "any" when both ends are open. */
export function describeDecimalRange(range: DecimalRange): string {
  const { start, end } = fromDecimalRange(range);
  if (start === null && end === null) return 'any';
  if (start === null) return `at most ${end}`;
  if (end === null) return `at least ${start}`;
  return `${start} – ${end}`;
}

/** A range whose start is after its end is invalid. */
export function isValidDecimalRange(range: DecimalRange): boolean {
  return range.StartValue <= range.EndValue;
}

/** The largest flag a bitmask model carries: 2^52, so every mask stays a safe integer. */
export const MAX_FLAG_BIT = 52;

/** True when the key is a single flag: a power of two from 1 to 2^52. */
export function isFlagKey(key: number): boolean {
  if (!Number.isSafeInteger(key) || key < 1) return false;
  let value = key;
  while (value % 2 === 0) value /= 2;
  return value === 1;
}

/**
 * "A flags-style model is an integer bitmask; an array-style model is a list of keys." (spec 001 section 3)
 * The flags set in a mask, smallest first: `13` -> `[1, 4, 8]`. Bits above 2^52 and negative masks are ignored.
 */
export function bitmaskToKeys(mask: number): number[] {
  if (!Number.isSafeInteger(mask) || mask <= 0) return [];
  const keys: number[] = [];
  let rest = mask;
  let flag = 1;
  while (rest > 0) {
    if (rest % 2 === 1) keys.push(flag);
    rest = Math.floor(rest / 2);
    flag *= 2;
  }
  return keys;
}

/** The mask of a list of flag keys; repeated keys count once, keys that are not single flags are ignored. */
export function keysToBitmask(keys: readonly number[]): number {
  return [...new Set(keys.filter(isFlagKey))].reduce((mask, key) => mask + key, 0);
}

/** Toggles one flag in a mask. */
export function toggleFlag(mask: number, key: number): number {
  if (!isFlagKey(key)) return mask;
  const keys = new Set(bitmaskToKeys(mask));
  if (keys.has(key)) keys.delete(key);
  else keys.add(key);
  return keysToBitmask([...keys]);
}
