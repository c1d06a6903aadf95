/**
 * The Demo Association's own queries in the developer query tool: what an administrator of a real association
 * writes in the first weeks (members to call, where the members are), beside the queries the product ships.
 */
import { type Db, savedQueries, withTenantTx } from '@guildhall/db';

export const DEMO_SAVED_QUERIES = [
  {
    title: 'Active members to call',
    groupName: 'Membership drive',
    description: 'Active individuals with a phone number and no email address: the ones only a call reaches.',
    sql: `select account_number as "Account", display_name as "Name", phone as "Phone", city as "City"
  from gh_query.contacts
 where status = 'active' and contact_type = 'individual'
   and coalesce(phone, '') <> '' and coalesce(email, '') = ''
 order by display_name`,
  },
  {
    title: 'Contacts by city in a state',
    groupName: 'Membership drive',
    description: 'How many contacts each city of a state has, largest first (type the state, e.g. IL).',
    sql: `select city as "City", count(*) as "Contacts",
       count(*) filter (where status = 'active') as "Active"
  from gh_query.contacts
 where state_province = upper(:state)
 group by city
 order by count(*) desc, city`,
  },
] as const;

export async function seedDemoQueries(db: Db, tenantId: string, userId: number): Promise<void> {
  await withTenantTx(db, { tenantId, userId }, async (tx) => {
    await tx
      .insert(savedQueries)
      .values(DEMO_SAVED_QUERIES.map((q) => ({ ...q, tenantId, createdByUserId: userId })));
  });
}
