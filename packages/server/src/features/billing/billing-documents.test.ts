/**
 * Invoice documents (issue 15): the invoice as a PDF, with DejaVu Sans embedded so that a name like Łukasz Żółć
 * comes back whole out of the text layer, the association's logo and address, the lines, discount, tax, totals,
 * payments and balance due; staff download any invoice, a member only their own. Sent by mail with the PDF
 * attached, through the platform mailer (kept in the outbox with the attachment's name, delivered by SMTP to a
 * server the test starts).
 */
import { q, runFragment, withTenantTx } from '@guildhall/db';
import { simpleParser } from 'mailparser';
import sharp from 'sharp';
import { SMTPServer } from 'smtp-server';
import { extractText, getDocumentProxy } from 'unpdf';
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
import { makeContact, makeTaxSet } from './billing.fixtures.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let staff: ReturnType<typeof client>;
let member: ReturnType<typeof client>;
let otherStaff: ReturnType<typeof client>;
let adminCookie: string;
let lukasz: number;
let bob: number;
let smtp: SMTPServer;
const inbox: string[] = [];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (c: Buffer) => {
        data += c.toString('utf8');
      });
      stream.on('end', () => {
        inbox.push(data);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as { port: number }).port;
  ctx = await testApp({ smtpUrl: `smtp://127.0.0.1:${port}` });
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  staff = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
  member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
  otherStaff = client(ctx.app, (await signIn(ctx.app, other.staff)).cookie);
  adminCookie = (await signIn(ctx.app, t.admin)).cookie;
  lukasz = await makeContact(ctx.database, t.tenant.id, 'Łukasz Żółć');
  bob = await makeContact(ctx.database, t.tenant.id, 'Bob Brown');
  await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, async (tx) => {
    await runFragment(
      tx,
      q`update contacts set user_id = ${t.member.id}, email = 'lukasz@example.org', address1 = 'ul. Świętokrzyska 12',
          city = 'Kraków', postal_code = '31-000', account_number = 'A0000042'
        where tenant_id = ${t.tenant.id} and contact_id = ${lukasz}`,
    );
    await runFragment(
      tx,
      q`update tenants set settings = settings || ${JSON.stringify({ address: '12 Guild Street\nSpringfield, IL 62701' })}::jsonb
        where id = ${t.tenant.id}`,
    );
  });
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

async function pdfText(bytes: Buffer): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  return text;
}

async function issue(contactId: number, body: Record<string, unknown> = {}) {
  const res = await staff.post('/api/billing/invoices/issue', {
    contactId,
    issueDate: '2026-11-02',
    dueDate: '2026-12-02',
    lines: [{ description: 'Annual dues', unitPriceCents: 12_000, quantity: 1 }],
    ...body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { invoiceId: number; number: string };
}

describe('invoice PDF', () => {
  it('prints the invoice with an embedded Unicode font: names, lines, discount, tax, payments and balance due', async () => {
    const tax = await makeTaxSet(ctx.database, t.tenant.id, 'Sales tax 10%', '10');
    const inv = await issue(lukasz, {
      lines: [
        {
          description: 'Annual dues – Żółć family',
          unitPriceCents: 20_000,
          quantity: 1,
          discountCents: 2_000,
        },
        { description: 'Conference ticket', unitPriceCents: 5_000, quantity: 2, taxSetId: tax },
      ],
      memo: 'Thank you for your membership.',
    });
    const paid = await staff.post('/api/billing/payments/record', {
      contactId: lukasz,
      amountCents: 10_000,
      method: 'check',
      checkNumber: '1043',
      applications: [{ invoiceId: inv.invoiceId, amountCents: 10_000 }],
    });
    expect(paid.statusCode, paid.body).toBe(200);

    const res = await staff.get(`/api/billing/invoices/${inv.invoiceId}/pdf`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(String(res.headers['content-disposition'])).toContain(
      `attachment; filename="Invoice_${inv.number}.pdf"`,
    );
    const bytes = res.rawPayload;
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const raw = bytes.toString('latin1');
    // The font travels with the document (a TrueType subset), never a standard font that cannot print ł.
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans\b/);
    expect(raw).toContain('/FontFile2');
    expect(raw).not.toContain('/Helvetica');

    const text = await pdfText(bytes);
    for (const expected of [
      'Łukasz Żółć',
      'ul. Świętokrzyska 12',
      'Kraków',
      'A0000042',
      'INVOICE',
      inv.number,
      'Nov 2, 2026',
      'Dec 2, 2026',
      '12 Guild Street',
      'Springfield, IL 62701',
      'Annual dues – Żółć family',
      'Conference ticket',
      '$200.00',
      '−$20.00',
      '$10.00', // tax on the tickets
      'Subtotal',
      '$300.00',
      'Total',
      '$290.00',
      'Payments and credits',
      'check #1043',
      'Paid and credited',
      '−$100.00',
      'Balance due',
      '$190.00',
      'Thank you for your membership.',
      'Partially paid',
    ])
      expect(text, expected).toContain(expected);
  });

  it("prints the association's logo when it has one, and a paid stamp", async () => {
    const png = await sharp({ create: { width: 400, height: 120, channels: 3, background: '#1c7ed6' } })
      .png()
      .toBuffer();
    const up = await uploadFile(ctx.app, adminCookie, '/api/images/Upload/1/0', png, 'logo.png', 'image/png');
    expect(up.statusCode, up.body).toBe(200);
    const inv = await issue(bob);
    await staff.post('/api/billing/payments/record', {
      contactId: bob,
      amountCents: 12_000,
      method: 'cash',
      applications: [{ invoiceId: inv.invoiceId, amountCents: 12_000 }],
    });
    const res = await staff.get(`/api/billing/invoices/${inv.invoiceId}/pdf?open=true`);
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-disposition'])).toMatch(/^inline;/);
    const raw = res.rawPayload.toString('latin1');
    expect(raw).toContain('/Subtype /Image');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Brown');
    expect(text).toContain('PAID');
    expect(text).toContain('Balance due');
  });

  it('a member downloads their own invoices only; another association sees none', async () => {
    const mine = await issue(lukasz);
    const bobs = await issue(bob);
    const account = (await member.get('/api/billing/member/account')).json() as {
      contactId: number;
      invoices: { invoiceId: number; number: string; balanceCents: number }[];
    };
    expect(account.contactId).toBe(lukasz);
    expect(account.invoices.map((i) => i.invoiceId)).toContain(mine.invoiceId);
    expect(account.invoices.map((i) => i.invoiceId)).not.toContain(bobs.invoiceId);
    expect((await otherStaff.get('/api/billing/member/account')).statusCode).toBe(403);
    const res = await member.get(`/api/billing/member/invoices/${mine.invoiceId}/pdf`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await pdfText(res.rawPayload)).toContain('Łukasz Żółć');
    expect((await member.get(`/api/billing/member/invoices/${bobs.invoiceId}/pdf`)).statusCode).toBe(404);
    expect((await member.get(`/api/billing/invoices/${mine.invoiceId}/pdf`)).statusCode).toBe(403);
    expect((await otherStaff.get(`/api/billing/invoices/${mine.invoiceId}/pdf`)).statusCode).toBe(404);
  });
});

describe('invoice by mail', () => {
  it('mails the invoice to the contact with its PDF attached, and keeps it in the outbox', async () => {
    const inv = await issue(lukasz);
    // What the earlier tests sent in the background (a payment's receipt) is delivered before the inbox is emptied.
    await ctx.app.background.settled();
    inbox.length = 0;
    const res = await staff.post(`/api/billing/invoices/${inv.invoiceId}/send`, {
      message: 'Dziękujemy – see you at the conference.',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      to: 'lukasz@example.org',
      subject: expect.stringContaining(inv.number),
    });
    const { subject } = res.json() as { subject: string };
    await ctx.app.background.settled();

    const admin = client(ctx.app, adminCookie);
    const outbox = (await admin.get('/api/mail/outbox')).json() as { id: number; subject: string }[];
    const kept = outbox.find((m) => m.subject.includes(inv.number));
    expect(kept).toBeDefined();
    const message = (await admin.get(`/api/mail/outbox/${kept?.id}`)).json() as {
      to: string;
      text: string;
      sentAt: string | null;
      attachments: { filename: string; contentType: string; size: number }[];
    };
    expect(message.to).toBe('lukasz@example.org');
    expect(message.text).toContain('Dear Łukasz');
    expect(message.text).toContain('Dziękujemy – see you at the conference.');
    expect(message.text).toContain('$120.00');
    expect(message.sentAt).not.toBeNull();
    expect(message.attachments).toEqual([
      { filename: `Invoice ${inv.number}.pdf`, contentType: 'application/pdf', size: expect.any(Number) },
    ]);

    // Delivered by SMTP with the PDF itself.
    // This message once: a daily job this instance claimed on a shared database may have mailed the contact too.
    const subjects = await Promise.all(inbox.map(async (m) => (await simpleParser(m)).subject));
    const delivered = inbox.filter((_, i) => subjects[i] === subject);
    expect(delivered).toHaveLength(1);
    const raw = delivered[0] ?? '';
    expect(raw).toMatch(/Content-Type: application\/pdf/);
    const part = raw.split(/\r?\n--/).find((p) => /Content-Type: application\/pdf/.test(p)) ?? '';
    const body = part
      .split(/\r?\n\r?\n/)
      .slice(1)
      .join('')
      .replace(/[^A-Za-z0-9+/=]/g, '');
    const pdf = Buffer.from(body, 'base64');
    expect(pdf.length).toBe(message.attachments[0]?.size);
    expect(await pdfText(pdf)).toContain('Łukasz Żółć');
  });

  it('an invoice keeps the currency it was issued in when the association changes its currency', async () => {
    const setCurrency = (code: string) =>
      withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
        runFragment(
          tx,
          q`update tenants set settings = settings || ${JSON.stringify({ currency: code })}::jsonb where id = ${t.tenant.id}`,
        ),
      );
    const dollars = await issue(lukasz);
    await setCurrency('EUR');
    try {
      const euros = await issue(lukasz);
      // The record, the member's screens and the PDF: each invoice in its own currency.
      expect((await staff.get(`/api/billing/invoices/${dollars.invoiceId}`)).json().currency).toBe('USD');
      expect((await staff.get(`/api/billing/invoices/${euros.invoiceId}`)).json().currency).toBe('EUR');
      expect((await member.get(`/api/billing/member/invoices/${dollars.invoiceId}`)).json().currency).toBe(
        'USD',
      );
      const account = (await member.get('/api/billing/member/account')).json() as {
        currency: string;
        invoices: { invoiceId: number; currency: string }[];
      };
      expect(account.currency).toBe('EUR');
      expect(account.invoices.find((i) => i.invoiceId === dollars.invoiceId)?.currency).toBe('USD');
      expect(account.invoices.find((i) => i.invoiceId === euros.invoiceId)?.currency).toBe('EUR');
      const oldPdf = await pdfText(
        (await staff.get(`/api/billing/invoices/${dollars.invoiceId}/pdf`)).rawPayload,
      );
      expect(oldPdf).toContain('$120.00');
      expect(oldPdf).not.toContain('€');
      const newPdf = await pdfText(
        (await staff.get(`/api/billing/invoices/${euros.invoiceId}/pdf`)).rawPayload,
      );
      expect(newPdf).toContain('€120.00');
      expect(newPdf).not.toContain('$');

      // The mail of each: the old invoice in dollars, the new one in euros.
      const admin = client(ctx.app, adminCookie);
      const mailed: string[] = [];
      for (const inv of [dollars, euros]) {
        expect((await staff.post(`/api/billing/invoices/${inv.invoiceId}/send`, {})).statusCode).toBe(200);
        await ctx.app.background.settled();
        const outbox = (await admin.get('/api/mail/outbox')).json() as { id: number; subject: string }[];
        const kept = outbox.find((m) => m.subject.includes(inv.number));
        mailed.push(((await admin.get(`/api/mail/outbox/${kept?.id}`)).json() as { text: string }).text);
      }
      expect(mailed[0]).toContain('$120.00');
      expect(mailed[0]).not.toContain('€');
      expect(mailed[1]).toContain('€120.00');
      expect(mailed[1]).not.toContain('$');
    } finally {
      await setCurrency('USD');
    }
  });

  it('asks for an address when the contact has none, and refuses a bad one', async () => {
    const inv = await issue(bob);
    const none = await staff.post(`/api/billing/invoices/${inv.invoiceId}/send`, {});
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(
      'This contact has no email address; enter the address to send the invoice to.',
    );
    const bad = await staff.post(`/api/billing/invoices/${inv.invoiceId}/send`, { to: 'bob at example' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({ to: ['Enter a valid email address.'] });
    const ok = await staff.post(`/api/billing/invoices/${inv.invoiceId}/send`, { to: 'bob@example.org' });
    expect(ok.statusCode, ok.body).toBe(200);
    await ctx.app.background.settled();
    expect((await member.post(`/api/billing/invoices/${inv.invoiceId}/send`, {})).statusCode).toBe(403);
    expect((await otherStaff.post(`/api/billing/invoices/${inv.invoiceId}/send`, {})).statusCode).toBe(404);
  });
});

describe('deposit slip', () => {
  it('prints the checks with their numbers and payers, the cash, each count and total, and the deposit total', async () => {
    const pay = async (contactId: number, cents: number, method: 'check' | 'cash', checkNumber?: string) => {
      const res = await staff.post('/api/billing/payments/record', {
        contactId,
        amountCents: cents,
        method,
        ...(checkNumber ? { checkNumber } : {}),
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { paymentId: number }).paymentId;
    };
    const ids = [
      await pay(lukasz, 12_000, 'check', '1042'),
      await pay(bob, 4_550, 'check', '877'),
      await pay(bob, 2_000, 'cash'),
    ];
    const made = await staff.post('/api/billing/deposits/make', {
      paymentIds: ids,
      depositDate: '2026-11-20',
      reference: 'Slip 2026-47',
    });
    expect(made.statusCode, made.body).toBe(200);
    const { depositId } = made.json() as { depositId: number };
    const res = await staff.get(`/api/billing/deposits/${depositId}/slip`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(String(res.headers['content-disposition'])).toContain(`Deposit%20slip%20${depositId}.pdf`);
    const raw = res.rawPayload.toString('latin1');
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans/);
    expect(raw).not.toContain('Helvetica');
    const text = await pdfText(res.rawPayload);
    for (const expected of [
      'DEPOSIT SLIP',
      'Slip 2026-47',
      'Nov 20, 2026',
      '12 Guild Street',
      'Żółć, Łukasz',
      '1042',
      '877',
      'Checks (2)',
      '$165.50',
      'Cash (1)',
      '$20.00',
      '$185.50',
      'Deposited by',
    ])
      expect(text).toContain(expected);
    // The checks are listed by number: 877 before 1042.
    expect(text.indexOf('877')).toBeLessThan(text.indexOf('1042'));
    expect((await otherStaff.get(`/api/billing/deposits/${depositId}/slip`)).statusCode).toBe(404);
    expect((await member.get(`/api/billing/deposits/${depositId}/slip`)).statusCode).toBe(403);
  });
});
