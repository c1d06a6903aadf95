import { withTenantTx } from '@guildhall/db';
import { mergeChipHtml, mergeFieldByName } from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, signedIn, twoAssociations } from '../../../test/fixtures/api.ts';
import { contactId as contact } from '../../../test/fixtures/contacts.ts';
import { type Received, type RecordingSmtp, startRecordingSmtp } from '../../../test/fixtures/mail.ts';
import type { TenantWithUsers, TestContext } from '../../../test/helpers.ts';
import { INTERRUPTED, mailingHandler } from './mailings.service.ts';

let smtp: RecordingSmtp;
let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let api: Api;
let apiOther: Api;
const tag = Date.now().toString(36);
const addr = (name: string) => `${name}.${tag}@example.org`;

const first = () => mergeChipHtml(mergeFieldByName('Contact.FirstName') as never, { Default: 'Friend' });

beforeAll(async () => {
  smtp = await startRecordingSmtp({ refusals: true });
  ({ ctx, t, other } = await twoAssociations({
    smtpUrl: smtp.url,
    mailFrom: 'Guildhall <no-reply@guildhall.test>',
  }));
  api = await signedIn(ctx.app, t.admin);
  apiOther = await signedIn(ctx.app, other.admin);
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

/** Makes every deferred recipient and waiting job of the association due now (the backoff is minutes long). */
async function makeRetriesDue(tenantId: string) {
  await withTenantTx(ctx.database.db, { tenantId }, async (tx) => {
    await tx.execute(sql`update mailing_recipients set next_attempt_at = now() where status = 'deferred'`);
    await tx.execute(sql`update jobs set run_after = now() where status = 'queued'`);
  });
}

describe('mailings delivered', () => {
  let ada: number;
  let mailingId: number;

  it('delivers with merge fields, defers and retries, bounces and suppresses, and logs every recipient', async () => {
    ada = await contact(api, '<b>Ada</b>', addr('ada'));
    const defer = await contact(api, 'Dee', addr('defer'));
    const bounce = await contact(api, 'Bo', addr('bounce'));
    const none = await contact(api, 'Nemo', null);
    const foreign = await contact(apiOther, 'Olga', addr('olga'));

    const created = await api.post('/api/communication/mailings', {
      Name: 'November news',
      Subject: 'News for you',
      BodyHtml: `<p>Hello ${first()}!</p><p><a href="merge:Mailing.PreferencesUrl">Preferences</a></p><script>x()</script>`,
      Audience: { Kind: 'contacts', ContactIds: [ada, defer, bounce, none, foreign] },
    });
    expect(created.statusCode, created.body).toBe(201);
    mailingId = created.json().MailingId;
    expect(created.json().BodyHtml).not.toContain('<script');

    // Preview as a recipient: the contact's values, escaped.
    const preview = await api.post(`/api/communication/mailings/${mailingId}/preview`, { ContactId: ada });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().Html).toContain('Hello &lt;b&gt;Ada&lt;/b&gt;!');
    expect(preview.json().Email).toBe(addr('ada'));
    const generic = await api.post(`/api/communication/mailings/${mailingId}/preview`, {});
    expect(generic.json().Html).toContain('Hello Friend!');
    expect((await apiOther.post(`/api/communication/mailings/${mailingId}/preview`, {})).statusCode).toBe(
      404,
    );

    // Test send to oneself.
    const test = await api.post(`/api/communication/mailings/${mailingId}/test`, {
      To: addr('me'),
      ContactId: ada,
    });
    expect(test.statusCode, test.body).toBe(200);
    expect(smtp.to(addr('me'))[0]?.data).toContain('Subject: [Test] News for you');

    const sent = await api.post(`/api/communication/mailings/${mailingId}/send`, {});
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().Status).toBe('scheduled');
    await ctx.app.worker.drain(t.tenant.id);

    let m = (await api.get(`/api/communication/mailings/${mailingId}`)).json();
    expect(m.Status).toBe('sending');
    expect(m.RecipientCount).toBe(3);
    expect(m.Counts).toEqual({ sent: 1, deferred: 1, bounced: 1 });

    const mail = smtp.to(addr('ada'));
    expect(mail).toHaveLength(1);
    const message = mail[0] as Received;
    expect(message.data).toContain('Hello &lt;b&gt;Ada&lt;/b&gt;!');
    expect(message.data).toMatch(
      /List-Unsubscribe: <http:\/\/guildhall\.test\/api\/communication\/unsubscribe\/[0-9a-f-]+\/[0-9a-f]{32}>/,
    );
    expect(message.data).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(message.from).toMatch(new RegExp(`^bounces\\+${t.tenant.id}\\.[0-9a-f]{32}@guildhall\\.test$`));
    expect(smtp.to(addr('olga'))).toHaveLength(0);

    const log = (await api.get(`/api/communication/mailings/${mailingId}/recipients`)).json() as {
      Email: string;
      Status: string;
      LastError: string | null;
      Attempts: number;
    }[];
    const byEmail = Object.fromEntries(log.map((r) => [r.Email, r]));
    expect(byEmail[addr('bounce')]).toMatchObject({ Status: 'bounced', Attempts: 1 });
    expect(byEmail[addr('bounce')]?.LastError).toMatch(/550/);
    expect(byEmail[addr('defer')]).toMatchObject({ Status: 'deferred', Attempts: 1 });

    // The retry is due: delivered on the second try, and the mailing is done.
    await makeRetriesDue(t.tenant.id);
    await ctx.app.worker.drain(t.tenant.id);
    m = (await api.get(`/api/communication/mailings/${mailingId}`)).json();
    expect(m.Counts).toEqual({ sent: 2, bounced: 1 });
    expect(m.Status).toBe('sent');
    expect(smtp.to(addr('defer'))).toHaveLength(1);

    // The contact's communication history.
    const history = (await api.get(`/api/communication/contacts/${ada}/history`)).json();
    expect(history).toEqual([
      expect.objectContaining({ MailingId: mailingId, Subject: 'News for you', Status: 'sent' }),
    ]);
    expect((await apiOther.get(`/api/communication/contacts/${ada}/history`)).json()).toEqual([]);
  });

  it('one-click unsubscribe (RFC 8058) suppresses the address; the next mailing skips it and the bounced one', async () => {
    const mail = smtp.to(addr('ada'))[0] as Received;
    const url = /List-Unsubscribe: <([^>]+)>/.exec(mail.data)?.[1] as string;
    const path = new URL(url).pathname;
    const res = await ctx.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: path.replace(/[0-9a-f]{32}$/, '0'.repeat(32)),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'List-Unsubscribe=One-Click',
        })
      ).statusCode,
    ).toBe(404);

    const prefsPath = path.replace('/api/communication/unsubscribe/', '/email/preferences/');
    const page = await ctx.app.inject({ method: 'GET', url: prefsPath });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('You are unsubscribed');

    const second = await api.post('/api/communication/mailings', {
      Name: 'December news',
      Subject: 'More news',
      BodyHtml: `<p>Hi ${first()}</p>`,
      Audience: { Kind: 'filter', FilterId: 0, SearchText: tag },
    });
    const id = second.json().MailingId as number;
    await api.post(`/api/communication/mailings/${id}/send`, {});
    await ctx.app.worker.drain(t.tenant.id);
    const log = (await api.get(`/api/communication/mailings/${id}/recipients`)).json() as {
      Email: string;
      Status: string;
    }[];
    expect(Object.fromEntries(log.map((r) => [r.Email, r.Status]))).toEqual({
      [addr('ada')]: 'suppressed',
      [addr('bounce')]: 'suppressed',
      [addr('defer')]: 'sent',
    });
    expect(smtp.to(addr('ada'))).toHaveLength(1);

    // Subscribing again on the preferences page lifts the unsubscribe (not the bounce).
    const back = await ctx.app.inject({
      method: 'POST',
      url: prefsPath,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'subscribed=true',
    });
    expect(back.statusCode).toBe(303);
    expect((await ctx.app.inject({ method: 'GET', url: prefsPath })).body).toContain(
      'You receive our mailings.',
    );
  });

  it('schedules for later, cancels, and refuses to change a sent mailing', async () => {
    const draft = await api.post('/api/communication/mailings', {
      Name: 'Later',
      Subject: 'Later',
      BodyHtml: '<p>Later</p>',
      Audience: { Kind: 'contacts', ContactIds: [ada] },
    });
    const id = draft.json().MailingId as number;
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const scheduled = await api.post(`/api/communication/mailings/${id}/send`, { ScheduledAt: at });
    expect(scheduled.json()).toMatchObject({ Status: 'scheduled', ScheduledAt: at, RecipientCount: 0 });
    await ctx.app.worker.drain(t.tenant.id);
    expect((await api.get(`/api/communication/mailings/${id}`)).json().Status).toBe('scheduled');
    expect((await api.post(`/api/communication/mailings/${id}/cancel`)).json().Status).toBe('draft');
    const past = await api.post(`/api/communication/mailings/${id}/send`, {
      ScheduledAt: '2020-01-01T00:00:00Z',
    });
    expect(past.statusCode).toBe(400);
    const changed = await api.put(`/api/communication/mailings/${mailingId}`, {
      Name: 'x',
      Subject: 'x',
      BodyHtml: '',
      Audience: { Kind: 'contacts', ContactIds: [ada] },
    });
    expect(changed.statusCode).toBe(409);
    const list = (await api.get('/api/communication/mailings')).json() as { MailingId: number }[];
    expect(list.map((m) => m.MailingId)).toContain(mailingId);
    expect((await apiOther.get('/api/communication/mailings')).json()).toEqual([]);
  });

  it('a send stopped between claim and completion: after the restart no one gets two copies and no one is skipped', async () => {
    const names = ['crash1', 'crash2', 'crash3', 'crash4', 'crash5', 'crash6', 'crash7'];
    const ids: number[] = [];
    for (const n of names) ids.push(await contact(api, n, addr(n)));
    const created = await api.post('/api/communication/mailings', {
      Name: 'Interrupted',
      Subject: 'Interrupted',
      BodyHtml: `<p>Hi ${first()}</p>`,
      Audience: { Kind: 'contacts', ContactIds: ids },
    });
    const id = created.json().MailingId as number;
    // Scheduled for later, so that its job waits while the crashing run below is made by hand.
    const later = new Date(Date.now() + 3_600_000).toISOString();
    await api.post(`/api/communication/mailings/${id}/send`, { ScheduledAt: later });

    // A first run "crashes" (throws out of the job, writing nothing more) while its fourth message is handed to the
    // mail server: the server has it, the run never learns the answer; two more of that batch are claimed only.
    const real = ctx.app.services.mailer;
    let handed = 0;
    const crashing = {
      ...ctx.app.services,
      mailer: {
        ...real,
        deliver: async (tenantId: string, message: Parameters<typeof real.deliver>[1]) => {
          handed++;
          const result = await real.deliver(tenantId, message);
          if (handed === 4) throw new Error('the process stopped');
          return result;
        },
      },
    };
    await expect(
      mailingHandler(crashing, { batch: 3, concurrency: 1, rate: 0 })(ctx.database, {
        tenantId: t.tenant.id,
        id: 'crashed-run',
        kind: 'mailing-send',
        payload: { mailingId: id },
        userId: null,
        attempts: 1,
      }),
    ).rejects.toThrow('the process stopped');
    let m = (await api.get(`/api/communication/mailings/${id}`)).json();
    expect(m.Counts).toEqual({ sent: 3, sending: 1, claimed: 2, queued: 1 });
    const delivered = () => names.map((n) => smtp.to(addr(n)).length);
    expect(delivered().reduce((a, b) => a + b, 0)).toBe(4);

    // The restart (the queued job, run by the worker): the claimed ones and the rest are sent, the one in flight is
    // not sent again and says so.
    await makeRetriesDue(t.tenant.id);
    await ctx.app.worker.drain(t.tenant.id);
    m = (await api.get(`/api/communication/mailings/${id}`)).json();
    expect(m.Status).toBe('sent');
    expect(m.Counts).toEqual({ sent: 6, unknown: 1 });
    expect(delivered()).toEqual([1, 1, 1, 1, 1, 1, 1]);
    const log = (await api.get(`/api/communication/mailings/${id}/recipients`)).json() as {
      Email: string;
      Status: string;
      LastError: string | null;
    }[];
    const unknown = log.filter((r) => r.Status === 'unknown');
    expect(unknown).toHaveLength(1);
    expect(unknown[0]?.LastError).toBe(INTERRUPTED);
    expect(smtp.to(unknown[0]?.Email as string)).toHaveLength(1);
  });

  it('a send stopped by the server shutting down resumes at the next start: each recipient exactly once', async () => {
    const names = ['stop1', 'stop2', 'stop3', 'stop4', 'stop5', 'stop6', 'stop7'];
    const ids: number[] = [];
    for (const n of names) ids.push(await contact(api, n, addr(n)));
    const created = await api.post('/api/communication/mailings', {
      Name: 'Stopped',
      Subject: 'Stopped',
      BodyHtml: `<p>Hi ${first()}</p>`,
      Audience: { Kind: 'contacts', ContactIds: ids },
    });
    const id = created.json().MailingId as number;
    await api.post(`/api/communication/mailings/${id}/send`, {
      ScheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    // The worker is told to stop while the second message is with the mail server: the run ends after that
    // answer is written, leaving the rest queued for the next start, with a job to carry on.
    const real = ctx.app.services.mailer;
    const stopping = new AbortController();
    let handed = 0;
    const stopped = {
      ...ctx.app.services,
      mailer: {
        ...real,
        deliver: async (tenantId: string, message: Parameters<typeof real.deliver>[1]) => {
          handed++;
          if (handed === 2) stopping.abort();
          return real.deliver(tenantId, message);
        },
      },
    };
    await mailingHandler(stopped, { batch: 3, concurrency: 1, rate: 0 })(ctx.database, {
      tenantId: t.tenant.id,
      id: 'stopped-run',
      kind: 'mailing-send',
      payload: { mailingId: id },
      userId: null,
      attempts: 1,
      stopping: stopping.signal,
    });
    let m = (await api.get(`/api/communication/mailings/${id}`)).json();
    expect(m.Status).toBe('sending');
    expect(m.Counts).toEqual({ sent: 2, claimed: 1, queued: 4 });
    const delivered = () => names.map((n) => smtp.to(addr(n)).length);
    expect(delivered()).toEqual([1, 1, 0, 0, 0, 0, 0]);

    // The next start: the job it queued sends the rest, nobody twice, nobody in doubt.
    await ctx.app.worker.drain(t.tenant.id);
    m = (await api.get(`/api/communication/mailings/${id}`)).json();
    expect(m.Status).toBe('sent');
    expect(m.Counts).toEqual({ sent: 7 });
    expect(delivered()).toEqual([1, 1, 1, 1, 1, 1, 1]);
  });
});
