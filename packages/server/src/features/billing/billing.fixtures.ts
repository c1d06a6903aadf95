/** Records the billing tests start from: contacts, tax sets, the test gateway and a card on file. */
import { type Database, q, runFragment, withTenantTx } from '@guildhall/db';

export async function makeContact(database: Database, tenantId: string, name: string): Promise<number> {
  return withTenantTx(database.db, { tenantId }, async (tx) => {
    const [first, last] = name.split(' ');
    const [row] = await runFragment<{ contact_id: unknown }>(
      tx,
      q`insert into contacts (tenant_id, first_name, last_name, display_name, status)
        values (${tenantId}::uuid, ${first ?? name}, ${last ?? name}, ${`${last}, ${first}`}, 'active') returning contact_id`,
    );
    return Number(row?.contact_id);
  });
}

export async function makeTaxSet(
  database: Database,
  tenantId: string,
  name: string,
  rate: string,
  floatCents = 0,
): Promise<number> {
  return withTenantTx(database.db, { tenantId }, async (tx) => {
    const [row] = await runFragment<{ tax_set_id: unknown }>(
      tx,
      q`insert into tax_sets (tenant_id, name, rate, float_amount_cents) values (${tenantId}::uuid, ${name}, ${rate}, ${floatCents})
        returning tax_set_id`,
    );
    return Number(row?.tax_set_id);
  });
}

/** Sets the tenant's gateway to the offline test gateway and gives the contact a card on file. */
export async function useTestGateway(
  database: Database,
  tenantId: string,
  contactId?: number,
  methodRef = 'pm_test_visa',
): Promise<void> {
  await withTenantTx(database.db, { tenantId }, async (tx) => {
    await runFragment(
      tx,
      q`insert into billing_settings (tenant_id, gateway) values (${tenantId}::uuid, 'test')
        on conflict (tenant_id) do update set gateway = 'test'`,
    );
    if (contactId !== undefined) {
      await runFragment(
        tx,
        q`insert into payment_cards (tenant_id, contact_id, gateway, method_ref, brand, last4, exp_month, exp_year)
          values (${tenantId}::uuid, ${contactId}, 'test', ${methodRef}, 'Visa', '4242', 12, 2030)`,
      );
    }
  });
}
