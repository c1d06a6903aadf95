/**
 * The demo data: two associations, so that tenant isolation is visible from the first start, each with generated
 * contacts (some listed in the member directory), so the first screens a visitor opens are not empty.
 */

import { type Database, type Db, rowsOf, withTenantTx } from '@guildhall/db';
import { createTenant, createUser, publishTerms, writeHelpText } from '@guildhall/db/seed/factories';
import * as shared from '@guildhall/shared';
import { defaultHelpTexts, isResource } from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import { bulkSeedContacts, withBulkTarget } from './bulk.ts';
import { seedDemoBilling } from './demo-billing.ts';
import { seedDemoCommunications } from './demo-communications.ts';
import { seedDemoCustomFields } from './demo-custom-fields.ts';
import { seedDemoEvents } from './demo-events.ts';
import type { DemoFilesInput } from './demo-files.ts';
import { seedDemoFormerColleague, seedDemoInvitations } from './demo-invitations.ts';
import { seedDemoMemberships } from './demo-memberships.ts';
import { seedDemoQueries } from './demo-query-tool.ts';
import { seedDemoReports } from './demo-reports.ts';
import { linkDemoTasksToEvents, seedDemoTasks } from './demo-tasks.ts';

/** How many contacts each demo association starts with. */
export const DEMO_CONTACTS = { demo: 250, other: 40 } as const;

export const DEMO_ACCOUNTS = [
  { tenant: 'Demo Association', username: 'demo.staff', password: 'demo-staff-pass-2026', role: 'admin' },
  { tenant: 'Demo Association', username: 'demo.member', password: 'demo-member-pass-2026', role: 'member' },
  { tenant: 'Other Association', username: 'other.staff', password: 'other-staff-pass-2026', role: 'admin' },
] as const;

export type { DemoApi } from './demo-files.ts';
export { seedDemoFiles } from './demo-files.ts';

/** True when the demo data is present already (a second start reuses it). */
export async function demoSeeded(db: Db): Promise<boolean> {
  const r = await db.execute(sql`select 1 as one from users where lower(username) = 'demo.staff'`);
  return rowsOf(r).length > 0;
}

/**
 * Seeds the demo once (a second start finds it and does nothing, and answers null). The answer names what the
 * demo's files need, which are seeded through the app's API once it runs (demo-files.ts). The contacts are loaded as the bulk seeder loads
 * them (COPY as the owner, with their entries, search documents and counters); on PostgreSQL that needs the URL of
 * the owner's connection.
 */
export async function seedDemo(
  database: Database,
  options: { databaseUrl?: string | undefined } = {},
): Promise<DemoFilesInput | null> {
  const { db } = database;
  if (await demoSeeded(db)) return null;
  const demo = await createTenant(db, { name: 'Demo Association', slug: 'demo' });
  const other = await createTenant(db, { name: 'Other Association', slug: 'other' });
  const staff = await createUser(db, {
    tenantId: demo.id,
    username: 'demo.staff',
    password: 'demo-staff-pass-2026',
    role: 'admin',
    displayName: 'Dana Staff',
    email: 'demo.staff@demo-association.example.org',
  });
  const member = await createUser(db, {
    tenantId: demo.id,
    username: 'demo.member',
    password: 'demo-member-pass-2026',
    role: 'member',
    displayName: 'Morgan Member',
    email: 'demo.member@demo-association.example.org',
  });
  const otherStaff = await createUser(db, {
    tenantId: other.id,
    username: 'other.staff',
    password: 'other-staff-pass-2026',
    role: 'admin',
    displayName: 'Olive Other',
    email: 'other.staff@other-association.example.org',
  });
  await publishTerms(db, { tenantId: demo.id, loginType: 'staff', acceptedBy: [staff.id] });
  await publishTerms(db, { tenantId: demo.id, loginType: 'member', acceptedBy: [member.id] });
  await publishTerms(db, { tenantId: other.id, loginType: 'staff', acceptedBy: [otherStaff.id] });
  // Every screen of the product has its help text from the first start (the association edits them later).
  const screens = defaultHelpTexts(
    Object.values(shared as Record<string, unknown>).flatMap((v) => (isResource(v) ? [v] : [])),
  );
  for (const tenant of [demo, other]) {
    for (const text of screens) await writeHelpText(db, { tenantId: tenant.id, ...text });
  }
  try {
    await withBulkTarget(database, options.databaseUrl, async (target) => {
      await bulkSeedContacts(target, { tenantId: demo.id, count: DEMO_CONTACTS.demo, seed: 2026 });
      await bulkSeedContacts(target, { tenantId: other.id, count: DEMO_CONTACTS.other, seed: 7 });
    });
  } catch (error) {
    // On PostgreSQL the loader writes in replica mode, which needs a superuser; without one the demo starts with
    // its associations and people but no contacts.
    if (database.pglite) throw error;
    console.warn(`The demo contacts were not loaded: ${(error as Error).message}`);
  }
  await linkDemoMember(db, demo.id, member.id);
  await seedDemoMemberships(db, demo.id, shared.todayIn(shared.DEFAULT_TIMEZONE));
  await seedDemoCustomFields(db, demo.id);
  await seedDemoCommunications(db, demo.id, staff.id);
  await seedDemoQueries(db, demo.id, staff.id);
  await seedDemoTasks(db, demo.id, staff.id);
  await seedDemoInvitations(db, demo.id, staff.id);
  await seedDemoFormerColleague(db, demo.id);
  await seedDemoBilling(db, demo.id, shared.todayIn(shared.DEFAULT_TIMEZONE));
  await seedDemoEvents(db, demo.id);
  await linkDemoTasksToEvents(db, demo.id);
  await seedDemoReports(db, demo.id, staff.id);
  await spreadDemoContactDates(db, demo.id);
  return demoFilesInput(db, demo.id, demo.name);
}

/** How many of the demo's contacts were added this month (the dashboard's "New contacts this month"). */
export const DEMO_NEW_THIS_MONTH = 12;

/**
 * The demo's contacts were added over the years, not all on the day of the first start: in account order from March
 * 2021 to six weeks ago, the last DEMO_NEW_THIS_MONTH this month (the association's, in its zone); never after their
 * first membership, invoice or registration.
 */
async function spreadDemoContactDates(db: Db, tenantId: string): Promise<void> {
  await withTenantTx(db, { tenantId }, (tx) =>
    tx.execute(sql`with ordered as (
        select contact_id, row_number() over (order by contact_id) as n, count(*) over () as total
        from contacts where tenant_id = ${tenantId}
      ), dated as (
        select contact_id,
          case when n > total - ${DEMO_NEW_THIS_MONTH}
            then least(now(), greatest(
              (date_trunc('month', now() at time zone ${shared.DEFAULT_TIMEZONE}) + interval '1 hour')
                at time zone ${shared.DEFAULT_TIMEZONE},
              now() - make_interval(days => ((total - n) * 2)::int)))
            else timestamptz '2021-03-01 15:00:00+00'
              + (now() - interval '42 days' - timestamptz '2021-03-01 15:00:00+00')
                * ((n - 1)::float8 / greatest(total - ${DEMO_NEW_THIS_MONTH} - 1, 1))
          end as at
        from ordered
      )
      update contacts c set created_at = least(d.at,
          (select min(m.join_date)::timestamptz from memberships m
            where m.tenant_id = c.tenant_id and m.contact_id = c.contact_id),
          (select min(i.issue_date)::timestamptz from invoices i
            where i.tenant_id = c.tenant_id and i.contact_id = c.contact_id),
          (select min(r.created_at) from event_registrations r
            where r.tenant_id = c.tenant_id and r.contact_id = c.contact_id))
      from dated d where c.tenant_id = ${tenantId} and c.contact_id = d.contact_id`),
  );
}

/**
 * What the demo's files need (demo-files.ts, seeded through the app's API once it runs): the association's name and
 * a dozen listed individuals to give a photo, the demo member's own contact first.
 */
async function demoFilesInput(db: Db, tenantId: string, name: string): Promise<DemoFilesInput> {
  const tenant = { id: tenantId, name };
  return withTenantTx(db, { tenantId }, async (tx) => {
    const contacts = rowsOf<{ contact_id: number; first_name: string; last_name: string }>(
      await tx.execute(sql`select contact_id, first_name, last_name from contacts
        where tenant_id = ${tenant.id} and is_listed and not is_deleted and contact_type = 'individual'
        order by (user_id is null), contact_id limit 12`),
    );
    return {
      associationName: tenant.name,
      contacts: contacts.map((c) => ({
        id: Number(c.contact_id),
        firstName: c.first_name,
        lastName: c.last_name,
      })),
    };
  });
}

/**
 * The demo member signs in to a profile of their own: linked to a listed, active individual of the demo association
 * (the first in account order), whose name the user takes. Nothing when there are no contacts to link.
 */
async function linkDemoMember(db: Db, tenantId: string, userId: number): Promise<void> {
  await withTenantTx(db, { tenantId }, async (tx) => {
    const [contact] = rowsOf<{ contact_id: number; first_name: string; last_name: string }>(
      await tx.execute(sql`update contacts set user_id = ${userId}
        where tenant_id = ${tenantId} and contact_id = (
          select contact_id from contacts
          where tenant_id = ${tenantId} and is_listed and not is_deleted and status = 'active'
            and contact_type = 'individual' and user_id is null
          order by contact_id limit 1)
        returning contact_id, first_name, last_name`),
    );
    if (!contact) return;
    await tx.execute(
      sql`update users set display_name = ${`${contact.first_name} ${contact.last_name}`} where id = ${userId}`,
    );
  });
}
