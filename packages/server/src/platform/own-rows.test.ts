/**
 * The route flag "reads own rows" (decision 0183): every member-area route says whether it reads its caller's own
 * rows, or the start fails; a member is refused on any route that does not say it; a route that says it reads the
 * caller's contact from the pipeline (`ownContactId`), a 403 when the sign-in names none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, signedIn, type TwoAssociations, twoAssociations } from '../../test/fixtures/api.ts';
import { memberContact } from '../../test/fixtures/contacts.ts';
import { startWith } from '../../test/fixtures/start.ts';
import { features } from '../features/index.ts';
import { ownContactId, scope } from './context.ts';
import { defineFeature } from './feature-module.ts';

/** Test routes: one of the member's own rows, one of the member area's shared ones, one that says nothing. */
const probe = defineFeature({
  name: 'probe',
  routes: async (app) => {
    app.get('/api/probe/mine', {
      config: { permission: 'member-area', scoped: true, ownRows: true },
      handler: async (req) => ({ contactId: await ownContactId(req), tenant: scope(req).auth.tenantId }),
    });
    app.get('/api/probe/shared', {
      config: { permission: 'member-area', scoped: true, ownRows: false },
      handler: async () => ({ ok: true }),
    });
    app.get('/api/probe/staff', {
      config: { permission: 'authenticated', scoped: true },
      handler: async () => ({ ok: true }),
    });
    app.get('/api/probe/own-undeclared', {
      config: { permission: 'authenticated', scoped: true },
      handler: async (req) => ({ contactId: await ownContactId(req) }),
    });
  },
});

describe('a member-area route must say whether it reads its own rows', { timeout: 120_000 }, () => {
  it('fails the start without the flag, outside the member area, or unscoped', async () => {
    const silent = defineFeature({
      name: 'silent',
      routes: async (app) => {
        app.get('/api/silent', {
          config: { permission: 'member-area', scoped: true },
          handler: async () => ({}),
        });
      },
    });
    expect(((await startWith([...features, silent])) as Error).message).toBe(
      "Route GET /api/silent is in the member area: declare config.ownRows (whether it reads its caller's own rows).",
    );
    const staffOwn = defineFeature({
      name: 'staffOwn',
      routes: async (app) => {
        app.get('/api/staff-own', {
          config: { permission: 'backoffice', scoped: true, ownRows: true },
          handler: async () => ({}),
        });
      },
    });
    expect(((await startWith([...features, staffOwn])) as Error).message).toBe(
      'Route GET /api/staff-own declares ownRows outside the member area.',
    );
    const unscoped = defineFeature({
      name: 'unscoped',
      routes: async (app) => {
        app.get('/api/unscoped', {
          config: { permission: 'member-area', ownRows: true },
          handler: async () => ({}),
        });
      },
    });
    expect(((await startWith([...features, unscoped])) as Error).message).toBe(
      "Route GET /api/unscoped reads its caller's own rows: declare config.scoped too.",
    );
  });

  it('two modules that both name the caller’s contact fail the start', async () => {
    const second = defineFeature({ name: 'second', callerContact: async () => null });
    expect(((await startWith([...features, second])) as Error).message).toBe(
      'Feature modules: contacts and second both say how a sign-in names its contact (callerContact); one may.',
    );
  });
});

describe('the pipeline with the flag', { timeout: 120_000 }, () => {
  let base: TwoAssociations;
  let member: Api;
  let staff: Api;
  let otherMember: Api;
  beforeAll(async () => {
    base = await twoAssociations({}, { modules: [...features, probe] });
    member = await signedIn(base.ctx.app, base.t.member);
    staff = await signedIn(base.ctx.app, base.t.staff);
    otherMember = await signedIn(base.ctx.app, base.other.member);
  });
  afterAll(() => base?.ctx.close());

  it('gives an own-rows route the caller’s contact, and refuses a sign-in without one', async () => {
    const none = await member.get('/api/probe/mine');
    expect(none.statusCode, none.body).toBe(403);
    expect(none.json().message).toBe(
      'Your sign-in is not linked to a contact; ask the association to link it.',
    );
    const id = await memberContact(base.ctx, base.t, staff, { FirstName: 'Own', LastName: 'Rows' });
    const mine = await member.get('/api/probe/mine');
    expect(mine.statusCode, mine.body).toBe(200);
    expect(mine.json()).toEqual({ contactId: id, tenant: base.t.tenant.id });
    // Another association's member is not given it.
    expect((await otherMember.get('/api/probe/mine')).statusCode).toBe(403);
  });

  it('refuses a member on staff routes and on routes that do not say they are theirs', async () => {
    expect((await member.get('/api/probe/shared')).statusCode).toBe(200);
    // Their own account's routes stay open.
    expect((await member.get('/api/probe/staff')).statusCode).toBe(200);
    for (const url of ['/api/setup/users', '/api/contacts/contacts', '/api/audit']) {
      expect((await member.get(url)).statusCode, url).toBe(403);
    }
    // Staff are refused on the member's own rows (no member-area permission).
    expect((await staff.get('/api/probe/mine')).statusCode).toBe(403);
  });

  it('a route that reads the caller’s contact without declaring ownRows fails loudly', async () => {
    const res = await member.get('/api/probe/own-undeclared');
    expect(res.statusCode).toBe(500);
  });
});
