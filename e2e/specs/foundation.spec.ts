import { createUser, publishTerms } from '@guildhall/db/seed/factories';
import { describe, expect, it } from 'vitest';
import { signInAs } from '../pages/sign-in.ts';
import { seedTenant, unique } from '../support/seed.ts';
import { bootForFile } from '../support/suite.ts';

const run = bootForFile();

const until = (page: import('playwright-core').Page, path: RegExp) =>
  page.waitForURL(path, { timeout: 15_000 });

describe('foundation in the browser', () => {
  it('signs a staff user in to the back office, and out again', async () => {
    const t = await seedTenant(run.database);
    const { page, context } = await run.newPage();
    await signInAs(page, t.admin.username, 'wrong-password-here');
    await page.getByText('The username or password is incorrect.').waitFor();
    await signInAs(page, t.admin.username, t.admin.password);
    await until(page, /\/a\/?$/);
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    expect(await page.getByText(t.tenant.name).first().isVisible()).toBe(true);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await until(page, /\/sign-in/);
    await page.goto('/a');
    await until(page, /\/sign-in/);
    await context.close();
  });

  it('signs a member in to the member area', async () => {
    const t = await seedTenant(run.database);
    const { page, context } = await run.newPage();
    await signInAs(page, t.member.username, t.member.password);
    await until(page, /\/m\/?$/);
    await context.close();
  });

  it('blocks with the terms gate until accepted; accepting closes it', async () => {
    const t = await seedTenant(run.database);
    await publishTerms(run.database.db, {
      tenantId: t.tenant.id,
      loginType: 'staff',
      title: 'Staff terms 2027',
      description: 'Keep member data safe.',
    });
    const { page, context } = await run.newPage();
    await signInAs(page, t.staff.username, t.staff.password);
    const dialog = page.getByRole('dialog', { name: 'Staff terms 2027' });
    await dialog.waitFor();
    expect(await dialog.getByText('Keep member data safe.').isVisible()).toBe(true);
    // It cannot be dismissed.
    await page.keyboard.press('Escape');
    await page.mouse.click(5, 5);
    expect(await dialog.isVisible()).toBe(true);
    await dialog.getByRole('button', { name: 'Accept' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    await page.reload();
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    expect(await page.getByRole('dialog', { name: 'Staff terms 2027' }).count()).toBe(0);
    await context.close();
  });

  it('signs the user out when the terms are declined', async () => {
    const t = await seedTenant(run.database);
    await publishTerms(run.database.db, {
      tenantId: t.tenant.id,
      loginType: 'member',
      title: 'Member terms 2027',
    });
    const { page, context } = await run.newPage();
    await signInAs(page, t.member.username, t.member.password);
    const dialog = page.getByRole('dialog', { name: 'Member terms 2027' });
    await dialog.getByRole('button', { name: 'Decline' }).click();
    await until(page, /\/sign-in/);
    const me = await page.request.get('/api/auth/me');
    expect(me.status()).toBe(401);
    await context.close();
  });

  it('asks for the privacy policy the administrator wrote in settings; accepting closes it, declining signs out', async () => {
    const t = await seedTenant(run.database);
    const admin = await run.newPage();
    await signInAs(admin.page, t.admin.username, t.admin.password);
    await until(admin.page, /\/a\/?$/);
    await admin.page.goto('/a/settings');
    const policy = admin.page.getByRole('textbox', { name: /^Privacy policy/ });
    await policy.fill('We keep your name and email address to run the association, and nothing else.');
    await admin.page.getByRole('button', { name: 'Save', exact: true }).click();
    await admin.page.getByText('We saved it!').first().waitFor();
    await admin.context.close();

    const { page, context } = await run.newPage();
    await signInAs(page, t.member.username, t.member.password);
    const dialog = page.getByRole('dialog', { name: 'Privacy policy' });
    await dialog.waitFor();
    await dialog.getByText('We keep your name and email address').waitFor();
    const accept = dialog.getByRole('button', { name: 'Accept' });
    expect(await accept.isDisabled()).toBe(true);
    await dialog.getByRole('checkbox', { name: 'I have read and accept the privacy policy' }).check();
    await accept.click();
    await dialog.waitFor({ state: 'hidden' });
    await page.reload();
    await until(page, /\/m\/?$/);
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('dialog', { name: 'Privacy policy' }).count()).toBe(0);
    await context.close();

    const staff = await run.newPage();
    await signInAs(staff.page, t.staff.username, t.staff.password);
    const asked = staff.page.getByRole('dialog', { name: 'Privacy policy' });
    await asked.getByRole('button', { name: 'Decline' }).click();
    await until(staff.page, /\/sign-in/);
    await staff.page.getByText('You declined the privacy policy, so you were signed out.').waitFor();
    await staff.context.close();
  });

  it('forces a password change before the back office opens', async () => {
    const t = await seedTenant(run.database);
    const u = await createUser(run.database.db, {
      tenantId: t.tenant.id,
      username: unique('forced.'),
      password: 'temporary-password-1',
      isRequirePasswordReset: true,
    });
    const { page, context } = await run.newPage();
    await signInAs(page, u.username, u.password);
    await until(page, /\/prompts\/change-password/);
    await page.goto('/a/users');
    await until(page, /\/prompts\/change-password/);
    await page.getByRole('textbox', { name: /^New password/ }).fill('my-own-new-password');
    await page.getByRole('textbox', { name: /^Confirm password/ }).fill('my-own-new-password');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await until(page, /\/a\/?$/);
    await context.close();
  });

  it('lets an admin impersonate a member and return', async () => {
    const t = await seedTenant(run.database);
    const { page, context } = await run.newPage();
    await signInAs(page, t.admin.username, t.admin.password);
    await until(page, /\/a\/?$/);
    await page.goto(`/a/users/${t.member.id}`);
    await page.getByRole('button', { name: /^Impersonate/ }).click();
    const banner = page.getByRole('region', { name: 'Impersonation' }).or(page.getByLabel('Impersonation'));
    await banner.first().waitFor();
    await until(page, /\/m/);
    await page.getByRole('button', { name: /^Return to/ }).click();
    await until(page, /\/a/);
    expect(await page.getByLabel('Impersonation').count()).toBe(0);
    const me = await (await page.request.get('/api/auth/me')).json();
    expect(me.user.id).toBe(t.admin.id);
    await context.close();
  });

  it('collapses the navigation behind a burger at 767 px and shows it at 768 px', async () => {
    const t = await seedTenant(run.database);
    const { page, context } = await run.newPage({ width: 767, height: 900 });
    await signInAs(page, t.admin.username, t.admin.password);
    await until(page, /\/a\/?$/);
    const burger = page.getByRole('button', { name: 'Toggle navigation' });
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await burger.waitFor();
    expect(await burger.isVisible()).toBe(true);
    expect(await nav.isVisible()).toBe(false);
    await burger.click();
    await nav.waitFor({ state: 'visible' });
    await page.setViewportSize({ width: 768, height: 900 });
    await page.waitForTimeout(300);
    expect(await nav.isVisible()).toBe(true);
    expect(await burger.isVisible()).toBe(false);
    await context.close();
  });

  it('shows the not-found page for an unknown address', async () => {
    const { page, context } = await run.newPage();
    await page.goto('/no/such/page');
    await page
      .getByText(/not found|doesn.t exist|could not find/i)
      .first()
      .waitFor();
    await context.close();
  });
});
