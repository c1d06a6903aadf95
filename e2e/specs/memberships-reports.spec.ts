/**
 * Memberships where staff look them up: the header search shows each contact hit's membership status (a secondary
 * member of an organisation's membership shows the organisation's, a contact without one shows none), and the
 * shipped membership reports (the roster of current members, the lapsed and dropped members with the reason).
 */
import { withTenantTx } from '@guildhall/db';
import { sql } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../pages/sign-in.ts';
import { seedTenant, unique } from '../support/seed.ts';
import { bootForFile } from '../support/suite.ts';

const run = bootForFile();

async function post(page: Page, path: string, model: Record<string, unknown>) {
  const res = await page.request.post(path, { data: model });
  if (!res.ok()) throw new Error(`${path}: ${res.status()} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}
const saved = async (page: Page, path: string, model: Record<string, unknown>) =>
  (await post(page, path, model)).Data as Record<string, number>;
const person = async (page: Page, FirstName: string, LastName: string) =>
  (
    await saved(page, '/api/contacts/contacts/contactSave', {
      ContactType: 'individual',
      Status: 'active',
      FirstName,
      LastName,
    })
  ).ContactId as number;
/** Letters only: the search matches it as one word. */
const word = (prefix: string) =>
  unique(prefix)
    .replace(/[^A-Za-z]/g, '')
    .replace(/^./, (c) => c.toUpperCase());

async function signedIn() {
  const t = await seedTenant(run.database);
  const { page } = await run.newPage({ width: 1280, height: 900 });
  await signInAs(page, t.admin.username, t.admin.password);
  await page.waitForURL(/\/a\/?$/, { timeout: 15_000 });
  return { t, page };
}

describe('memberships in search and reports', () => {
  it("shows membership status on search hits, a secondary member's through the organisation", async () => {
    const { t, page } = await signedIn();
    const type = await saved(page, '/api/memberships/types/typeSave', {
      Name: 'Corporate',
      TermKind: 'anniversary',
      DurationMonths: 12,
      IsActive: true,
      IsOrganization: true,
    });
    await saved(page, '/api/memberships/fees/feeSave', {
      MembershipTypeId: type.MembershipTypeId,
      FeeId: 1,
      Name: 'Corporate dues',
      OriginalPrice: 50_000,
      BillFrequencyTypeId: 12,
    });
    const last = word('Hopper');
    const org = (
      await saved(page, '/api/contacts/contacts/contactSave', {
        ContactType: 'organization',
        Status: 'active',
        OrganizationName: `${last} Computing`,
      })
    ).ContactId as number;
    const membershipId = (
      await post(page, '/api/memberships/join', { ContactId: org, MembershipTypeId: type.MembershipTypeId })
    ).MembershipId as number;
    await withTenantTx(run.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(sql`update memberships set status = 'active', term_start = current_date - 10,
          term_end = current_date + 355
        where tenant_id = ${t.tenant.id} and membership_id = ${membershipId}`),
    );
    const grace = await person(page, 'Grace', last);
    await person(page, 'Nobody', last);
    await post(page, `/api/memberships/memberships/${membershipId}/members`, { ContactId: grace });

    const box = page.getByRole('combobox', { name: 'Search everything' });
    await box.waitFor();
    await box.fill(last.toLowerCase());
    const results = page.getByRole('listbox', { name: 'Search results' });
    const hit = (name: RegExp) => results.getByRole('option', { name });
    await hit(/Grace/).waitFor({ timeout: 15_000 });
    await hit(/Nobody/).waitFor();
    await hit(/Computing/).waitFor();
    expect(await hit(/Grace/).textContent()).toContain('Member: Active');
    expect(await hit(/Computing/).textContent()).toContain('Member: Active');
    expect(await hit(/Nobody/).textContent()).not.toContain('Member:');
  });

  it('runs the membership roster and the lapsed and dropped members with the reason', async () => {
    const { page } = await signedIn();
    const type = await saved(page, '/api/memberships/types/typeSave', {
      Name: 'Individual',
      TermKind: 'anniversary',
      DurationMonths: 12,
      IsActive: true,
    });
    await saved(page, '/api/memberships/fees/feeSave', {
      MembershipTypeId: type.MembershipTypeId,
      FeeId: 1,
      Name: 'Dues',
      OriginalPrice: 12_000,
      BillFrequencyTypeId: 12,
    });
    const current = word('Current');
    const gone = word('Gone');
    const join = async (contactId: number) => {
      const id = (
        await post(page, '/api/memberships/join', {
          ContactId: contactId,
          MembershipTypeId: type.MembershipTypeId,
        })
      ).MembershipId as number;
      await post(page, `/api/memberships/memberships/${id}/approve`, {});
      return id;
    };
    await join(await person(page, 'Carla', current));
    const dropped = await join(await person(page, 'Gil', gone));
    await post(page, `/api/memberships/memberships/${dropped}/drop`, { Reason: 'Moved abroad' });

    await page.goto('/a/reports/memberships.roster');
    await page.getByRole('heading', { level: 1, name: 'Membership roster' }).waitFor();
    const roster = page.getByRole('table');
    await roster.getByRole('row', { name: new RegExp(current) }).waitFor({ timeout: 15_000 });
    expect(await roster.getByRole('row', { name: new RegExp(current) }).textContent()).toMatch(/active/i);
    expect(await roster.getByRole('row', { name: new RegExp(gone) }).count()).toBe(0);

    await page.goto('/a/reports/memberships.lapsedDropped');
    await page.getByRole('heading', { level: 1, name: 'Lapsed and dropped members' }).waitFor();
    const lapsed = page.getByRole('table');
    const row = lapsed.getByRole('row', { name: new RegExp(gone) });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toMatch(/dropped/i);
    expect(await row.textContent()).toContain('Moved abroad');
    expect(await lapsed.getByRole('row', { name: new RegExp(current) }).count()).toBe(0);
  });
});
