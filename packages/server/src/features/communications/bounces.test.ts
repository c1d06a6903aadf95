/**
 * Bounces from delivery status notifications: real DSN shapes (Postfix, Exim, the RFC 3464 examples: delayed,
 * several recipients with a base64 report, the returned headers only) handed to `POST /api/communication/bounces`
 * as raw mail. A hard bounce marks the recipient bounced and suppresses the address (the next mailing skips it, the
 * contact's record shows it, staff may lift it); soft ones are counted; an auto-reply and a stranger's token change
 * nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withTenantTx } from '@guildhall/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
} from '../../../test/helpers.ts';

const fixtures = join(import.meta.dirname, '../../../test/fixtures/dsn');
let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let api: ReturnType<typeof client>;
let apiOther: ReturnType<typeof client>;
const tag = Date.now().toString(36);
const addr = (name: string) => `${name}.${tag}@example.org`;

async function contact(c: ReturnType<typeof client>, FirstName: string, Email: string) {
  const res = await c.post('/api/contacts/contacts/contactSave', {
    ContactType: 'individual',
    Status: 'active',
    FirstName,
    LastName: 'Bouncer',
    Email,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().Data.ContactId as number;
}

/** Sends a mailing (to the outbox: no SMTP) and answers each recipient's token by address. */
async function mailTo(c: ReturnType<typeof client>, tenantId: string, ids: number[]) {
  const created = await c.post('/api/communication/mailings', {
    Name: `Bounce test ${tag}`,
    Subject: 'News for you',
    BodyHtml: '<p>Hello!</p>',
    Audience: { Kind: 'contacts', ContactIds: ids },
  });
  expect(created.statusCode, created.body).toBe(201);
  const mailingId = created.json().MailingId as number;
  await c.post(`/api/communication/mailings/${mailingId}/send`, {});
  await ctx.app.worker.drain(tenantId);
  const rows = await withTenantTx(ctx.database.db, { tenantId }, async (tx) =>
    tx.execute(sql`select email, token from mailing_recipients where mailing_id = ${mailingId}`),
  );
  const list = ((rows as unknown as { rows?: unknown[] }).rows ?? rows) as { email: string; token: string }[];
  return {
    mailingId,
    token: Object.fromEntries(list.map((r) => [r.email, r.token])) as Record<string, string>,
  };
}

function dsn(file: string, tenantId: string, token: string, email: string): string {
  let text = readFileSync(join(fixtures, file), 'utf8');
  if (text.includes('{{DSN_BASE64}}')) {
    const status = readFileSync(join(fixtures, 'rfc3464-multi-recipient.status'), 'utf8')
      .replaceAll('{{EMAIL}}', email)
      .replace(/\n/g, '\r\n');
    text = text.replace('{{DSN_BASE64}}', Buffer.from(status).toString('base64').replace(/.{76}/g, '$&\n'));
  }
  return text
    .replaceAll('{{TENANT}}', tenantId)
    .replaceAll('{{TOKEN}}', token)
    .replaceAll('{{EMAIL}}', email)
    .replace(/\r?\n/g, '\r\n');
}

async function post(raw: string, query = '') {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/api/communication/bounces${query}`,
    headers: { 'content-type': 'message/rfc822' },
    payload: raw,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { Matched: boolean; Hard: number; Soft: number; Message: string };
}

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  api = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
  apiOther = client(ctx.app, (await signIn(ctx.app, other.admin)).cookie);
});
afterAll(async () => {
  await ctx.close();
});

describe('bounces from delivery status notifications', () => {
  it('a hard bounce (Postfix, 5.1.1) suppresses the address: the log, the contact and the next mailing show it', async () => {
    const bo = await contact(api, 'Bo', addr('bo'));
    const ada = await contact(api, 'Ada', addr('ada'));
    const sent = await mailTo(api, t.tenant.id, [bo, ada]);
    const token = sent.token[addr('bo')] as string;

    const out = await post(dsn('postfix-hard-user-unknown.eml', t.tenant.id, token, addr('bo')));
    expect(out).toMatchObject({ Matched: true, Hard: 1, Soft: 0 });

    const log = (await api.get(`/api/communication/mailings/${sent.mailingId}/recipients`)).json() as {
      Email: string;
      Status: string;
      LastError: string | null;
    }[];
    const bounced = log.find((r) => r.Email === addr('bo'));
    expect(bounced?.Status).toBe('bounced');
    expect(bounced?.LastError).toMatch(/5\.1\.1.*User unknown in virtual mailbox table/);
    expect(log.find((r) => r.Email === addr('ada'))?.Status).toBe('sent');
    const m = (await api.get(`/api/communication/mailings/${sent.mailingId}`)).json();
    expect(m.Counts).toEqual({ sent: 1, bounced: 1 });

    const d = (await api.get(`/api/communication/contacts/${bo}/deliverability`)).json();
    expect(d).toMatchObject({ Email: addr('bo'), HardBounces: 1, SoftBounces: 0 });
    expect(d.Suppressed).toMatchObject({ Reason: 'bounced' });
    expect(d.Suppressed.Detail).toMatch(/^5\.1\.1 smtp; 550 5\.1\.1/);
    expect(d.LastBounce).toMatchObject({ Kind: 'hard', Status: '5.1.1' });

    // The next mailing skips the address.
    const next = await mailTo(api, t.tenant.id, [bo, ada]);
    const nextLog = (await api.get(`/api/communication/mailings/${next.mailingId}/recipients`)).json() as {
      Email: string;
      Status: string;
    }[];
    expect(Object.fromEntries(nextLog.map((r) => [r.Email, r.Status]))).toEqual({
      [addr('bo')]: 'suppressed',
      [addr('ada')]: 'sent',
    });

    // Another association sees nothing of it; staff may lift the suppression.
    const foreign = (await apiOther.get(`/api/communication/contacts/${bo}/deliverability`)).json();
    expect(foreign).toMatchObject({ Email: null, Suppressed: null, HardBounces: 0 });
    expect((await apiOther.delete(`/api/communication/contacts/${bo}/suppression`)).statusCode).toBe(404);
    const lifted = await api.delete(`/api/communication/contacts/${bo}/suppression`);
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect(lifted.json()).toMatchObject({ Suppressed: null, HardBounces: 1 });
  });

  it('soft bounces (delayed 4.4.1, Exim giving up on 4.2.2) are counted, never suppress', async () => {
    const dee = await contact(api, 'Dee', addr('dee'));
    const sent = await mailTo(api, t.tenant.id, [dee]);
    const token = sent.token[addr('dee')] as string;

    expect(await post(dsn('rfc3464-delayed.eml', t.tenant.id, token, addr('dee')))).toMatchObject({
      Matched: true,
      Hard: 0,
      Soft: 1,
    });
    expect(await post(dsn('exim-mailbox-full-gave-up.eml', t.tenant.id, token, addr('dee')))).toMatchObject({
      Matched: true,
      Hard: 0,
      Soft: 1,
    });
    const d = (await api.get(`/api/communication/contacts/${dee}/deliverability`)).json();
    expect(d).toMatchObject({ Suppressed: null, HardBounces: 0, SoftBounces: 2 });
    expect(d.LastBounce).toMatchObject({ Kind: 'soft', Status: '4.2.2' });
    const log = (await api.get(`/api/communication/mailings/${sent.mailingId}/recipients`)).json();
    expect(log[0].Status).toBe('sent');
  });

  it('a report on several recipients in base64 (RFC 3464) counts only ours; the returned headers alone identify it', async () => {
    const lu = await contact(api, 'Louisa', addr('louisa'));
    const sent = await mailTo(api, t.tenant.id, [lu]);
    const token = sent.token[addr('louisa')] as string;
    expect(
      await post(dsn('rfc3464-multi-recipient-base64.eml', t.tenant.id, token, addr('louisa'))),
    ).toMatchObject({ Matched: true, Hard: 1, Soft: 0 });
    expect(
      (await api.get(`/api/communication/contacts/${lu}/deliverability`)).json().Suppressed,
    ).toMatchObject({
      Reason: 'bounced',
    });

    // The DSN's own addresses lost (a forwarder rewrote them): the returned message's List-Unsubscribe names it.
    const kim = await contact(api, 'Kim', addr('kim'));
    const again = await mailTo(api, t.tenant.id, [kim]);
    const kimToken = again.token[addr('kim')] as string;
    const stripped = dsn('postfix-hard-user-unknown.eml', t.tenant.id, kimToken, addr('kim'))
      .replace(/^Delivered-To: .*\r\n/m, '')
      .replace(/^To: bounces\+.*\r\n/m, 'To: postmaster@guildhall.test\r\n')
      .replace(/^X-Postfix-Sender: .*\r\n/m, '')
      .replace(/^Return-Path: <bounces\+.*\r\n/m, '');
    expect(await post(stripped)).toMatchObject({ Matched: true, Hard: 1 });
  });

  it('an auto-reply, a stranger token, or another association’s token change nothing', async () => {
    const ole = await contact(api, 'Ole', addr('ole'));
    const sent = await mailTo(api, t.tenant.id, [ole]);
    const token = sent.token[addr('ole')] as string;
    expect(await post(dsn('out-of-office.eml', t.tenant.id, token, addr('ole')))).toMatchObject({
      Matched: false,
      Message: 'Not a delivery status notification.',
    });
    expect(
      await post(dsn('postfix-hard-user-unknown.eml', t.tenant.id, 'f'.repeat(32), addr('ole'))),
    ).toMatchObject({ Matched: false });
    // The other association's id with this token: that association has no such recipient.
    expect(
      await post(dsn('postfix-hard-user-unknown.eml', other.tenant.id, token, addr('ole'))),
    ).toMatchObject({ Matched: false });
    const d = (await api.get(`/api/communication/contacts/${ole}/deliverability`)).json();
    expect(d).toMatchObject({ Suppressed: null, HardBounces: 0, SoftBounces: 0 });
    const empty = await ctx.app.inject({
      method: 'POST',
      url: '/api/communication/bounces',
      headers: { 'content-type': 'message/rfc822' },
      payload: '',
    });
    expect(empty.json()).toMatchObject({ Matched: false });
    // A JSON body is not a mail: refused as such, not a server error.
    const json = await ctx.app.inject({
      method: 'POST',
      url: '/api/communication/bounces',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ broken: true }),
    });
    expect(json.statusCode).toBe(415);
    expect(json.json().message).toMatch(/raw mail/);
  });
});
