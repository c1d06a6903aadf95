import { withTenantTx } from '@guildhall/db';
import { INVITATION_MESSAGES } from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
  unique,
} from '../../../test/helpers.ts';
import { type Inbox, startInbox } from '../../../test/smtp-inbox.ts';

let ctx: TestContext;
let inbox: Inbox;
let t: TenantWithUsers;
let other: TenantWithUsers;
let admin: ReturnType<typeof client>;

beforeAll(async () => {
  inbox = await startInbox();
  ctx = await testApp({ smtpUrl: inbox.url });
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
});
afterAll(async () => {
  await ctx.close();
  await inbox.close();
});

/** The token of the latest invitation mailed to `to` (after `skip` earlier ones). */
async function tokenFor(to: string, count = 1): Promise<string> {
  const until = Date.now() + 10_000;
  for (;;) {
    const mails = inbox.messages.filter((m) => m.toLowerCase().includes(`to: ${to.toLowerCase()}`));
    if (mails.length >= count) {
      const m = /invitation\?token=([A-Za-z0-9_-]+)/.exec(mails[count - 1] ?? '');
      if (!m?.[1]) throw new Error('no invitation link');
      return m[1];
    }
    if (Date.now() > until) throw new Error(`no mail ${count} to ${to}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const pub = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) =>
  ctx.app.inject({ method, url, ...(payload ? { payload } : {}) });

describe('staff invitations', () => {
  it('invites by email with a role; the pending user shows with Resend until the link is accepted', async () => {
    const email = `${unique('lin')}@example.org`;
    const res = await admin.post('/api/users/invitations/invite', {
      Email: email,
      DisplayName: 'Lin Park',
      Role: 'staff',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(INVITATION_MESSAGES.sent);
    const token = await tokenFor(email);

    // The outbox keeps the mail without the link's token; the token is stored only as its hash.
    const outbox = (await admin.get('/api/mail/outbox')).json() as {
      id: number;
      to: string;
      subject: string;
    }[];
    const kept = outbox.find((m) => m.to === email);
    expect(kept?.subject).toBe(`You are invited to ${t.tenant.name}`);
    const body = (await admin.get(`/api/mail/outbox/${kept?.id}`)).json() as { text: string };
    expect(body.text).toContain('Lin Park');
    expect(body.text).not.toContain(token);
    const stored = await ctx.database.db.execute(
      sql`select count(*)::int as n from invitation_tokens where token_hash = ${token}`,
    );
    expect((stored as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(0);

    const pending = (await admin.get('/api/users/invitations')).json();
    expect(pending).toEqual([
      expect.objectContaining({
        email,
        displayName: 'Lin Park',
        role: 'staff',
        expired: false,
        sendCount: 1,
      }),
    ]);
    // Staff read the list; only administrators invite.
    const staff = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
    expect((await staff.get('/api/users/invitations')).statusCode).toBe(200);
    expect(
      (await staff.post('/api/users/invitations/invite', { Email: 'x@example.org', Role: 'staff' }))
        .statusCode,
    ).toBe(403);
    // Another association sees none of it.
    const foreign = client(ctx.app, (await signIn(ctx.app, other.admin)).cookie);
    expect((await foreign.get('/api/users/invitations')).json()).toEqual([]);
    const id = pending[0].invitationId as number;
    expect((await foreign.post(`/api/users/invitations/${id}/revoke`)).statusCode).toBe(404);

    const info = (await pub('GET', `/api/users/invitations/by-token/${token}`)).json();
    expect(info).toMatchObject({ Valid: true, Email: email, AssociationName: t.tenant.name, Role: 'staff' });
    expect(info.HasAccount).toBe(false);

    const username = unique('lin.');
    // A weak password and a taken username are refused, and leave the link usable.
    const weak = await pub('POST', '/api/users/invitations/accept', {
      Token: token,
      NewUsername: username,
      DisplayName: 'Lin Park',
      NewPassword: 'short',
    });
    expect(weak.statusCode).toBe(400);
    const taken = await pub('POST', '/api/users/invitations/accept', {
      Token: token,
      NewUsername: t.staff.username,
      DisplayName: 'Lin Park',
      NewPassword: 'a long enough password',
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json().errors.NewUsername).toEqual([INVITATION_MESSAGES.usernameTaken]);

    const ok = await pub('POST', '/api/users/invitations/accept', {
      Token: token,
      NewUsername: username,
      DisplayName: 'Lin Park',
      NewPassword: 'a long enough password',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().message).toBe(INVITATION_MESSAGES.accepted);
    // Single use.
    const again = await pub('POST', '/api/users/invitations/accept', {
      Token: token,
      NewUsername: unique('lin2.'),
      DisplayName: 'Lin Park',
      NewPassword: 'a long enough password',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(INVITATION_MESSAGES.linkInvalid);
    expect((await pub('GET', `/api/users/invitations/by-token/${token}`)).json().Valid).toBe(false);

    const { me } = await signIn(ctx.app, { username, password: 'a long enough password' });
    expect(me.tenant.id).toBe(t.tenant.id);
    expect(me.role).toBe('staff');
    expect(me.area).toBe('backoffice');
    expect((await admin.get('/api/users/invitations')).json()).toEqual([]);
    const users = (await admin.get('/api/setup/users')).json().Results as {
      Username: string;
      Role: string;
    }[];
    expect(users.find((u) => u.Username === username)?.Role).toBe('staff');

    const audit = (await admin.get('/api/audit')).json() as { action: string; entityId: string }[];
    const actions = audit.filter((a) => a.entityId === String(id)).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['invite', 'invite-accept']));
  });

  it('Resend sends a new link and the old one stops working; Revoke ends it', async () => {
    const email = `${unique('sam')}@example.org`;
    const res = await admin.post('/api/users/invitations/invite', { Email: email, Role: 'admin' });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().invitationId as number;
    const first = await tokenFor(email, 1);
    // A second invitation of the same address is refused: Resend is the way.
    const twice = await admin.post('/api/users/invitations/invite', {
      Email: email.toUpperCase(),
      Role: 'staff',
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe(INVITATION_MESSAGES.alreadyInvited);

    const resent = await admin.post(`/api/users/invitations/${id}/resend`);
    expect(resent.statusCode, resent.body).toBe(200);
    const second = await tokenFor(email, 2);
    expect(second).not.toBe(first);
    expect((await pub('GET', `/api/users/invitations/by-token/${first}`)).json().Valid).toBe(false);
    expect((await pub('GET', `/api/users/invitations/by-token/${second}`)).json().Valid).toBe(true);
    const row = (await admin.get('/api/users/invitations'))
      .json()
      .find((i: { invitationId: number }) => i.invitationId === id);
    expect(row.sendCount).toBe(2);

    expect((await admin.post(`/api/users/invitations/${id}/revoke`)).statusCode).toBe(200);
    expect((await pub('GET', `/api/users/invitations/by-token/${second}`)).json().Valid).toBe(false);
    const late = await pub('POST', '/api/users/invitations/accept', {
      Token: second,
      NewUsername: unique('sam.'),
      DisplayName: 'Sam',
      NewPassword: 'a long enough password',
    });
    expect(late.statusCode).toBe(400);
    expect((await admin.post(`/api/users/invitations/${id}/resend`)).statusCode).toBe(409);
    // Revoked: the address may be invited again.
    expect(
      (await admin.post('/api/users/invitations/invite', { Email: email, Role: 'staff' })).statusCode,
    ).toBe(200);
  });

  it('an expired link is refused; Resend renews it', async () => {
    const email = `${unique('exp')}@example.org`;
    const id = (await admin.post('/api/users/invitations/invite', { Email: email, Role: 'staff' })).json()
      .invitationId as number;
    const token = await tokenFor(email);
    await ctx.database.db.execute(
      sql`update invitation_tokens set expires_at = now() - interval '1 minute' where invitation_id = ${id} and tenant_id = ${t.tenant.id}`,
    );
    await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(
        sql`update staff_invitations set expires_at = now() - interval '1 minute' where invitation_id = ${id}`,
      ),
    );
    const late = await pub('POST', '/api/users/invitations/accept', {
      Token: token,
      NewUsername: unique('exp.'),
      DisplayName: 'Ex',
      NewPassword: 'a long enough password',
    });
    expect(late.statusCode).toBe(400);
    const row = (await admin.get('/api/users/invitations'))
      .json()
      .find((i: { invitationId: number }) => i.invitationId === id);
    expect(row.expired).toBe(true);
    expect((await admin.post(`/api/users/invitations/${id}/resend`)).statusCode).toBe(200);
    const fresh = await tokenFor(email, 2);
    expect((await pub('GET', `/api/users/invitations/by-token/${fresh}`)).json().Valid).toBe(true);
  });

  it('a user of another association joins with their own account, and chooses between the two', async () => {
    const res = await admin.post('/api/users/invitations/invite', {
      Email: `${other.staff.username}@example.org`,
      Role: 'admin',
    });
    expect(res.statusCode, res.body).toBe(200);
    const token = await tokenFor(`${other.staff.username}@example.org`);
    const info = (await pub('GET', `/api/users/invitations/by-token/${token}`)).json();
    expect(info.HasAccount).toBe(true);
    const wrong = await pub('POST', '/api/users/invitations/accept', {
      Token: token,
      Username: other.staff.username,
      Password: 'not the password',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(INVITATION_MESSAGES.badCredentials);
    const ok = await pub('POST', '/api/users/invitations/accept', {
      Token: token,
      Username: other.staff.username,
      Password: other.staff.password,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().message).toBe(INVITATION_MESSAGES.joined);
    const { cookie } = await signIn(ctx.app, other.staff);
    const list = (await client(ctx.app, cookie).get('/api/auth/associations')).json() as {
      tenantId: string;
      role: string;
    }[];
    expect(list.map((a) => [a.tenantId, a.role]).sort()).toEqual(
      [
        [other.tenant.id, 'staff'],
        [t.tenant.id, 'admin'],
      ].sort(),
    );
  });

  it('refuses an address that is already a user, and a malformed one', async () => {
    const dup = await admin.post('/api/users/invitations/invite', {
      Email: `${t.staff.username}@example.org`,
      Role: 'staff',
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe(INVITATION_MESSAGES.alreadyUser);
    const bad = await admin.post('/api/users/invitations/invite', { Email: 'nope', Role: 'staff' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.Email).toBeDefined();
    const member = await admin.post('/api/users/invitations/invite', {
      Email: 'm@example.org',
      Role: 'member',
    });
    expect(member.statusCode).toBe(400);
  });
});
