/** The demo data: two associations, so that tenant isolation is visible from the first start. */
import { sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../client.ts';
import { createTenant, createUser, publishTerms, writeHelpText } from './factories.ts';

export const DEMO_ACCOUNTS = [
  { tenant: 'Demo Association', username: 'demo.staff', password: 'demo-staff-pass-2026', role: 'admin' },
  { tenant: 'Demo Association', username: 'demo.member', password: 'demo-member-pass-2026', role: 'member' },
  { tenant: 'Other Association', username: 'other.staff', password: 'other-staff-pass-2026', role: 'admin' },
] as const;

/** True when the demo data is present already (a second start reuses it). */
export async function demoSeeded(db: Db): Promise<boolean> {
  const r = await db.execute(sql`select 1 as one from users where lower(username) = 'demo.staff'`);
  return rowsOf(r).length > 0;
}

export async function seedDemo(db: Db): Promise<void> {
  if (await demoSeeded(db)) return;
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
  await writeHelpText(db, {
    tenantId: demo.id,
    stateName: 'Home',
    title: 'Welcome to the back office',
    content: 'Use the navigation on the left to reach users, settings and the terms of use.',
  });
}
