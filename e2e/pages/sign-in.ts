import type { Page } from 'playwright-core';
import type { Running } from '../support/boot.ts';
import { seedTenant } from '../support/seed.ts';

/**
 * The sign-in page, reached as a new user reaches it: the site's address (`/`), which sends a visitor without a
 * session to the sign-in page.
 */
export async function signInAs(page: Page, username: string, password: string): Promise<void> {
  const res = await page.goto('/');
  if (res?.status() !== 200) throw new Error(`GET / answered ${res?.status()}, not the app`);
  await page.waitForURL(/\/sign-in$/);
  await page.getByLabel('Username').fill(username);
  await page.getByRole('textbox', { name: /^Password/ }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A fresh association with its admin signed in to the back office, in a browser context of its own. */
export async function signedInAdmin(run: Running, viewport?: { width: number; height: number }) {
  const t = await seedTenant(run.database);
  const { page, context } = await run.newPage(viewport);
  await signInAs(page, t.admin.username, t.admin.password);
  await page.waitForURL(/\/a\/?$/, { timeout: 15_000 });
  return { t, page, context };
}
