import { type Cents, type DecimalInput, parseDecimal, roundDiv } from '../platform/fields/money.ts';

/**
 * One bracket of a formula-based price, the way associations price dues by a measure of the member (employees,
 * revenue in thousands, beds, locations): within `MinUnits` to `MaxUnits` (inclusive; null = no upper bound) the
 * price is `BaseAmount + PerUnitAmount x (units - UnitsIncluded)`, never less than BaseAmount.
 * See docs/decisions/0013-unit-formulas.md.
 */
export interface UnitFormula {
  MinUnits: number;
  MaxUnits?: number | null;
  /** Cents. */
  BaseAmount: Cents;
  /** Cents per unit above UnitsIncluded. */
  PerUnitAmount?: Cents | null;
  /** Units covered by BaseAmount; defaults to 0. */
  UnitsIncluded?: number | null;
}

function toNumber(units: DecimalInput): number | null {
  const decimal = parseDecimal(units);
  return decimal ? Number(decimal.units) / 10 ** decimal.scale : null;
}

/** The bracket that covers `units`: among those whose range holds it, the one with the highest MinUnits. */
export function findUnitFormula(formulas: readonly UnitFormula[], units: DecimalInput): UnitFormula | null {
  const value = toNumber(units);
  if (value === null) return null;
  let found: UnitFormula | null = null;
  for (const formula of formulas) {
    const max = formula.MaxUnits ?? Number.POSITIVE_INFINITY;
    if (value < formula.MinUnits || value > max) continue;
    if (!found || formula.MinUnits > found.MinUnits) found = formula;
  }
  return found;
}

/**
 * The price, in cents, for `units` under a list of brackets; null when no bracket covers the units. Units are read
 * exactly and the per-unit part is rounded once (half away from zero) when units are fractional.
 */
export function evaluateUnitFormulas(formulas: readonly UnitFormula[], units: DecimalInput): Cents | null {
  const formula = findUnitFormula(formulas, units);
  const value = parseDecimal(units);
  if (!formula || !value) return null;
  const included = parseDecimal(formula.UnitsIncluded ?? 0) ?? { units: 0n, scale: 0 };
  const scale = Math.max(value.scale, included.scale);
  const align = (decimal: { units: bigint; scale: number }) =>
    decimal.units * 10n ** BigInt(scale - decimal.scale);
  const excess = align(value) - align(included);
  const perUnit = BigInt(formula.PerUnitAmount ?? 0);
  if (excess <= 0n || perUnit <= 0n) return formula.BaseAmount;
  return formula.BaseAmount + Number(roundDiv(perUnit * excess, 10n ** BigInt(scale)));
}

/** Problems in a bracket list that a setup screen shows; empty when the list is usable. */
export function unitFormulaErrors(formulas: readonly UnitFormula[]): string[] {
  const errors: string[] = [];
  formulas.forEach((formula, index) => {
    const label = `Bracket ${index + 1}`;
    if (!Number.isFinite(formula.MinUnits) || formula.MinUnits < 0) {
      errors.push(`${label}: the lowest number of units cannot be negative.`);
    }
    const max = formula.MaxUnits;
    if (max !== null && max !== undefined && max < formula.MinUnits) {
      errors.push(`${label}: the highest number of units is below the lowest.`);
    }
    if (formula.BaseAmount < 0 || (formula.PerUnitAmount ?? 0) < 0) {
      errors.push(`${label}: amounts cannot be negative.`);
    }
  });
  const sorted = [...formulas].sort((a, b) => a.MinUnits - b.MinUnits);
  for (let index = 1; index < sorted.length; index++) {
    const previous = sorted[index - 1];
    const current = sorted[index];
    if (!previous || !current) continue;
    const previousMax = previous.MaxUnits ?? Number.POSITIVE_INFINITY;
    if (current.MinUnits <= previousMax) {
      errors.push(`The brackets starting at ${previous.MinUnits} and ${current.MinUnits} units overlap.`);
    }
  }
  return errors;
}
