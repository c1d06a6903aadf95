/**
 * "Create invoices from file": upload, suggested mapping, dry run (invoices and refused rows with reasons, nothing
 * written), commit as a job whose invoices are posted balanced, a second commit refused, a run stopped by a fault
 * that goes on from its last part without creating an invoice twice, another association's upload unknown.
 */
import { q, rowsOf, runFragment, withTenantTx } from '@guildhall/db';
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
import { INVOICE_PART, invoiceImportHandler } from './invoice-import.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let cookie: string;
let api: ReturnType<typeof client>;
let apiOther: ReturnType<typeof client>;

async function contact(first: string, last: string, account: string, email: string) {
  await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
    runFragment(
      tx,
      q`insert into contacts (tenant_id, first_name, last_name, display_name, status, account_number, email)
        values (${t.tenant.id}::uuid, ${first}, ${last}, ${`${last}, ${first}`}, 'active', ${account}, ${email})`,
    ),
  );
}

async function invoices() {
  return withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, async (tx) =>
    rowsOf<{ number: string; contact: string; total_cents: number; due_date: string; lines: number }>(
      await tx.execute(sql`select i.number, c.display_name as contact, i.total_cents::int as total_cents,
             i.due_date::text as due_date, (select count(*)::int from invoice_lines l
               where l.tenant_id = i.tenant_id and l.invoice_id = i.invoice_id) as lines
           from invoices i join contacts c on c.tenant_id = i.tenant_id and c.contact_id = i.contact_id
           order by i.invoice_id`),
    ),
  );
}

async function uploaded(csv: string) {
  const res = await uploadFile(ctx.app, cookie, '/api/billing/invoices/import/upload', csv, 'dues.csv');
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { ImportId: string; Mapping: Record<string, string>; Rows: number };
}

async function finished(id: string) {
  for (let i = 0; i < 200; i++) {
    await ctx.app.worker.drain(t.tenant.id);
    const s = (await api.get(`/api/billing/invoices/import/${id}`)).json() as {
      Status: string;
      Created: number;
      Total: number;
      Processed: number;
      Rejected: number;
      RejectedRows: { Row: number; Reasons: string[] }[];
      Error: string | null;
    };
    if (s.Status === 'done' || s.Status === 'failed') return s;
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error('the import did not finish');
}

const balanced = async () => {
  const tb = (await api.get('/api/billing/ledger/trial-balance')).json() as {
    debits: number;
    credits: number;
  };
  expect(tb.debits).toBe(tb.credits);
  return tb;
};

beforeAll(async () => {
  ctx = await testApp({}, 4);
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  cookie = (await signIn(ctx.app, t.staff)).cookie;
  api = client(ctx.app, cookie);
  apiOther = client(ctx.app, (await signIn(ctx.app, other.staff)).cookie);
  await contact('Łukasz', 'Żółć', 'A-1001', 'lukasz@example.org');
  await contact('Ada', 'Byron', 'A-1002', 'ada@example.org');
  await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
    runFragment(
      tx,
      q`insert into ledger_accounts (tenant_id, code, name, kind) values (${t.tenant.id}::uuid, '4100', 'Dues', 'revenue')`,
    ),
  );
});
afterAll(() => ctx.close());

const FILE = [
  'Account number,Email,Reference,Item,Qty,Unit price,Revenue account,Due date',
  'A-1001,,GALA,Gala ticket,2,45.00,Dues,2026-12-31',
  ',ada@example.org,,Annual dues,1,120,4100,2026-12-15',
  'A-1001,,GALA,Gala dinner wine,1,"1,000.50",,2026-12-31',
  'A-9999,,,Annual dues,1,120,,',
  'A-1002,,,Annual dues,1,12.345,,',
  'A-1002,,,Annual dues,0,10,,2026-02-30',
  ',ada@example.org,,Donation,1,25,Nope,',
  'A-1002,,BAD,Sponsorship,1,500,,',
  'A-1002,,BAD,Sponsorship extra,1,x,,',
].join('\n');

describe('create invoices from file', () => {
  it('suggests the mapping, dry-runs the file: the invoices, the refused rows and why, nothing written', async () => {
    const up = await uploaded(FILE);
    expect(up.Rows).toBe(9);
    expect(up.Mapping).toMatchObject({
      AccountNumber: 'Account number',
      Email: 'Email',
      Reference: 'Reference',
      Description: 'Item',
      Quantity: 'Qty',
      UnitPrice: 'Unit price',
      RevenueAccount: 'Revenue account',
      DueDate: 'Due date',
    });
    const res = await api.post('/api/billing/invoices/import/dryRun', {
      ImportId: up.ImportId,
      Mapping: up.Mapping,
    });
    expect(res.statusCode, res.body).toBe(200);
    const dry = res.json() as {
      Invoices: number;
      TotalCents: number;
      Rejected: number;
      Planned: { Rows: number[]; ContactName: string; Lines: number; TotalCents: number }[];
      RejectedRows: { Row: number; Reasons: string[] }[];
    };
    expect(dry.Invoices).toBe(2);
    expect(dry.Planned).toEqual([
      expect.objectContaining({
        Rows: [2, 4],
        ContactName: 'Żółć, Łukasz',
        Lines: 2,
        TotalCents: 9000 + 100050,
      }),
      expect.objectContaining({ Rows: [3], ContactName: 'Byron, Ada', Lines: 1, TotalCents: 12000 }),
    ]);
    expect(dry.TotalCents).toBe(121050);
    const why = (row: number) => dry.RejectedRows.find((r) => r.Row === row)?.Reasons.join(' ');
    expect(dry.Rejected).toBe(6);
    expect(why(5)).toBe('No contact has the account number A-9999.');
    expect(why(6)).toMatch(/"12.345" is not a price/);
    expect(why(7)).toMatch(/quantity must be a whole number of at least 1.*due date as YYYY-MM-DD/);
    expect(why(8)).toBe('No revenue account is called "Nope".');
    expect(why(9)).toBe('Another row of the invoice BAD is refused, so the invoice is not created.');
    expect(why(10)).toMatch(/"x" is not a price/);
    expect(await invoices()).toEqual([]);
    // Without a contact column or a price the mapping itself is refused.
    const bad = await api.post('/api/billing/invoices/import/dryRun', {
      ImportId: up.ImportId,
      Mapping: { Description: 'Item' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Map the account number or the email column.');
    // Another association's staff do not see the upload.
    const theirs = await apiOther.post('/api/billing/invoices/import/dryRun', {
      ImportId: up.ImportId,
      Mapping: up.Mapping,
    });
    expect(theirs.statusCode).toBe(404);
  });

  it('commits as a job: the invoices numbered and posted balanced, the refused rows kept; once only', async () => {
    const up = await uploaded(FILE);
    const res = await api.post('/api/billing/invoices/import/commit', {
      ImportId: up.ImportId,
      Mapping: up.Mapping,
    });
    expect(res.statusCode, res.body).toBe(202);
    const s = await finished(up.ImportId);
    expect(s).toMatchObject({ Status: 'done', Total: 2, Processed: 2, Created: 2, Rejected: 6, Error: null });
    expect(s.RejectedRows.map((r) => r.Row)).toEqual([5, 6, 7, 8, 9, 10]);
    expect(await invoices()).toEqual([
      {
        number: 'INV-000001',
        contact: 'Żółć, Łukasz',
        total_cents: 109050,
        due_date: '2026-12-31',
        lines: 2,
      },
      { number: 'INV-000002', contact: 'Byron, Ada', total_cents: 12000, due_date: '2026-12-15', lines: 1 },
    ]);
    await balanced();
    // Each invoice made is audited under the user who committed the file.
    const audited = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, async (tx) =>
      rowsOf<{ actor: number; number: string }>(
        await tx.execute(sql`select actor_user_id::int as actor, after->>'number' as number from audit_log
          where action = 'import' and entity = 'invoices' and after->>'file' = ${up.ImportId} order by id`),
      ),
    );
    expect(audited).toEqual([
      { actor: t.staff.id, number: 'INV-000001' },
      { actor: t.staff.id, number: 'INV-000002' },
    ]);
    const again = await api.post('/api/billing/invoices/import/commit', {
      ImportId: up.ImportId,
      Mapping: up.Mapping,
    });
    expect(again.statusCode).toBe(409);
    expect(await invoices()).toHaveLength(2);
  });

  it('refuses a file that is not a CSV of rows, with a message that says why; nothing is kept', async () => {
    const before = (await invoices()).length;
    const refused = async (bytes: Buffer | string, name = 'dues.csv') => {
      const res = await uploadFile(ctx.app, cookie, '/api/billing/invoices/import/upload', bytes, name);
      return { status: res.statusCode, message: (res.json() as { message: string }).message };
    };
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(64, 0x20)]);
    expect(await refused(pdf, 'dues.pdf')).toEqual({
      status: 400,
      message: expect.stringMatching(/^The file is not a CSV text file: it looks like .*"CSV UTF-8"/),
    });
    expect(await refused(Buffer.from([0x41, 0x2c, 0x42, 0x0a, 0x00, 0x01, 0x02, 0x0a]))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/it holds binary data/),
    });
    expect(await refused(Buffer.from([0x41, 0x2c, 0x42, 0x0a, 0xe9, 0x2c, 0x31, 0x0a]))).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^The file is not UTF-8 text/),
    });
    expect(await refused('')).toMatchObject({ status: 400, message: 'The file has no header row.' });
    expect(await refused('Email,Item,Unit price\n')).toEqual({
      status: 400,
      message: 'The file has no rows under its header row.',
    });
    expect(await refused('Email,Email,Unit price\nada@example.org,x,1\n')).toEqual({
      status: 400,
      message: 'Two columns of the file have the same header.',
    });
    const big = await refused(
      `Email,Item,Unit price\n${'ada@example.org,Annual dues,120\n'.repeat(200_000)}`,
    );
    expect(big.status).toBe(413);
    expect(big.message).toMatch(/^The file is larger than 5 MB/);
    // A mapping naming a column the file does not have is refused by name.
    const up = await uploaded('Email,Item,Unit price\nada@example.org,Annual dues,120\n');
    const wrong = await api.post('/api/billing/invoices/import/dryRun', {
      ImportId: up.ImportId,
      Mapping: { Email: 'Email', Description: 'Item', UnitPrice: 'Price' },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe('The file has no column "Price".');
    expect(await invoices()).toHaveLength(before);
  });

  it('a run stopped by a fault goes on from its last part and creates each invoice once', async () => {
    const marker = `fault-${Math.random().toString(36).slice(2)}`;
    const rows = ['Account number,Item,Unit price,Memo'];
    for (let i = 1; i <= 5; i++) rows.push(`A-1002,Line ${i},${i}.00,${i === 4 ? marker : 'ok'}`);
    const up = await uploaded(rows.join('\n'));
    const before = (await invoices()).length;
    const part = { ...INVOICE_PART };
    INVOICE_PART.pglite = 2;
    INVOICE_PART.postgres = 2;
    const fn = marker.replace('-', '_');
    await ctx.database.ownerExec(`
      CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
      BEGIN IF NEW.memo = '${marker}' THEN RAISE EXCEPTION 'Injected fault'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER ${fn} BEFORE INSERT ON invoices FOR EACH ROW EXECUTE FUNCTION ${fn}();`);
    try {
      const res = await api.post('/api/billing/invoices/import/commit', {
        ImportId: up.ImportId,
        Mapping: up.Mapping,
      });
      expect(res.statusCode).toBe(202);
      await ctx.app.worker.drain(t.tenant.id);
      // The first part (two invoices) is in; the fault stopped the second.
      expect((await invoices()).length - before).toBe(2);
    } finally {
      await ctx.database.ownerExec(`DROP TRIGGER ${fn} ON invoices; DROP FUNCTION ${fn}();`);
      Object.assign(INVOICE_PART, part);
    }
    // Run again (as a retry would), twice: the rest goes in once.
    const [job] = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, async (tx) =>
      rowsOf<{ id: string; payload: Record<string, unknown> }>(
        await tx.execute(sql`select j.id, j.payload from jobs j join stored_files f
          on f.tenant_id = j.tenant_id and f.job_id = j.id where f.id = ${up.ImportId}`),
      ),
    );
    if (!job) throw new Error('no job');
    const run = invoiceImportHandler(ctx.app.services);
    const claimed = {
      tenantId: t.tenant.id,
      id: job.id,
      kind: 'billing-invoice-import',
      payload: job.payload,
      userId: t.staff.id,
      attempts: 1,
    };
    await run(ctx.database, claimed);
    await run(ctx.database, claimed);
    const made = (await invoices()).slice(before);
    expect(made.map((i) => i.total_cents)).toEqual([100, 200, 300, 400, 500]);
    await balanced();
  });
});
