import { afterEach, describe, expect, it } from 'vitest';
import { formatMoney } from './fields/field-display.tsx';
import { setMoneyCurrency } from './money.ts';

afterEach(() => setMoneyCurrency(undefined));

describe('money on the screens', () => {
  it('is shown in the association’s currency, USD when it has none', () => {
    expect(formatMoney(123450)).toBe('$1,234.50');
    setMoneyCurrency('EUR');
    expect(formatMoney(123450)).toBe('€1,234.50');
    setMoneyCurrency('GBP');
    expect(formatMoney(-5)).toBe('-£0.05');
    setMoneyCurrency(null);
    expect(formatMoney(100)).toBe('$1.00');
  });
});
