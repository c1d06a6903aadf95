/**
 * Money in Guildhall is an integer count of minor units (cents). It is never held in a binary float while it is
 * being computed. Decimal inputs (a typed price, a percentage, a numeric column from the database) are read
 * exactly, digit by digit, and every result that would carry a fraction of a cent goes through one function,
 * `roundDiv`, which rounds half away from zero. See docs/decisions/0010-money-and-rounding.md.
 */

/** An amount of money in integer minor units (cents). */
export type Cents = number;

/** A decimal as typed or as stored: `12.5`, `'12.50'`, `'-0.125'`, `'1e-3'`. */
export type DecimalInput = number | string;

/** An exact decimal: `units / 10^scale`. */
export interface ExactDecimal {
  readonly units: bigint;
  readonly scale: number;
}

const DECIMAL_PATTERN = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

/**
 * Reads a decimal exactly. A number is read through its shortest round-trip text (`0.1` is one tenth, `1.005`
 * is one and five thousandths), which is the value a person typed. Returns null for anything that is not a
 * finite decimal.
 */
export function parseDecimal(value: DecimalInput): ExactDecimal | null {
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = DECIMAL_PATTERN.exec(text);
  if (!match) return null;
  const [, sign = '', whole = '', fraction = '', exponentText] = match;
  if (whole === '' && fraction === '') return null;
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 400) return null;
  let units = BigInt(`${whole}${fraction}` || '0');
  let scale = fraction.length - exponent;
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  if (sign === '-') units = -units;
  return { units, scale };
}

/**
 * The one rounding point: `numerator / denominator` rounded to an integer, half away from zero
 * (2.5 -> 3, -2.5 -> -3, 2.4999 -> 2).
 */
export function roundDiv(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('Division by zero');
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const quotient = (n * 2n + d) / (d * 2n);
  return negative ? -quotient : quotient;
}

function toSafeNumber(value: bigint): number {
  const result = Number(value);
  if (!Number.isSafeInteger(result)) throw new RangeError('Amount out of range');
  return result;
}

/** Throws unless the value is a safe integer count of cents. */
export function assertCents(value: number): Cents {
  if (!Number.isSafeInteger(value)) throw new RangeError(`Not an amount in cents: ${value}`);
  return value;
}

/**
 * Converts a decimal amount in major units (dollars) to cents, rounding half away from zero. Null when the value
 * is not a decimal or is beyond a safe count of cents.
 */
export function tryToCents(value: DecimalInput | null | undefined): Cents | null {
  if (value === null || value === undefined) return null;
  const decimal = parseDecimal(value);
  if (!decimal) return null;
  const cents = Number(roundDiv(decimal.units * 100n, 10n ** BigInt(decimal.scale)));
  return Number.isSafeInteger(cents) ? cents : null;
}

/** Like `tryToCents` but throws on a value that is not a decimal: use it at trusted edges (database columns). */
export function toCents(value: DecimalInput): Cents {
  const cents = tryToCents(value);
  if (cents === null) throw new RangeError(`Not a decimal amount: ${String(value)}`);
  return cents;
}

/** Cents to a number of major units for JSON answers (`1250` -> `12.5`). Exact for every safe cent count. */
export function fromCents(cents: Cents): number {
  return assertCents(cents) / 100;
}

/** Cents to a fixed two-decimal text for SQL numeric columns and CSV (`-5` -> `'-0.05'`). */
export function centsToDecimalString(cents: Cents): string {
  assertCents(cents);
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  const whole = Math.floor(absolute / 100);
  const fraction = String(absolute % 100).padStart(2, '0');
  return `${sign}${whole}.${fraction}`;
}

/**
 * The currency an association's money is in: its Currency setting when that is a three-letter ISO 4217 code
 * (`EUR`), else USD.
 * Every amount shown to people (screens, mail, documents) is formatted by `formatMoney` in this currency.
 */
export function currencyCode(setting: unknown): string {
  const code = typeof setting === 'string' ? setting.trim().toUpperCase() : '';
  return /^[A-Z]{3}$/.test(code) ? code : 'USD';
}

/** One formatter per locale and currency: making an `Intl.NumberFormat` costs far more than using one. */
const moneyFormats = new Map<string, Intl.NumberFormat>();

/** Formats cents for people: `formatMoney(123450)` -> `'$1,234.50'`. */
export function formatMoney(cents: Cents, options: { currency?: string; locale?: string } = {}): string {
  const { currency = 'USD', locale = 'en-US' } = options;
  const key = `${locale}|${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    if (moneyFormats.size < 64) moneyFormats.set(key, format);
  }
  return format.format(fromCents(cents));
}

/** The sign an amount input shows before its figure: `$` for USD, `€` for EUR, `CHF` for Swiss francs. */
export function currencySymbol(currency = 'USD', locale = 'en-US'): string {
  const parts = new Intl.NumberFormat(locale, { style: 'currency', currency }).formatToParts(0);
  return parts.find((p) => p.type === 'currency')?.value ?? currency;
}

/** `cents * factor`, rounded once (half away from zero). The factor is read exactly (`'1.5'`, `0.1`). */
export function multiplyCents(cents: Cents, factor: DecimalInput): Cents {
  assertCents(cents);
  const decimal = parseDecimal(factor);
  if (!decimal) throw new RangeError(`Not a decimal factor: ${String(factor)}`);
  return toSafeNumber(roundDiv(BigInt(cents) * decimal.units, 10n ** BigInt(decimal.scale)));
}

/** `percent` percent of `cents`, rounded once: `percentOf(1999, 7.25)` -> `145` (144.9275). */
export function percentOf(cents: Cents, percent: DecimalInput): Cents {
  assertCents(cents);
  const decimal = parseDecimal(percent);
  if (!decimal) throw new RangeError(`Not a percentage: ${String(percent)}`);
  return toSafeNumber(roundDiv(BigInt(cents) * decimal.units, 100n * 10n ** BigInt(decimal.scale)));
}

/** `numerator / denominator` of a cent amount, rounded once: a share of a total. */
export function ratioOf(cents: Cents, numerator: number, denominator: number): Cents {
  assertCents(cents);
  return toSafeNumber(roundDiv(BigInt(cents) * BigInt(numerator), BigInt(denominator)));
}

/** Rounds to whole currency units (the RoundToNearestOnes setting): `12350` -> `12400`, `12349` -> `12300`. */
export function roundToNearestOnes(cents: Cents): Cents {
  return toSafeNumber(roundDiv(BigInt(assertCents(cents)), 100n) * 100n);
}

export function sumCents(values: readonly Cents[]): Cents {
  let total = 0;
  for (const value of values) total += assertCents(value);
  return assertCents(total);
}

/**
 * Splits `total` into `parts` amounts that differ by at most one cent and add up to `total` exactly. The
 * leftover cents go to the first parts: `allocateEvenly(1000, 3)` -> `[334, 333, 333]`.
 */
export function allocateEvenly(total: Cents, parts: number): Cents[] {
  assertCents(total);
  if (!Number.isSafeInteger(parts) || parts < 1) throw new RangeError(`Cannot split into ${parts} parts`);
  const sign = total < 0 ? -1 : 1;
  const absolute = Math.abs(total);
  const base = Math.floor(absolute / parts);
  const remainder = absolute - base * parts;
  return Array.from({ length: parts }, (_, index) => sign * (base + (index < remainder ? 1 : 0)));
}

/**
 * Splits `total` in proportion to non-negative `weights` (largest remainder method): the shares add up to
 * `total` exactly. Zero weights get nothing; all-zero weights split evenly.
 */
export function allocateByWeights(total: Cents, weights: readonly number[]): Cents[] {
  assertCents(total);
  if (weights.length === 0) return [];
  for (const weight of weights) {
    if (!Number.isSafeInteger(weight) || weight < 0) throw new RangeError(`Bad weight: ${weight}`);
  }
  const weightSum = weights.reduce((sum, weight) => sum + weight, 0);
  if (weightSum === 0) return allocateEvenly(total, weights.length);
  const sign = total < 0 ? -1n : 1n;
  const absolute = BigInt(Math.abs(total));
  const sum = BigInt(weightSum);
  const shares = weights.map((weight) => (absolute * BigInt(weight)) / sum);
  const remainders = weights.map((weight, index) => ({
    index,
    remainder: (absolute * BigInt(weight)) % sum,
  }));
  let leftover = absolute - shares.reduce((a, b) => a + b, 0n);
  remainders.sort((a, b) =>
    a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1,
  );
  for (const { index } of remainders) {
    if (leftover === 0n) break;
    shares[index] = (shares[index] ?? 0n) + 1n;
    leftover -= 1n;
  }
  return shares.map((share) => toSafeNumber(share * sign));
}
