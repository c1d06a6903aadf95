import { addMembership } from '@guildhall/db/seed/factories';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedInAdmin, signInAs } from '../pages/sign-in.ts';
import { seedTenant, unique } from '../support/seed.ts';
import { bootForFile, inboxForFile, poll } from '../support/suite.ts';

const inbox = inboxForFile();
const run = bootForFile(() => ({ smtpUrl: inbox.url }));

/** The invitation tokens mailed to `to`, oldest first. */
function tokensFor(to: string): string[] {
  return inbox.messages
    .filter((m) => m.toLowerCase().includes(`to: ${to.toLowerCase()}`))
    .map((m) => /invitation\?token=([A-Za-z0-9_-]+)/.exec(m)?.[1] ?? '');
}

async function waitForTokens(to: string, count: number): Promise<string[]> {
  const until = Date.now() + 10_000;
  while (tokensFor(to).length < count) {
    if (Date.now() > until) throw new Error(`no invitation ${count} to ${to}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return tokensFor(to);
}

describe('staff invitations in the browser', () => {
  it('an administrator invites a colleague, resends, and the colleague accepts and signs in', async () => {
    const { t, page, context } = await signedInAdmin(run);
    const email = `${unique('noor')}@example.org`;
    await page.goto('/a/users');
    await page.getByRole('button', { name: 'Invite a colleague' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite a colleague' });
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Name').fill('Noor Haddad');
    await dialog.getByRole('radio', { name: 'Staff' }).check({ force: true });
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('We sent the invitation.').waitFor();
    // The pending user shows in the Users page's invitations tab (a slot of the embedded list), with Resend.
    await page.getByRole('tab', { name: /^Pending invitations/ }).click();
    const row = page.getByRole('row', { name: /Noor Haddad/ });
    await row.getByText('Pending').waitFor();
    await row.getByRole('button', { name: 'Resend the invitation to Noor Haddad' }).waitFor();
    await page.screenshot({ path: '/tmp/invitations-users.png', fullPage: true });
    const [first] = await waitForTokens(email, 1);

    // Resend: a new link; the first one no longer works.
    await row.getByRole('button', { name: 'Resend the invitation to Noor Haddad' }).click();
    await page.getByText('We sent a new invitation link; the previous one no longer works.').waitFor();
    const [, second] = await waitForTokens(email, 2);
    expect(second).not.toBe(first);

    // The mail is in the outbox, without the link.
    await page.goto('/a/outbox');
    await page
      .getByRole('link', { name: `You are invited to ${t.tenant.name}` })
      .first()
      .click();
    await page.getByText('Noor Haddad', { exact: false }).first().waitFor();
    expect(await page.getByText(second ?? '').count()).toBe(0);
    await context.close();

    // The colleague, in a browser of their own.
    const fresh = await run.newPage();
    await fresh.page.goto(`/invitation?token=${first}`);
    await fresh.page.getByText('This invitation link is invalid').waitFor();
    await fresh.page.goto(`/invitation?token=${second}`);
    await fresh.page.getByRole('heading', { name: 'Accept the invitation' }).waitFor();
    await fresh.page.getByText(t.tenant.name).first().waitFor();
    expect(await fresh.page.getByLabel('Your name').inputValue()).toBe('Noor Haddad');
    const username = unique('noor.');
    await fresh.page.getByLabel('Username').fill(username);
    await fresh.page.getByRole('textbox', { name: /^Password/ }).fill('a garden of forking paths');
    await fresh.page.getByRole('textbox', { name: /^Confirm password/ }).fill('a garden of forking paths');
    await fresh.page.screenshot({ path: '/tmp/invitations-accept.png', fullPage: true });
    await fresh.page.getByRole('button', { name: 'Create my account' }).click();
    await fresh.page.getByText('Welcome aboard! Your account is ready').waitFor();
    await fresh.page.getByRole('link', { name: 'Sign in' }).click();
    await fresh.page.waitForURL(/\/sign-in$/);
    await fresh.page.getByLabel('Username').fill(username);
    await fresh.page.getByRole('textbox', { name: /^Password/ }).fill('a garden of forking paths');
    await fresh.page.getByRole('button', { name: 'Sign in' }).click();
    await fresh.page.getByRole('heading', { name: 'Set a security question' }).waitFor({ timeout: 15_000 });
    await fresh.page.getByLabel('Security question').first().click();
    await fresh.page.getByRole('option').first().click();
    await fresh.page.getByLabel('Answer').fill('Damascus');
    await fresh.page.getByRole('button', { name: 'Save and continue' }).click();
    await fresh.page.waitForURL(/\/a\/?$/, { timeout: 15_000 });
    await fresh.page.getByText(`You are in the back office of ${t.tenant.name}.`).waitFor();
    await fresh.context.close();
  });
});

describe('the association chooser after sign-in', () => {
  it('asks a person of several associations which one, and the switcher still changes it', async () => {
    const a = await seedTenant(run.database);
    const b = await seedTenant(run.database);
    await addMembership(run.database.db, b.tenant.id, a.staff.id, 'admin');
    const { page, context } = await run.newPage();
    await signInAs(page, a.staff.username, a.staff.password);
    await page.waitForURL(/\/prompts\/choose-association$/);
    await page.getByRole('heading', { name: 'Choose an association' }).waitFor();
    await page.getByRole('button', { name: `${b.tenant.name}, Administrator` }).waitFor();
    await page.screenshot({ path: '/tmp/invitations-chooser.png' });
    await page.getByRole('button', { name: `${b.tenant.name}, Administrator` }).click();
    await page.waitForURL(/\/a\/?$/);
    await page.getByText(`You are in the back office of ${b.tenant.name}.`).waitFor();
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: a.tenant.name }).click();
    await page.getByText(`You are in the back office of ${a.tenant.name}.`).waitFor();
    await context.close();

    // The next sign-in opens the association used last, without asking.
    const again = await run.newPage();
    await signInAs(again.page, a.staff.username, a.staff.password);
    await again.page.waitForURL(/\/a\/?$/);
    await again.page.getByText(`You are in the back office of ${a.tenant.name}.`).waitFor();
    await again.context.close();
  });
});

/** A user's name as the users list and record show it. */
async function displayNameOf(page: Page, userId: number): Promise<string> {
  const answer = await page.request.get(`/api/users/${userId}`);
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { displayName: string }).displayName;
}

describe('deactivating a user in one association', () => {
  it('signs them out there, keeps them out until reactivated, and the list shows it', async () => {
    const { t, page, context } = await signedInAdmin(run);
    const colleague = await run.newPage();
    await signInAs(colleague.page, t.staff.username, t.staff.password);
    await colleague.page.waitForURL(/\/a\/?$/);

    const name = await displayNameOf(page, t.staff.id);
    await page.goto('/a/users');
    const row = page.getByRole('row').filter({ hasText: name });
    // Four actions (View, Send password reset, Deactivate, Feature flags): View stays a button, the rest is a menu.
    await row.getByRole('button', { name: /^View / }).waitFor();
    expect(await row.getByRole('button', { name: /^Deactivate / }).count()).toBe(0);
    const menu = row.getByRole('button', { name: /^Actions for / });
    await menu.click();
    await page.getByRole('menuitem', { name: 'Deactivate' }).click();
    const dialog = page.getByRole('dialog', { name: /^Deactivate .*\?$/ });
    await dialog.getByText('their other associations are not affected', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Deactivate', exact: true }).click();
    await row.getByText('Inactive').waitFor();

    // The colleague's open back office is signed out at its next request, and sign-in says why.
    await colleague.page.goto('/a/users');
    await colleague.page.waitForURL(/\/sign-in/);
    await colleague.page.getByLabel('Username').fill(t.staff.username);
    await colleague.page.getByRole('textbox', { name: /^Password/ }).fill(t.staff.password);
    await colleague.page.getByRole('button', { name: 'Sign in' }).click();
    await colleague.page.getByText('Your account has been deactivated.', { exact: false }).waitFor();

    await menu.click();
    // An inactive user cannot reset their password: the action is not offered.
    await page.getByRole('menuitem', { name: 'Reactivate' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Send password reset' }).count()).toBe(0);
    await page.getByRole('menuitem', { name: 'Reactivate' }).click();
    await row.getByText('Active', { exact: true }).waitFor();
    await colleague.page.getByRole('textbox', { name: /^Password/ }).fill(t.staff.password);
    await colleague.page.getByRole('button', { name: 'Sign in' }).click();
    // Back where the sign-out interrupted them.
    await colleague.page.waitForURL(/\/a\/users$/);
    await colleague.page.getByRole('heading', { name: 'Users' }).waitFor();
    await colleague.context.close();

    await page.goto('/a/audit');
    await page.getByText('deactivate', { exact: true }).first().waitFor();
    await page.getByText('reactivate', { exact: true }).first().waitFor();
    await context.close();
  });
});

describe("a user's record", () => {
  it('opens from the list with role, status and last sign-in, Impersonate, feature flags and the contact', async () => {
    const { t, page, context } = await signedInAdmin(run);
    const name = await displayNameOf(page, t.staff.id);
    await page.goto('/a/users');
    // The list shows name, role, status and last sign-in at a glance (username and email are in the settings).
    await page.getByRole('link', { name }).waitFor();
    const headers = (await page.getByRole('columnheader').allTextContents())
      .map((h) => h.trim())
      .filter(Boolean);
    expect(headers.slice(0, 4)).toEqual(['Name', 'Role', 'Status', 'Last sign-in']);
    expect(headers).not.toContain('Username');
    expect(headers).not.toContain('Email');
    await page.getByRole('link', { name: name }).click();
    await page.waitForURL(new RegExp(`/a/users/${t.staff.id}$`));
    await page.getByRole('heading', { name: name, level: 1 }).waitFor();
    const card = page.getByRole('region', { name: `Users: ${name}` });
    const value = (term: string) =>
      card.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]');
    expect(await value('Role').textContent()).toBe('Staff');
    expect(await value('Status').textContent()).toBe('Active');
    expect(await value('Last sign-in').textContent()).toBe('Never');
    // Impersonate (a toolbar slot) is there; the feature flags and the linked contact are tabs.
    await page.getByRole('button', { name: /^Impersonate/ }).waitFor();
    await page.getByRole('tab', { name: 'Feature flags' }).click();
    await page.getByRole('switch', { name: /Audit log/ }).waitFor();
    await page.getByRole('tab', { name: 'Contact record' }).click();
    await page.getByText('Link to a contact').waitFor();
    await page.screenshot({ path: '/tmp/invitations-user-record.png', fullPage: true });
    await context.close();
  });

  it('deactivates, reactivates and sends a reset link from the record', async () => {
    const { t, page, context } = await signedInAdmin(run);
    const name = await displayNameOf(page, t.staff.id);
    await page.goto(`/a/users/${t.staff.id}`);
    const card = page.getByRole('region', { name: `Users: ${name}` });
    const value = (term: string) =>
      card.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd[1]');
    await page.getByRole('button', { name: `Deactivate ${name}` }).click();
    await page
      .getByRole('dialog', { name: /^Deactivate .*\?$/ })
      .getByRole('button', { name: 'Deactivate' })
      .click();
    await poll(() => value('Status').textContent()).toBe('Inactive');
    expect(await page.getByRole('button', { name: /^Send password reset / }).count()).toBe(0);
    await page.getByRole('button', { name: `Reactivate ${name}` }).click();
    await poll(() => value('Status').textContent()).toBe('Active');

    const before = inbox.messages.length;
    await page.getByRole('button', { name: `Send password reset ${name}` }).click();
    await page
      .getByRole('dialog', { name: 'Send password reset' })
      .getByRole('button', { name: 'Send password reset' })
      .click();
    await page.getByText('We sent the user a link to choose a new password.').waitFor();
    await poll(() => inbox.messages.slice(before).some((m) => m.includes('reset-password?token='))).toBe(
      true,
    );
    await page.goto('/a/audit');
    await page.getByText('send-password-reset', { exact: true }).first().waitFor();
    await context.close();
  });
});
