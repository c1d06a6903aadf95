import type { Page } from 'playwright-core';

/** The sign-in page, as a user sees it. */
export async function signInAs(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Username').fill(username);
  await page.getByRole('textbox', { name: /^Password/ }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}
