/** CSV import: upload, dry run, commit as a job (the valid rows, or all or nothing), rejected rows as CSV, size limit, isolation. */
import { rowsOf, withTenantTx } from '@guildhall/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
  uploadFile,
} from '../../../test/helpers.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let api: ReturnType<typeof client>;
let apiOther: ReturnType<typeof client>;
let cookie: string;

interface Status {
  ImportId: string;
  Status: string;
  Total: number;
  Processed: number;
  Created: number;
  Updated: number;
  Rejected: number;
  Error: string | null;
}

function upload(csv: string | Buffer, who = cookie) {
  return uploadFile(ctx.app, who, '/api/contacts/import/upload', csv);
}

async function uploaded(csv: string) {
  const res = await upload(csv);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { ImportId: string; Columns: string[]; Mapping: Record<string, string>; Rows: number };
}

async function finished(id: string): Promise<Status> {
  for (let i = 0; i < 100; i++) {
    await ctx.app.worker.drain();
    const s = (await api.get(`/api/contacts/import/${id}`)).json() as Status;
    if (s.Status === 'done' || s.Status === 'failed') return s;
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error('the import did not finish');
}

async function contactCount(): Promise<number> {
  const r = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
    tx.execute(sql`select count(*)::int as n from contacts where not is_deleted`),
  );
  return rowsOf<{ n: number }>(r)[0]?.n ?? 0;
}

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  cookie = (await signIn(ctx.app, t.staff)).cookie;
  api = client(ctx.app, cookie);
  apiOther = client(ctx.app, (await signIn(ctx.app, other.staff)).cookie);
  const res = await api.post('/api/contacts/contacts/contactSave', {
    ContactType: 'individual',
    Status: 'active',
    FirstName: 'Grace',
    LastName: 'Hopper',
    Email: 'grace@navy.example.org',
    AccountNumber: 'A-1',
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(() => ctx.close());

const good = [
  'Name,E-mail,Phone,Web,Company,Account',
  '"Dr. Alan Turing",alan@example.org,415.555.0100,turing.example.org,,',
  'Grace Hopper,GRACE@navy.example.org,555 123 4567,,,',
  'Ada Lovelace,,,,Analytical Engines,A-9',
].join('\n');

describe('CSV import', () => {
  it('answers the columns and a suggested mapping on upload', async () => {
    const u = await uploaded(good);
    expect(u.Columns).toEqual(['Name', 'E-mail', 'Phone', 'Web', 'Company', 'Account']);
    expect(u.Rows).toBe(3);
    expect(u.Mapping).toMatchObject({
      FullName: 'Name',
      Email: 'E-mail',
      Phone: 'Phone',
      Website: 'Web',
      OrganizationName: 'Company',
      AccountNumber: 'Account',
    });
  });

  it('dry run: creates, updates matched by email or account number, rejects with reasons; writes nothing', async () => {
    const csv = `${good}\nNobody,not-an-email,,,,\n,,,,,\nTwin,alan@example.org,,,,`;
    const u = await uploaded(csv);
    const before = await contactCount();
    const res = await api.post('/api/contacts/import/dryRun', { ImportId: u.ImportId, Mapping: u.Mapping });
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json() as {
      Total: number;
      Create: number;
      Update: number;
      Reject: number;
      Rows: { Row: number; Action: string; ContactId: number | null; Name: string; Reasons: string[] }[];
    };
    expect(d).toMatchObject({ Total: 5, Create: 2, Update: 1, Reject: 2 });
    const row = (n: number) => d.Rows.find((r) => r.Row === n);
    expect(row(2)?.Action).toBe('create');
    expect(row(3)).toMatchObject({ Action: 'update', ContactId: expect.any(Number) });
    expect(row(5)).toMatchObject({ Action: 'reject', Name: 'Nobody' });
    expect(row(5)?.Reasons.join(' ')).toMatch(/Email/);
    // Numbered by the file's lines: the blank line 6 is skipped, and the row after it is line 7.
    expect(row(7)).toMatchObject({ Action: 'reject', Name: 'Twin' });
    expect(row(7)?.Reasons.join(' ')).toMatch(/Same email as row 2/);
    expect(row(6)).toBeUndefined();
    expect(await contactCount()).toBe(before);
    const unknown = await api.post('/api/contacts/import/dryRun', {
      ImportId: u.ImportId,
      Mapping: { Email: 'Nope' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('"Nope"');
  });

  it('commit: a job imports every row, formats phones and websites, updates the matched contact', async () => {
    const u = await uploaded(good);
    const before = await contactCount();
    const res = await api.post('/api/contacts/import/commit', { ImportId: u.ImportId, Mapping: u.Mapping });
    expect(res.statusCode, res.body).toBe(202);
    expect((res.json() as Status).Status).toBe('queued');
    const s = await finished(u.ImportId);
    expect(s).toMatchObject({ Status: 'done', Total: 3, Processed: 3, Created: 2, Updated: 1, Error: null });
    expect(await contactCount()).toBe(before + 2);
    const list = (
      await api.post('/api/contacts/contacts/contactData?$top=50', { SearchText: 'alan@example.org' })
    ).json() as { Results: Record<string, unknown>[] };
    expect(list.Results[0]).toMatchObject({ DisplayName: 'Turing, Alan' });
    const alan = (
      await api.post('/api/contacts/contacts/contactGet', { id: list.Results[0]?.ContactId })
    ).json() as Record<string, unknown>;
    expect(alan).toMatchObject({
      FirstName: 'Alan',
      LastName: 'Turing',
      Website: 'http://turing.example.org',
    });
    expect(alan.Phone).toMatch(/^\(?415\)? ?555-?0100$|^4155550100$/);
    const grace = (
      await api.post('/api/contacts/contacts/contactData?$top=5', { SearchText: 'A-1' })
    ).json() as {
      Results: Record<string, unknown>[];
    };
    expect(grace.Results[0]).toMatchObject({ DisplayName: 'Hopper, Grace', AccountNumber: 'A-1' });
    // The search index and the audit log follow the import.
    const hits = (await api.get('/api/search/global/backoffice/turing?v=2')).json() as {
      Records: { Title: string }[];
    };
    expect(hits.Records.map((h) => h.Title)).toContain('Alan Turing');
    const again = await api.post('/api/contacts/import/commit', { ImportId: u.ImportId, Mapping: u.Mapping });
    expect(again.statusCode).toBe(409);
  });

  const withBadRow = [
    'First,Last,Email,Status',
    'Rosa,Parks,rosa@example.org,active',
    '',
    '"Marie","Curie",marie@example.org,prospect',
    'Bad,Row,bad@example.org,sleeping',
    '=cmd|x,Row,formula@example.org,nowhere',
  ].join('\n');

  it('with all or nothing, a bad row leaves nothing half-imported, and the job says why', async () => {
    const u = await uploaded(withBadRow);
    expect(u.Mapping).toMatchObject({
      FirstName: 'First',
      LastName: 'Last',
      Email: 'Email',
      Status: 'Status',
    });
    const before = await contactCount();
    const res = await api.post('/api/contacts/import/commit', {
      ImportId: u.ImportId,
      Mapping: u.Mapping,
      AllOrNothing: true,
    });
    expect(res.statusCode, res.body).toBe(202);
    const s = await finished(u.ImportId);
    expect(s.Status).toBe('failed');
    expect(s.Error).toMatch(/^Row 5: Status "sleeping" is not one of/);
    expect(s.Error).toMatch(/Nothing was imported/);
    expect(await contactCount()).toBe(before);
    const rosa = (
      await api.post('/api/contacts/contacts/contactData?$top=5', { SearchText: 'rosa@example.org' })
    ).json() as { Results: unknown[] };
    expect(rosa.Results).toHaveLength(0);
  });

  it('by default imports the valid rows and offers the rejected ones as a CSV file with their lines and reasons', async () => {
    const u = await uploaded(withBadRow);
    const body = { ImportId: u.ImportId, Mapping: u.Mapping };
    // Before the commit: the rows the plan rejects.
    const early = await api.post('/api/contacts/import/rejected', body);
    expect(early.statusCode, early.body).toBe(200);
    const before = await contactCount();
    expect((await api.post('/api/contacts/import/commit', body)).statusCode).toBe(202);
    const s = await finished(u.ImportId);
    expect(s).toMatchObject({ Status: 'done', Total: 4, Processed: 4, Created: 2, Updated: 0, Rejected: 2 });
    expect(await contactCount()).toBe(before + 2);
    const marie = (
      await api.post('/api/contacts/contacts/contactData?$top=5', { SearchText: 'marie@example.org' })
    ).json() as { Results: Record<string, unknown>[] };
    expect(marie.Results[0]).toMatchObject({ DisplayName: 'Curie, Marie', Status: 'prospect' });
    // Numbered as a typed contact is, from the association's counter: distinct, and the next save goes on after.
    const numbered = (
      await api.post('/api/contacts/contacts/contactData?$top=5', { SearchText: 'rosa@example.org' })
    ).json() as { Results: Record<string, unknown>[] };
    const imported = [marie.Results[0]?.AccountNumber, numbered.Results[0]?.AccountNumber];
    for (const n of imported) expect(n).toMatch(/^A\d{7,}$/);
    expect(new Set(imported).size).toBe(2);
    const typed = await api.post('/api/contacts/contacts/contactSave', {
      FirstName: 'Typed',
      LastName: 'After',
      ContactType: 'individual',
      Status: 'active',
      Answer: 'Yes',
    });
    expect(typed.statusCode, typed.body).toBe(200);
    const next = String((typed.json() as { Data: { AccountNumber: string } }).Data.AccountNumber);
    expect(next.slice(1)).toBe(
      String(Math.max(...imported.map((n) => Number(String(n).slice(1)))) + 1).padStart(next.length - 1, '0'),
    );
    // Written as a save writes: the counters agree with the rows, each contact has its audit entry.
    const check = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, async (tx) => ({
      counted: rowsOf<{ n: number }>(
        await tx.execute(sql`select n::int as n from contact_counts where facet = '' and value = ''`),
      )[0]?.n,
      prospects: rowsOf<{ n: number }>(
        await tx.execute(
          sql`select n::int as n from contact_counts where facet = 'status' and value = 'prospect'`,
        ),
      )[0]?.n,
      audited: rowsOf<{ n: number }>(
        await tx.execute(
          sql`select count(*)::int as n from audit_log where entity = 'contacts' and action = 'create'
               and after->>'Email' in ('rosa@example.org', 'marie@example.org')`,
        ),
      )[0]?.n,
    }));
    expect(check.counted).toBe(await contactCount());
    expect(check.prospects).toBeGreaterThanOrEqual(1);
    expect(check.audited).toBe(2);
    const res = await api.post('/api/contacts/import/rejected', body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toContain('rejected.csv');
    expect(res.body).toBe(early.body);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe('First,Last,Email,Status,Row,Reasons');
    expect(lines[1]).toMatch(/^Bad,Row,bad@example\.org,sleeping,5,"?Status ""?sleeping""? is not one of/);
    // A cell a spreadsheet would run as a formula is written as text.
    expect(lines[2]).toMatch(/^"'=cmd\|x",Row,formula@example\.org,nowhere,6,/);
    expect(lines).toHaveLength(3);
    expect((await apiOther.post('/api/contacts/import/rejected', body)).statusCode).toBe(404);
  });

  it('refuses a file over the limit while it streams, a binary file and a file without a header', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024 + 10, 'a');
    expect((await upload(big)).statusCode).toBe(413);
    expect((await upload(Buffer.from([0x61, 0, 0x62]))).statusCode).toBe(400);
    expect((await upload('')).statusCode).toBe(400);
    const json = await api.post('/api/contacts/import/upload', { file: 'x' });
    expect(json.statusCode).toBe(415);
  });

  it('another tenant cannot read, dry-run or commit an import', async () => {
    const u = await uploaded(good);
    await api.post('/api/contacts/import/commit', { ImportId: u.ImportId, Mapping: u.Mapping });
    await finished(u.ImportId);
    expect((await apiOther.get(`/api/contacts/import/${u.ImportId}`)).statusCode).toBe(404);
    const body = { ImportId: u.ImportId, Mapping: u.Mapping };
    expect((await apiOther.post('/api/contacts/import/dryRun', body)).statusCode).toBe(404);
    expect((await apiOther.post('/api/contacts/import/commit', body)).statusCode).toBe(404);
    expect((await apiOther.get(`/api/contacts/import/${u.ImportId}`)).body).not.toContain('contacts.csv');
  });
});
