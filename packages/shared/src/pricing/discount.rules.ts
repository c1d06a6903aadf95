import { calendarDay, DEFAULT_TIMEZONE } from '../platform/fields/date-input.rules.ts';
import { type Cents, type DecimalInput, percentOf } from '../platform/fields/money.ts';

/** The three ways the discount editor can set a price (spec 000 section 5). */
export const DISCOUNT_MODES = ['percentage', 'amount', 'fixedPrice'] as const;
export type DiscountMode = (typeof DISCOUNT_MODES)[number];

/** The discount editor's state: at most one of the three is set. Amounts in cents. */
export interface DiscountEditorState {
  DiscountPercent: DecimalInput | null;
  DiscountAmount: Cents | null;
  FixedPrice: Cents | null;
}

export const EMPTY_DISCOUNT: DiscountEditorState = {
  DiscountPercent: null,
  DiscountAmount: null,
  FixedPrice: null,
};

const MODE_FIELD = {
  percentage: 'DiscountPercent',
  amount: 'DiscountAmount',
  fixedPrice: 'FixedPrice',
} as const satisfies Record<DiscountMode, keyof DiscountEditorState>;

/**
 * "Discount editor: exactly one of percentage, amount or fixed price is active; choosing one clears the others."
 * Returns the new state with only `mode` set.
 */
export function chooseDiscount(mode: DiscountMode, value: DecimalInput | null): DiscountEditorState {
  const next: DiscountEditorState = { ...EMPTY_DISCOUNT };
  if (value === null || value === '') return next;
  if (mode === 'percentage') next.DiscountPercent = value;
  else next[MODE_FIELD[mode]] = Number(value);
  return next;
}

function isSet(value: DecimalInput | null | undefined): boolean {
  return value !== null && value !== undefined && value !== '';
}

/** The active mode, or null when no discount is set. */
export function activeDiscountMode(state: DiscountEditorState): DiscountMode | null {
  return DISCOUNT_MODES.find((mode) => isSet(state[MODE_FIELD[mode]])) ?? null;
}

/** Why the editor's value cannot be used, or null when it can. */
export function discountEditorError(state: DiscountEditorState): string | null {
  const active = DISCOUNT_MODES.filter((mode) => isSet(state[MODE_FIELD[mode]]));
  if (active.length > 1) return 'Choose one of percentage, amount or fixed price.';
  const mode = active[0];
  if (mode === undefined) return null;
  const value = Number(state[MODE_FIELD[mode]]);
  if (!Number.isFinite(value) || value < 0) return 'A discount cannot be negative.';
  if (mode === 'percentage' && value > 100) return 'A percentage discount is at most 100.';
  return null;
}

/** The discount, in cents, that the editor's state takes off `priceCents`. Never more than the price. */
export function discountFromEditor(priceCents: Cents, state: DiscountEditorState): Cents {
  const price = Math.max(0, priceCents);
  switch (activeDiscountMode(state)) {
    case 'percentage':
      return clamp(percentOf(price, state.DiscountPercent ?? 0), 0, price);
    case 'amount':
      return clamp(state.DiscountAmount ?? 0, 0, price);
    case 'fixedPrice':
      return clamp(price - (state.FixedPrice ?? 0), 0, price);
    default:
      return 0;
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** A dated discount (spec 000 section 3: StartDate, EndDate, DiscountAmount, DiscountPercent). */
export interface DatedDiscount {
  StartDate?: string | Date | null;
  EndDate?: string | Date | null;
  /** Cents. */
  DiscountAmount?: Cents | null;
  DiscountPercent?: DecimalInput | null;
}

/**
 * "A discount applies only between its StartDate and EndDate": both days included, a missing bound is open.
 * `today` is the tenant's calendar day (`yyyy-MM-dd`) or an instant.
 */
export function isDiscountActive(
  discount: DatedDiscount,
  today: string | Date,
  timeZone: string = DEFAULT_TIMEZONE,
): boolean {
  const day = calendarDay(today, timeZone);
  if (discount.StartDate && calendarDay(discount.StartDate, timeZone) > day) return false;
  if (discount.EndDate && calendarDay(discount.EndDate, timeZone) < day) return false;
  return true;
}
