/**
 * Memberships beyond the staff join: the online join page staff find in the navigation (membership setup), opened
 * without a session, where a person chooses a membership, sees its price and joins (staff then find the new
 * member); and an organisation's Secondary members tab, adding people up to the level's limit and removing one.
 */
import { q, runFragment, withTenantTx } from '@guildhall/db';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../pages/sign-in.ts';
import { seedTenant, unique } from '../support/seed.ts';
import { bootForFile } from '../support/suite.ts';

const run = bootForFile();

async function save(page: Page, path: string, model: Record<string, unknown>) {
  const res = await page.request.post(path, { data: model });
  if (!res.ok()) throw new Error(`${path}: ${res.status()} ${await res.text()}`);
  return (await res.json()).Data as Record<string, number>;
}

async function choose(page: Page, label: RegExp, option: RegExp, typed?: string) {
  const input = page.getByLabel(label).first();
  await input.click();
  if (typed) await input.fill(typed);
  await page.getByRole('option', { name: option }).first().click();
}

describe('joining online and secondary members', () => {
  it('staff find the online join page in setup; a visitor joins there with the price shown', async () => {
    const t = await seedTenant(run.database);
    const staff = await run.newPage({ width: 1280, height: 900 });
    await signInAs(staff.page, t.admin.username, t.admin.password);
    await staff.page.waitForURL(/\/a\/?$/, { timeout: 15_000 });
    const type = await save(staff.page, '/api/memberships/types/typeSave', {
      Name: 'Associate',
      Description: 'For friends of the association.',
      TermKind: 'anniversary',
      DurationMonths: 12,
      IsActive: true,
    });
    await save(staff.page, '/api/memberships/fees/feeSave', {
      MembershipTypeId: type.MembershipTypeId,
      FeeId: 1,
      Name: 'Associate dues',
      OriginalPrice: 8_000,
      BillFrequencyTypeId: 12,
    });

    await staff.page.getByRole('link', { name: 'Online join page' }).first().click();
    await staff.page.getByRole('heading', { name: 'Online join page' }).waitFor();
    await staff.page.getByText('Memberships offered online').waitFor();
    await staff.page.getByRole('listitem').filter({ hasText: 'Associate' }).waitFor();
    const address = await staff.page.getByLabel('Address of the join page').inputValue();
    expect(address).toMatch(new RegExp(`/join/${t.tenant.id}$`));
    const link = staff.page.getByRole('link', { name: 'Open the join page' });
    expect(await link.getAttribute('href')).toBe(`/join/${t.tenant.id}`);

    // A visitor, no session: the page the link opens.
    const { page } = await run.newPage({ width: 1280, height: 900 });
    await page.goto(`/join/${t.tenant.id}`);
    await page.getByRole('heading', { name: /^Join / }).waitFor();
    await choose(page, /^Membership/, /^Associate$/);
    await page.getByText('For friends of the association.').waitFor();
    const price = page.getByTestId('public-join-price');
    await price.getByText('Associate dues').waitFor();
    expect(await price.textContent()).toContain('$80.00');
    const last = unique('Visitor');
    await page.getByLabel(/^First name/).fill('Vera');
    await page.getByLabel(/^Last name/).fill(last);
    await page.getByLabel(/^Email/).fill(`${last.toLowerCase()}@example.org`);
    await page.getByRole('button', { name: /^Join/ }).click();
    await page.getByRole('heading', { name: 'Thank you for joining' }).waitFor({ timeout: 15_000 });
    await page.getByText('Your first invoice is $80.00').waitFor();

    // The membership, its contact (a prospect) and the first invoice were made.
    const made = await withTenantTx(run.database.db, { tenantId: t.tenant.id }, (tx) =>
      runFragment<Record<string, unknown>>(
        tx,
        q`select m.status, c.status as contact_status, i.total_cents from memberships m
        join contacts c on c.tenant_id = m.tenant_id and c.contact_id = m.contact_id
        join invoices i on i.tenant_id = m.tenant_id and i.source_kind = 'membership' and i.source_id = m.membership_id
        where m.tenant_id = ${t.tenant.id} and c.last_name = ${last}`,
      ),
    );
    expect(made).toHaveLength(1);
    expect(Number(made[0]?.total_cents)).toBe(8_000);
  });

  it("adds secondary members on an organisation's record up to the level's limit, and removes one", async () => {
    const t = await seedTenant(run.database);
    const { page } = await run.newPage({ width: 1280, height: 900 });
    await signInAs(page, t.admin.username, t.admin.password);
    await page.waitForURL(/\/a\/?$/, { timeout: 15_000 });
    const type = await save(page, '/api/memberships/types/typeSave', {
      Name: 'Corporate',
      TermKind: 'anniversary',
      DurationMonths: 12,
      IsActive: true,
      IsOrganization: true,
    });
    const level = await save(page, '/api/memberships/levels/levelSave', {
      MembershipTypeId: type.MembershipTypeId,
      Name: 'Small firm',
      SortOrder: 1,
      MaxSecondaryMembers: 2,
    });
    await save(page, '/api/memberships/fees/feeSave', {
      MembershipTypeId: type.MembershipTypeId,
      FeeId: 1,
      Name: 'Corporate dues',
      OriginalPrice: 50_000,
      BillFrequencyTypeId: 12,
    });
    const firm = unique('Works');
    const org = await save(page, '/api/contacts/contacts/contactSave', {
      ContactType: 'organization',
      Status: 'active',
      OrganizationName: firm,
    });
    const family = unique('Acme');
    for (const first of ['Ann', 'Bob', 'Cy'])
      await save(page, '/api/contacts/contacts/contactSave', {
        ContactType: 'individual',
        Status: 'active',
        FirstName: first,
        LastName: family,
      });
    const joined = await page.request.post('/api/memberships/join', {
      data: {
        ContactId: org.ContactId,
        MembershipTypeId: type.MembershipTypeId,
        MembershipLevelId: level.MembershipLevelId,
      },
    });
    expect(joined.ok(), await joined.text()).toBe(true);
    const membershipId = (await joined.json()).MembershipId as number;

    await page.goto(`/micronet/list/memberships/memberships/${membershipId}`);
    await page.getByRole('tab', { name: 'Secondary members' }).click();
    const panel = page.getByTestId('secondary-members');
    await panel.getByText('0 of 2 secondary members.', { exact: false }).waitFor();
    for (const first of ['Ann', 'Bob']) {
      const add = page.getByRole('button', { name: 'Add', exact: true });
      // A choice clicked while the options were being replaced by the next search's is chosen again.
      for (let attempt = 0; attempt < 3 && !(await add.isEnabled()); attempt++) {
        await choose(page, /^Add a secondary member/, new RegExp(`${first}`), family);
        await add.waitFor();
        await page.waitForTimeout(300);
      }
      await add.click();
      await panel.getByRole('cell', { name: `${family}, ${first}`, exact: true }).waitFor();
    }
    await panel.getByText('2 of 2 secondary members.', { exact: false }).waitFor();
    await page.getByText('The level’s limit is reached', { exact: false }).waitFor();
    expect(await page.getByLabel(/^Add a secondary member/).count()).toBe(0);

    await panel.getByRole('button', { name: /^Remove .*Ann/ }).click();
    await panel.getByText('1 of 2 secondary members.', { exact: false }).waitFor();
    expect(await panel.getByRole('cell', { name: /Ann/ }).count()).toBe(0);
    await page
      .getByLabel(/^Add a secondary member/)
      .first()
      .waitFor();
  });
});
