/**
 * Money as people read it, in the signed-in association's currency (tenant setting `currency`, ISO 4217; USD when it
 * has none). The identity sets it whenever it is read, so every screen formats amounts the same way without each
 * one looking the currency up.
 */
let currency = 'USD';
let format = new Intl.NumberFormat('en-US', { style: 'currency', currency });

export function setMoneyCurrency(code: string | null | undefined): void {
  const next = code || 'USD';
  if (next === currency) return;
  currency = next;
  format = new Intl.NumberFormat('en-US', { style: 'currency', currency });
}

export function moneyCurrency(): string {
  return currency;
}

/** Cents in the association's currency: `123450` -> `$1,234.50` (USD), `€1,234.50` (EUR). */
export function formatMoney(cents: number): string {
  return format.format(cents / 100);
}
