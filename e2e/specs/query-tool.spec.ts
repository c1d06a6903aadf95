/**
 * The developer query tool in the browser (issue 20, spec 001 sections 2, 4, 5 and 8): reached from the navigation,
 * the list filtered from 3 characters, a query run with its parameters into the results panel, a CSV download, and
 * a refused download's text put in the page; a query the association writes (saved through its screen, refused when
 * it would switch the association, run and downloaded from the tool, a database error put in the page).
 */
import { readFileSync } from 'node:fs';
import { contacts, withTenantTx } from '@guildhall/db';
import { describe, expect, it } from 'vitest';
import { signedInAdmin } from '../pages/sign-in.ts';
import { bootForFile } from '../support/suite.ts';

const run = bootForFile();

describe('the query tool', () => {
  it('filters the list from 3 characters, runs a query with its parameters, downloads CSV and shows a refusal', async () => {
    const { t, page } = await signedInAdmin(run);
    await withTenantTx(run.database.db, { tenantId: t.tenant.id, userId: t.admin.id }, async (tx) => {
      await tx.insert(contacts).values(
        [
          ['Adams, Ann', 'A1', 'Boston'],
          ['Baker, Bob', 'A2', 'Boston'],
          ['Cole, Cy', 'A3', 'Chicago'],
        ].map(([displayName, accountNumber, city]) => ({
          tenantId: t.tenant.id,
          displayName: displayName as string,
          accountNumber,
          city,
          status: 'active',
          contactType: 'individual',
        })),
      );
    });
    await page.getByRole('link', { name: 'Query tool' }).first().click();
    await page.waitForURL(/\/a\/dev\/QuerytoolDownload$/);
    const list = page.getByRole('navigation', { name: 'Named queries' });
    await list.getByRole('button', { name: /Contacts without email/ }).waitFor();

    // Two characters do not filter; three do.
    const filter = page.getByLabel('Filter queries');
    await filter.fill('em');
    await expect.poll(() => list.getByRole('button', { name: /Possible duplicates/ }).count()).toBe(1);
    await filter.fill('email');
    await expect.poll(() => list.getByRole('button', { name: /Possible duplicates/ }).count()).toBe(0);
    expect(await list.getByRole('button', { name: /Contacts without email/ }).count()).toBe(1);
    await filter.fill('city');
    await list.getByRole('button', { name: /Contacts in a city/ }).click();

    // Run with a text parameter: the results panel shows the rows.
    await page.getByLabel('City starts with').fill('bos');
    await page.getByRole('button', { name: 'Run' }).click();
    await expect.poll(() => page.getByTestId('query-summary').textContent()).toContain('Rows 1–2.');
    const results = page.getByRole('region', { name: 'Results' });
    expect(await results.getByRole('cell', { name: 'Adams, Ann' }).count()).toBe(1);
    expect(await results.getByRole('cell', { name: 'Cole, Cy' }).count()).toBe(0);
    await page.screenshot({ path: '/tmp/query-tool-run.png', fullPage: true });

    // Download CSV: every row, as a file.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^contacts\.inCity-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '');
    const lines = csv.trimEnd().split('\n');
    expect(lines[0]).toBe('Account,Name,Email,Phone,City,Last changed');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['A1', 'A2']);

    // A refused download: the server's text is put in the page.
    await filter.fill('');
    await list.getByRole('button', { name: /Possible duplicates/ }).click();
    await page.getByLabel('At least this many').fill('two');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    await expect
      .poll(() => page.getByTestId('query-error').textContent())
      .toContain('At least this many must be a number.');
    await page.screenshot({ path: '/tmp/query-tool-error.png', fullPage: true });

    // A date range parameter: this month's contacts, with the range's options.
    await list.getByRole('button', { name: /Contacts added in a period/ }).click();
    await page.getByRole('combobox', { name: 'Added' }).click();
    await page.getByRole('option', { name: 'This Month' }).click();
    await page.getByRole('button', { name: 'Run' }).click();
    await expect.poll(() => page.getByTestId('query-summary').textContent()).toContain('Rows 1–3.');
  });

  it('writes a query of our own, refuses one that switches the association, runs and downloads ours', async () => {
    const { t, page, context } = await signedInAdmin(run, { width: 1400, height: 1000 });
    await withTenantTx(run.database.db, { tenantId: t.tenant.id, userId: t.admin.id }, async (tx) => {
      await tx.insert(contacts).values(
        [
          ['Dunn, Di', 'D1', 'Denver'],
          ['Evans, Ed', 'D2', 'Denver'],
          ['Ford, Flo', 'D3', 'Austin'],
        ].map(([displayName, accountNumber, city]) => ({
          tenantId: t.tenant.id,
          displayName: displayName as string,
          accountNumber,
          city,
          status: 'active',
          contactType: 'individual',
        })),
      );
    });
    await page.getByRole('link', { name: 'Query tool' }).first().click();
    await page.waitForURL(/\/a\/dev\/QuerytoolDownload$/);
    await page.getByRole('link', { name: 'Our queries' }).click();
    await page.waitForURL(/\/micronet\/list\/dev\/queries/);
    await page.getByRole('link', { name: 'Add', exact: true }).click();
    await page.waitForURL(/\/micronet\/list\/dev\/queries\/new/);

    // A statement that would switch the association is refused when saved, with the guard's reason on the field.
    await page.getByRole('textbox', { name: /^Title/ }).fill('Switch association');
    await page.getByRole('textbox', { name: /^Group/ }).fill('Ours');
    const sql = page.getByRole('textbox', { name: /^SQL/ });
    await sql.fill(`select set_config('app.tenant_id', '00000000-0000-0000-0000-000000000000', true)`);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('The function set_config is not allowed in a query.').first().waitFor();
    await page.screenshot({ path: '/tmp/query-tool-refused.png', fullPage: true });

    // Our own query, with a parameter, saved.
    await page.getByRole('textbox', { name: /^Title/ }).fill('Contacts of one city');
    await sql.fill(
      'select account_number as "Account", display_name as "Name" from gh_query.contacts where city = :city order by 1',
    );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.endsWith('/new'));

    // A query that passes the guard but fails in the database.
    await page.goto('/micronet/list/dev/queries/new');
    await page.getByRole('textbox', { name: /^Title/ }).fill('Divides by zero');
    await page.getByRole('textbox', { name: /^Group/ }).fill('Ours');
    await page.getByRole('textbox', { name: /^SQL/ }).fill('select 1 / 0 as "Never" from gh_query.contacts');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL((url) => !url.pathname.endsWith('/new'));

    // Ours are listed in the tool beside the shipped ones; run with its parameter, the rows show.
    await page.goto('/a/dev/QuerytoolDownload');
    const list = page.getByRole('navigation', { name: 'Named queries' });
    await page.getByLabel('Filter queries').fill('one city');
    await list.getByRole('button', { name: /Contacts of one city/ }).click();
    expect(await list.getByRole('button', { name: /Switch association/ }).count()).toBe(0);
    await page.getByRole('textbox', { name: 'City' }).fill('Denver');
    await page.getByRole('button', { name: 'Run' }).click();
    await expect.poll(() => page.getByTestId('query-summary').textContent()).toContain('Rows 1–2.');
    const results = page.getByRole('region', { name: 'Results' });
    expect(await results.getByRole('cell', { name: 'Evans, Ed' }).count()).toBe(1);
    expect(await results.getByRole('cell', { name: 'Ford, Flo' }).count()).toBe(0);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8').replace(/^\uFEFF/, '');
    expect(csv.trimEnd().split('\n')).toEqual(['Account,Name', 'D1,"Dunn, Di"', 'D2,"Evans, Ed"']);

    // The database's own error is put in the page.
    await page.getByLabel('Filter queries').fill('zero');
    await list.getByRole('button', { name: /Divides by zero/ }).click();
    await page.getByRole('button', { name: 'Run' }).click();
    await expect.poll(() => page.getByTestId('query-error').textContent()).toContain('division by zero');
    await page.screenshot({ path: '/tmp/query-tool-own.png', fullPage: true });
    await context.close();
  });
});
