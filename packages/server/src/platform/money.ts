import { q, runFragment, type Tx } from '@guildhall/db';
import { currencyCode, formatMoney } from '@guildhall/shared';

/** The association's currency (its Currency setting; USD when it has none). */
export async function tenantCurrency(tx: Tx, tenantId: string): Promise<string> {
  const [row] = await runFragment<{ currency: string | null }>(
    tx,
    q`select settings->>'currency' as currency from tenants where id = ${tenantId}`,
  );
  return currencyCode(row?.currency);
}

/**
 * Money as people read it in the association's currency, for the texts a feature writes (mail, history, messages):
 * `(await tenantMoney(tx, tenantId))(12050)` -> `€120.50` for an association in euros.
 */
export async function tenantMoney(tx: Tx, tenantId: string): Promise<(cents: number) => string> {
  const currency = await tenantCurrency(tx, tenantId);
  return (cents) => formatMoney(cents, { currency });
}
