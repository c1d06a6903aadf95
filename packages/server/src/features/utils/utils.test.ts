import { createPayment } from '@guildhall/db/seed/factories';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
} from '../../../test/helpers.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let staff: ReturnType<typeof client>;

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  staff = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
});
afterAll(() => ctx.close());

describe('POST /api/utils/email/validate', () => {
  const validate = (emailAddress: string) => staff.post('/api/utils/email/validate', { emailAddress });

  it('answers Valid true with no messages for a good address', async () => {
    const res = await validate('  jane.public@example.org ');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ Data: { Valid: true, ErrorMessages: [] } });
  });

  it.each([
    ['', 'Enter an email address.'],
    [
      'jane.example.org',
      'An email address needs an @ between the name and the domain, like jane@example.org.',
    ],
    [
      'jane@example',
      'The domain "example" is incomplete: it needs a dot and an ending, like jane@example.org.',
    ],
    ['jane@@example.org', 'An email address can contain only one @.'],
    ['jane doe@example.org', 'An email address cannot contain spaces.'],
    ['jane@192.168.0.1', 'Use an address at a named domain, not at an IP address.'],
  ])('answers Valid false for %j with a message a person understands', async (emailAddress, message) => {
    const res = await validate(emailAddress);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ Data: { Valid: false, ErrorMessages: [message] } });
  });

  it('names every problem of a malformed address', async () => {
    const res = await validate('.jane@-example.c0m');
    expect(res.json().Data.Valid).toBe(false);
    expect(res.json().Data.ErrorMessages).toEqual([
      'The part before the @ cannot start or end with a dot, or have two dots in a row.',
      'Parts of the domain cannot start or end with a hyphen.',
      '".c0m" is not a valid domain ending; it should be letters, like .org or .com.',
    ]);
  });

  it('refuses a disposable mailbox, subdomains included', async () => {
    for (const emailAddress of ['someone@mailinator.com', 'someone@eu.mailinator.com']) {
      const res = await validate(emailAddress);
      expect(res.json()).toEqual({
        Data: {
          Valid: false,
          ErrorMessages: [
            'Addresses at mailinator.com are temporary and stop working; use an address you will keep.',
          ],
        },
      });
    }
  });

  it('is open to every signed-in role, members included', async () => {
    const member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
    const res = await member.post('/api/utils/email/validate', { emailAddress: 'member@example.org' });
    expect(res.statusCode).toBe(200);
    expect(res.json().Data.Valid).toBe(true);
  });

  it('answers a caller without a session (the minimal sign-up) and refuses a body without emailAddress (400)', async () => {
    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/api/utils/email/validate',
      payload: { emailAddress: 'jane@example.org' },
    });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json().Data.Valid).toBe(true);
    const missing = await staff.post('/api/utils/email/validate', {});
    expect(missing.statusCode).toBe(400);
    const extra = await staff.post('/api/utils/email/validate', {
      emailAddress: 'jane@example.org',
      other: 1,
    });
    expect(extra.statusCode).toBe(400);
  });
});

describe('GET /api/Signup/ParseName/{name}', () => {
  const parse = (name: string) =>
    ctx.app.inject({ method: 'GET', url: `/api/Signup/ParseName/${encodeURIComponent(name)}` });

  it('needs no session (sign-up comes before sign-in) and drops titles, middle names and suffixes', async () => {
    const res = await parse('Dr. Jane Q. Public Jr.');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      Data: { Name: { FirstName: 'Jane', LastName: 'Public' }, Valid: true, ErrorMessages: [] },
    });
  });

  it('reads "Last, First"', async () => {
    const res = await parse('Public, Jane');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      Data: { Name: { FirstName: 'Jane', LastName: 'Public' }, Valid: true, ErrorMessages: [] },
    });
  });

  it('keeps family-name particles with the last name', async () => {
    const res = await parse('Ludwig van Beethoven');
    expect(res.json().Data.Name).toEqual({ FirstName: 'Ludwig', LastName: 'van Beethoven' });
  });

  it('answers a single word with a 200, Valid false and the field message', async () => {
    const res = await parse('Cher');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      Data: {
        Name: { FirstName: 'Cher', LastName: '' },
        Valid: false,
        ErrorMessages: ['Enter both a first and a last name.'],
      },
    });
  });

  it('answers a title and a family name without a first name as invalid', async () => {
    const res = await parse('Dr. Smith');
    expect(res.json().Data).toMatchObject({ Name: { FirstName: '', LastName: 'Smith' }, Valid: false });
  });

  it('refuses an over-long name with a 400 and a message, never a 500', async () => {
    expect((await parse('a'.repeat(150))).statusCode).toBe(200);
    const res = await parse('a'.repeat(250));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: expect.any(String) });
  });

  it('is rate limited to 60 calls a minute per address', async () => {
    const from = (remoteAddress: string) =>
      ctx.app.inject({ method: 'GET', url: '/api/Signup/ParseName/Jane%20Public', remoteAddress });
    const answers: number[] = [];
    for (let i = 0; i < 61; i++) answers.push((await from('203.0.113.7')).statusCode);
    expect(answers.slice(0, 60).every((status) => status === 200)).toBe(true);
    const limited = await from('203.0.113.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toEqual(expect.any(String));
    expect((await from('203.0.113.8')).statusCode).toBe(200);
  });
});

describe('POST /api/utils/refund/validate', () => {
  const validate = (body: Record<string, unknown>) => staff.post('/api/utils/refund/validate', body);

  it('accepts a positive amount up to what was paid, as a number or as typed text', async () => {
    const PaymentId = await createPayment(ctx.database.db, { tenantId: t.tenant.id, amount: '100.00' });
    for (const Amount of [25, '25.00', '100', 100, 0.01]) {
      const res = await validate({ PaymentId, Amount, Reason: 'Overpaid dues' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ Data: { Valid: true }, ErrorMessages: [] });
    }
  });

  it('refuses zero and negative amounts', async () => {
    const PaymentId = await createPayment(ctx.database.db, { tenantId: t.tenant.id, amount: 40 });
    for (const Amount of [0, '0.00', -5, '-5']) {
      const res = await validate({ PaymentId, Amount });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        Data: { Valid: false },
        ErrorMessages: ['The refund amount must be more than zero.'],
      });
    }
  });

  it('refuses an amount that is not money', async () => {
    const PaymentId = await createPayment(ctx.database.db, { tenantId: t.tenant.id, amount: 40 });
    expect((await validate({ PaymentId, Amount: 'ten' })).json()).toEqual({
      Data: { Valid: false },
      ErrorMessages: ['Enter the amount to refund, like 25.00.'],
    });
    expect((await validate({ PaymentId, Amount: '1.005' })).json()).toEqual({
      Data: { Valid: false },
      ErrorMessages: ['Enter the refund amount in dollars and cents, with at most two decimals.'],
    });
  });

  it('refuses more than was paid, to the cent', async () => {
    const PaymentId = await createPayment(ctx.database.db, { tenantId: t.tenant.id, amount: '50.00' });
    expect((await validate({ PaymentId, Amount: '50.00' })).json().Data.Valid).toBe(true);
    expect((await validate({ PaymentId, Amount: '50.01' })).json()).toEqual({
      Data: { Valid: false },
      ErrorMessages: ['The refund of $50.01 is more than the $50.00 paid.'],
    });
  });

  it('refuses more than what is left after earlier refunds', async () => {
    const PaymentId = await createPayment(ctx.database.db, {
      tenantId: t.tenant.id,
      amount: 100,
      refunded: ['30.00', 20],
    });
    expect((await validate({ PaymentId, Amount: 50 })).json()).toEqual({
      Data: { Valid: true },
      ErrorMessages: [],
    });
    expect((await validate({ PaymentId, Amount: 60 })).json()).toEqual({
      Data: { Valid: false },
      ErrorMessages: [
        'The refund of $60.00 is more than the $50.00 left to refund on this payment ($100.00 paid, $50.00 already refunded).',
      ],
    });
  });

  it('refuses any refund on a payment refunded in full', async () => {
    const PaymentId = await createPayment(ctx.database.db, {
      tenantId: t.tenant.id,
      amount: '19.99',
      refunded: '19.99',
    });
    expect((await validate({ PaymentId, Amount: 1 })).json()).toEqual({
      Data: { Valid: false },
      ErrorMessages: ['This payment has already been refunded in full ($19.99).'],
    });
  });

  it("answers another association's payment exactly as an unknown one, revealing nothing", async () => {
    // Ids are numbered per association (decision 0071): the other's payment gets a number this one has not reached.
    await ctx.database.ownerExec(`select gh_reserve_ids('${other.tenant.id}', 'payments', 100000)`);
    const foreign = await createPayment(ctx.database.db, {
      tenantId: other.tenant.id,
      amount: '500.00',
      refunded: '100.00',
      reference: 'FOREIGN-REF',
    });
    const notFound = { Data: { Valid: false }, ErrorMessages: ['We could not find that payment.'] };
    const foreignRes = await validate({ PaymentId: foreign, Amount: 10 });
    expect(foreignRes.statusCode).toBe(200);
    expect(foreignRes.json()).toEqual(notFound);
    expect(foreignRes.body).not.toMatch(/500|400|FOREIGN|\$100/);
    // Over-refunding the foreign payment gives the same answer: no amount of it can be probed.
    expect((await validate({ PaymentId: foreign, Amount: 450 })).body).toBe(foreignRes.body);

    const unknown = await validate({ PaymentId: 2_147_483_000, Amount: 10 });
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(foreignRes.body);

    // The other association's admin sees it as its own payment.
    const otherAdmin = client(ctx.app, (await signIn(ctx.app, other.admin)).cookie);
    expect(
      (await otherAdmin.post('/api/utils/refund/validate', { PaymentId: foreign, Amount: 400 })).json(),
    ).toEqual({
      Data: { Valid: true },
      ErrorMessages: [],
    });
  });

  it('answers a deleted payment as not found', async () => {
    const PaymentId = await createPayment(ctx.database.db, {
      tenantId: t.tenant.id,
      amount: 10,
      isDeleted: true,
    });
    expect((await validate({ PaymentId, Amount: 5 })).json()).toEqual({
      Data: { Valid: false },
      ErrorMessages: ['We could not find that payment.'],
    });
  });

  it('refuses a malformed model with a 400, members with a 403 and callers without a session with a 401', async () => {
    const PaymentId = await createPayment(ctx.database.db, { tenantId: t.tenant.id, amount: 10 });
    expect((await validate({ Amount: 5 })).statusCode).toBe(400);
    expect((await validate({ PaymentId: 0, Amount: 5 })).statusCode).toBe(400);
    expect((await validate({ PaymentId: 'x', Amount: 5 })).statusCode).toBe(400);
    const member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
    expect((await member.post('/api/utils/refund/validate', { PaymentId, Amount: 5 })).statusCode).toBe(403);
    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/api/utils/refund/validate',
      payload: { PaymentId, Amount: 5 },
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('GET /api/utils/timezones', () => {
  it('serves the timezone options, without a session, the default zone among them', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/utils/timezones' });
    expect(res.statusCode).toBe(200);
    const options = res.json() as { TimezoneId: string; DisplayName: string; OlsonName: string }[];
    expect(options.length).toBeGreaterThan(300);
    const chicago = options.find((o) => o.OlsonName === 'America/Chicago');
    expect(chicago?.TimezoneId).toBe('America/Chicago');
    expect(chicago?.DisplayName).toMatch(/^\(UTC-0[56]:00\) Chicago, Central Time$/);
    expect(new Set(options.map((o) => o.TimezoneId)).size).toBe(options.length);
    expect(options.some((o) => o.OlsonName === 'UTC')).toBe(true);
  });
});
