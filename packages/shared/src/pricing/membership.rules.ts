import type { Cents, DecimalInput } from '../platform/fields/money.ts';
import {
  type BillFrequencyOption,
  billFrequencyKind,
  changeBillFrequency,
  DEFAULT_TERM_MONTHS,
  type FeeItemInput,
  termBillSchedule,
  termTotal,
} from './bill-frequency.rules.ts';
import { evaluateUnitFormulas } from './unit-formula.rules.ts';

/** "Name (built as type - level - chapter)"; absent parts are left out. (spec 000 section 3) */
export function membershipName(parts: {
  TypeName?: string | null;
  LevelName?: string | null;
  ChapterName?: string | null;
}): string {
  return [parts.TypeName, parts.LevelName, parts.ChapterName]
    .map((part) => part?.trim() ?? '')
    .filter((part) => part !== '')
    .join(' - ');
}

/** The three fee lists of a membership model, by how each fee is billed. */
export interface MembershipFeeLists<T extends FeeItemInput = FeeItemInput> {
  /** Recurring fees (and Every Bill fees): billed on the chosen frequency. */
  FeeItems: T[];
  OncePerTermFeeItems: T[];
  OneTimeFeeItems: T[];
}

export function feeListsByKind<T extends FeeItemInput>(items: readonly T[]): MembershipFeeLists<T> {
  const lists: MembershipFeeLists<T> = { FeeItems: [], OncePerTermFeeItems: [], OneTimeFeeItems: [] };
  for (const item of items) {
    const kind = billFrequencyKind(item.BillFrequencyTypeId);
    if (kind === 'oneTime') lists.OneTimeFeeItems.push(item);
    else if (kind === 'oncePerTerm') lists.OncePerTermFeeItems.push(item);
    else lists.FeeItems.push(item);
  }
  return lists;
}

/** A fee price row in a membership type's FeesList: level- or chapter-specific when those ids are set. */
export interface FeePriceRow extends FeeItemInput {
  FeeId: number;
  MembershipLevelId?: number | null;
  ChapterId?: number | null;
}

function matches(
  rowId: number | null | undefined,
  selected: number | null | undefined,
  enabled: boolean,
): number {
  if (rowId === null || rowId === undefined || rowId === 0) return 0;
  if (!enabled || rowId !== selected) return -1;
  return 1;
}

/**
 * Level and chapter pricing: for each fee, the row that fits the chosen level and chapter best. A row for the
 * chosen level and chapter beats one for the level alone, which beats one for the chapter alone, which beats the
 * general row. Rows for another level or chapter, or for a kind of pricing the type does not use, never apply.
 */
export function selectFeePrices<T extends FeePriceRow>(
  rows: readonly T[],
  selection: {
    MembershipLevelId?: number | null;
    ChapterId?: number | null;
    HasLevelPricing?: boolean | null;
    HasChapterPricing?: boolean | null;
  },
): T[] {
  const best = new Map<number, { row: T; score: number }>();
  const order: number[] = [];
  for (const row of rows) {
    const level = matches(
      row.MembershipLevelId,
      selection.MembershipLevelId,
      Boolean(selection.HasLevelPricing),
    );
    const chapter = matches(row.ChapterId, selection.ChapterId, Boolean(selection.HasChapterPricing));
    if (level < 0 || chapter < 0) continue;
    const score = level * 2 + chapter;
    const current = best.get(row.FeeId);
    if (!current) order.push(row.FeeId);
    if (!current || score > current.score) best.set(row.FeeId, { row, score });
  }
  return order.flatMap((feeId) => {
    const found = best.get(feeId);
    return found ? [found.row] : [];
  });
}

/** How a level is picked from the value of the type's LevelSelectionCustomFieldId. */
export interface LevelSelectionRule {
  MembershipLevelId: number;
  /** Choice values (case-insensitive) that select the level. */
  Values?: readonly string[] | null;
  /** Numeric range (inclusive) that selects the level. */
  MinValue?: number | null;
  MaxValue?: number | null;
}

/**
 * "Level selection from a custom field's value": the first level whose listed values contain the answer, or
 * whose range holds a numeric answer. Null when none matches (the member then chooses the level).
 */
export function levelFromCustomFieldValue(
  rules: readonly LevelSelectionRule[],
  value: string | number | null | undefined,
): number | null {
  if (value === null || value === undefined || String(value).trim() === '') return null;
  const text = String(value).trim().toLowerCase();
  const numeric = typeof value === 'number' ? value : /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : null;
  for (const rule of rules) {
    if (rule.Values?.some((candidate) => candidate.trim().toLowerCase() === text))
      return rule.MembershipLevelId;
    const hasRange = (rule.MinValue ?? null) !== null || (rule.MaxValue ?? null) !== null;
    if (numeric !== null && hasRange) {
      const min = rule.MinValue ?? Number.NEGATIVE_INFINITY;
      const max = rule.MaxValue ?? Number.POSITIVE_INFINITY;
      if (numeric >= min && numeric <= max) return rule.MembershipLevelId;
    }
  }
  return null;
}

/** The membership model fields that decide its price (spec 000 section 3: "Membership model"). */
export interface MembershipPricingInput {
  MembershipTypeId?: number | null;
  MembershipLevelId?: number | null;
  ChapterId?: number | null;
  TypeName?: string | null;
  LevelName?: string | null;
  ChapterName?: string | null;
  FeesList: readonly FeePriceRow[];
  RoundToNearestOnes?: boolean | null;
  FormulaBasedPricing?: boolean | null;
  HasLevelPricing?: boolean | null;
  HasChapterPricing?: boolean | null;
  LevelSelectionCustomFieldId?: number | null;
  LevelSelectionRules?: readonly LevelSelectionRule[] | null;
  DurationMonths?: number | null;
}

export interface MembershipPricingChoice {
  frequency: BillFrequencyOption;
  /** The member's units for formula-based pricing (employees, revenue…). */
  units?: DecimalInput | null;
  /** The answer to the level-selection custom field. */
  levelFieldValue?: string | number | null;
  /** False for a renewal: One Time fees are not charged again. */
  firstTerm?: boolean;
}

export interface MembershipPrice extends MembershipFeeLists<FeePriceRow> {
  Name: string;
  MembershipLevelId: number | null;
  DurationMonths: number;
  /** The bills of the term, in cents. */
  Bills: Cents[];
  TermTotal: Cents;
  /** Fees whose formula has no bracket for the given units. */
  UnpricedFeeIds: number[];
}

/**
 * Prices a membership for a chosen frequency: picks the level (from the custom field when the type selects
 * levels that way), picks the fee rows for level and chapter, prices formula-based fees from their unit
 * formulas, applies the frequency option to every fee and lays out the term's bills.
 */
export function priceMembership(
  model: MembershipPricingInput,
  choice: MembershipPricingChoice,
): MembershipPrice {
  const selectedLevel =
    model.LevelSelectionCustomFieldId && model.LevelSelectionRules
      ? (levelFromCustomFieldValue(model.LevelSelectionRules, choice.levelFieldValue) ??
        model.MembershipLevelId)
      : model.MembershipLevelId;
  const rows = selectFeePrices(model.FeesList, { ...model, MembershipLevelId: selectedLevel });
  const unpriced: number[] = [];
  const priced = rows.map((row) => {
    if (!model.FormulaBasedPricing || !row.UnitFormulas || row.UnitFormulas.length === 0) return row;
    const fromFormula = evaluateUnitFormulas(row.UnitFormulas, choice.units ?? 0);
    if (fromFormula === null) {
      unpriced.push(row.FeeId);
      return row;
    }
    return { ...row, OriginalPrice: fromFormula };
  });
  const durationMonths =
    model.DurationMonths && model.DurationMonths > 0 ? model.DurationMonths : DEFAULT_TERM_MONTHS;
  const recalculated = changeBillFrequency(priced, choice.frequency, {
    durationMonths,
    roundToNearestOnes: model.RoundToNearestOnes ?? false,
  });
  const firstTerm = choice.firstTerm ?? true;
  return {
    Name: membershipName(model),
    MembershipLevelId: selectedLevel ?? null,
    DurationMonths: durationMonths,
    ...feeListsByKind(recalculated),
    Bills: termBillSchedule(recalculated, choice.frequency, { durationMonths, firstTerm }),
    TermTotal: termTotal(recalculated, firstTerm),
    UnpricedFeeIds: unpriced,
  };
}
