import { type Cents, tryToCents } from './money.ts';

/**
 * "Max-length inputs truncate typed text to the limit." (spec 000 section 5). Counted in characters as people
 * see them (code points), so an emoji is never cut in half.
 */
export function truncateToMaxLength(text: string, maxLength: number | null | undefined): string {
  if (maxLength === null || maxLength === undefined || maxLength < 0) return text;
  const characters = Array.from(text);
  return characters.length <= maxLength ? text : characters.slice(0, Math.trunc(maxLength)).join('');
}

const TRUE_WORDS = new Set(['yes', 'true', '1']);
const FALSE_WORDS = new Set(['no', 'false', '0']);

/**
 * "Boolean inputs accept yes/true/1 and no/false/0." (spec 000 section 5), in any case and with spaces around.
 * Anything else is invalid: null.
 */
export function parseBooleanInput(value: string | number | boolean | null | undefined): boolean | null {
  if (typeof value === 'boolean') return value;
  if (value === null || value === undefined) return null;
  const word = String(value).trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  return null;
}

/**
 * "Currency input strips commas." (spec 000 section 5), and a leading currency sign (before or after a minus).
 * Returns cents, or null when what is left is not a number. Empty text is null as well.
 */
export function parseCurrencyInput(text: string | number | null | undefined): Cents | null {
  if (text === null || text === undefined) return null;
  if (typeof text === 'number') return tryToCents(text);
  let cleaned = text.replace(/,/g, '').replace(/\s+/g, '');
  const negative = /^-[$€£¥]|^[$€£¥]-/.test(cleaned) || cleaned.startsWith('-');
  cleaned = cleaned.replace(/^-?[$€£¥]?-?/, '');
  if (!/^(\d+\.?\d*|\.\d+)$/.test(cleaned)) return null;
  const cents = tryToCents(cleaned);
  return cents === null ? null : negative && cents !== 0 ? -cents : cents;
}

export interface NumberLimits {
  min?: number | null;
  max?: number | null;
}

/**
 * "Number inputs: below the minimum marks invalid; above the maximum clamps to the maximum." (spec 000
 * section 5)
 */
export function applyNumberLimits(value: number, limits: NumberLimits): { value: number; valid: boolean } {
  if (!Number.isFinite(value)) return { value, valid: false };
  if (limits.max !== null && limits.max !== undefined && value > limits.max)
    return { value: limits.max, valid: true };
  if (limits.min !== null && limits.min !== undefined && value < limits.min) return { value, valid: false };
  return { value, valid: true };
}

/** "Select-with-valid-values sets to empty any value not in the allowed list." (spec 000 section 5) */
export function keepAllowedValue<T extends string | number>(
  value: T | null | undefined,
  allowed: readonly T[],
): T | '' {
  return value !== null && value !== undefined && allowed.includes(value) ? value : '';
}

/** The multi-select form of the same rule: values not allowed are dropped. */
export function keepAllowedValues<T extends string | number>(
  values: readonly T[],
  allowed: readonly T[],
): T[] {
  return values.filter((value) => allowed.includes(value));
}

/** "Required multi-select and select controls need at least one item." (spec 000 section 5) */
export function hasRequiredSelection(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '';
  return true;
}

/**
 * "Invalid JSON input yields an empty object." (spec 000 section 5). Text that parses to something other than
 * an object (an array, a number, null) also yields an empty object.
 */
export function parseJsonObject(text: string | null | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** Items not marked deleted (either spelling of the flag). */
export function countLiveItems(
  items: readonly { isDeleted?: boolean | null; IsDeleted?: boolean | null }[],
): number {
  return items.filter((item) => !item.isDeleted && !item.IsDeleted).length;
}

/**
 * "Items cannot be added once the count of non-deleted items reaches the allowed maximum." (spec 000 section 5)
 * No maximum means no limit.
 */
export function canAddItem(
  items: readonly { isDeleted?: boolean | null; IsDeleted?: boolean | null }[],
  maximum: number | null | undefined,
): boolean {
  if (maximum === null || maximum === undefined) return true;
  return countLiveItems(items) < maximum;
}

/**
 * "Confirmation (can require typing a given phrase before OK is enabled)". The phrase must be typed exactly,
 * ignoring spaces around it; no phrase means OK is always enabled.
 */
export function isConfirmPhraseTyped(typed: string, phrase: string | null | undefined): boolean {
  if (!phrase) return true;
  return typed.trim() === phrase.trim();
}

/** "Saving changed fields asks: ..." (spec 000 section 5) */
export const SAVE_CHANGED_FIELDS_QUESTION =
  'Are you sure you want to save the changed fields highlighted in orange?';

/** "Sticky-field change events fire after a 500 ms delay." (spec 000 section 5 and 9) */
export const STICKY_FIELD_DELAY_MS = 500;
