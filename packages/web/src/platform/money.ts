/**
 * Money as people read it, in the signed-in association's currency (tenant setting `currency`, ISO 4217; USD when it
 * has none). The identity sets it whenever it is read, so every screen formats amounts the same way without each
 * one looking the currency up. The formatting itself is the shared money module's (`formatMoney`), as on the server.
 */
import { currencyCode, currencySymbol, formatMoney as formatIn } from '@guildhall/shared';

let currency = 'USD';

export function setMoneyCurrency(code: string | null | undefined): void {
  currency = currencyCode(code);
}

export function moneyCurrency(): string {
  return currency;
}

/** The sign amount inputs show before the figure (`$`, `€`). */
export function moneySymbol(): string {
  return currencySymbol(currency);
}

/** Cents in the association's currency: `123450` -> `$1,234.50` (USD), `€1,234.50` (EUR). */
export function formatMoney(cents: number): string {
  return formatIn(cents, { currency });
}
