import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  evaluateUnitFormulas,
  findUnitFormula,
  type UnitFormula,
  unitFormulaErrors,
} from './unit-formula.rules.ts';

/** The chamber-of-commerce dues table of docs/decisions/0013-unit-formulas.md. */
const employeeDues: UnitFormula[] = [
  { MinUnits: 1, MaxUnits: 10, BaseAmount: 30000 },
  { MinUnits: 11, MaxUnits: 50, BaseAmount: 30000, PerUnitAmount: 600, UnitsIncluded: 10 },
  { MinUnits: 51, MaxUnits: null, BaseAmount: 54000, PerUnitAmount: 400, UnitsIncluded: 50 },
];

describe('unit formulas (decision 0013): BaseAmount + PerUnitAmount x (units - UnitsIncluded) per bracket', () => {
  it.each([
    [8, 30000],
    [10, 30000],
    [11, 30600],
    [25, 39000],
    [50, 54000],
    [51, 54400],
    [120, 82000],
    ['120', 82000],
    [0, null],
    [10.5, null],
    ['many', null],
  ])('%j employees pay %j cents', (units, expected) => {
    expect(evaluateUnitFormulas(employeeDues, units)).toBe(expected);
  });

  it('fractional units round once, half away from zero: $100 + $0.35 per $1,000 of revenue', () => {
    const revenue: UnitFormula[] = [{ MinUnits: 0, BaseAmount: 10000, PerUnitAmount: 35 }];
    expect(evaluateUnitFormulas(revenue, '1234.5')).toBe(53208);
    expect(evaluateUnitFormulas(revenue, 1234.5)).toBe(53208);
    expect(evaluateUnitFormulas(revenue, 0)).toBe(10000);
    expect(
      evaluateUnitFormulas([{ MinUnits: 0, BaseAmount: 100, UnitsIncluded: 0.5, PerUnitAmount: 3 }], 1.25),
    ).toBe(102);
  });

  it('the most specific bracket wins when brackets overlap', () => {
    const overlapping: UnitFormula[] = [
      { MinUnits: 0, BaseAmount: 1 },
      { MinUnits: 5, BaseAmount: 2 },
    ];
    expect(findUnitFormula(overlapping, 7)?.BaseAmount).toBe(2);
    expect(findUnitFormula(overlapping, 'x')).toBeNull();
  });

  it('names the problems of a bracket list', () => {
    expect(unitFormulaErrors(employeeDues)).toEqual([]);
    expect(
      unitFormulaErrors([
        { MinUnits: -1, MaxUnits: 5, BaseAmount: 10 },
        { MinUnits: 4, MaxUnits: 2, BaseAmount: -1 },
        { MinUnits: 20, BaseAmount: 1, PerUnitAmount: -5 },
      ]),
    ).toEqual([
      'Bracket 1: the lowest number of units cannot be negative.',
      'Bracket 2: the highest number of units is below the lowest.',
      'Bracket 2: amounts cannot be negative.',
      'Bracket 3: amounts cannot be negative.',
      'The brackets starting at -1 and 4 units overlap.',
    ]);
  });

  it('property: within a bracket the price never falls as units rise', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: 100 }), (units, more) => {
        const low = evaluateUnitFormulas(employeeDues, units) ?? 0;
        const high = evaluateUnitFormulas(employeeDues, units + more) ?? 0;
        expect(high).toBeGreaterThanOrEqual(low);
      }),
    );
  });
});
