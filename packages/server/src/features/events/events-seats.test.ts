/**
 * Seats taken in one conditional statement (decision 0140): registrations sent at once never take more seats than
 * the occurrence has, whether they are guests (one statement) or contacts (the seats, then the duplicate check and
 * the writes), and the same contact sent several times at once holds one place. Run with TEST_DATABASE_URL, the
 * requests race on real PostgreSQL connections; on PGlite they take turns.
 */
import { rowsOf, withTenantTx } from '@guildhall/db';
import { createUser } from '@guildhall/db/seed/factories';
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

type Model = Record<string, unknown>;
let ctx: TestContext;
let t: TenantWithUsers;
let staff: ReturnType<typeof client>;

const future = (days: number, hourUtc: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setUTCHours(hourUtc, 0, 0, 0);
  return d.toISOString();
};

async function save(path: string, model: Model): Promise<Model> {
  const res = await staff.post(path, model);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { Data: Model }).Data;
}

async function occurrenceOf(Name: string, Capacity: number, WaitlistEnabled: boolean) {
  const event = await save('/api/events/events/eventSave', {
    Name,
    Status: 'published',
    Visibility: 'public',
    RegistrationOpen: true,
    WaitlistEnabled,
    Capacity,
    StartsAt: future(25, 17),
    EndsAt: future(25, 19),
  });
  const id = await staff.get(`/api/events/getEventId/${event.EventId}`);
  return Number((id.json() as { EventDetailId: number }).EventDetailId);
}

async function stored(detailId: number) {
  const [row] = rowsOf<{ registered: number; seats: number }>(
    await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(sql`select (select count(*)::int from event_attendees where tenant_id = ${t.tenant.id}
          and event_detail_id = ${detailId} and event_attendee_status_id = 4) as registered,
        (select seats_taken from event_details where tenant_id = ${t.tenant.id}
          and event_detail_id = ${detailId}) as seats`),
    ),
  );
  return { registered: Number(row?.registered), seats: Number(row?.seats) };
}

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  staff = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
}, 300_000);

afterAll(async () => {
  await ctx?.close();
});

describe('seats decided in one statement', { timeout: 300_000 }, () => {
  it('guests and parties sent at once never take more seats than there are', async () => {
    const detailId = await occurrenceOf('Small workshop', 7, false);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        staff.post('/api/events/registrations', {
          EventDetailId: detailId,
          // A party of two every third time: a party is never split.
          Attendees:
            i % 3 === 0 ? [{ Name: `Guest ${i}a` }, { Name: `Guest ${i}b` }] : [{ Name: `Guest ${i}` }],
        }),
      ),
    );
    const seated = answers
      .filter((a) => a.statusCode === 200)
      .reduce((n, a) => n + (a.json() as { Attendees: unknown[] }).Attendees.length, 0);
    expect(seated).toBeLessThanOrEqual(7);
    for (const a of answers.filter((x) => x.statusCode !== 200)) {
      expect(a.statusCode).toBe(409);
      expect((a.json() as { message: string }).message).toMatch(
        /^(This event is full|Only 1 seat is left); no more registrations are taken\.$/,
      );
    }
    expect(await stored(detailId)).toEqual({ registered: seated, seats: seated });
    // Filled to the last seat that a party could take.
    expect(seated).toBeGreaterThanOrEqual(6);
  });

  it('contacts sent at once: each holds one place, a second request for the same contact is refused', async () => {
    const detailId = await occurrenceOf('Board dinner', 3, true);
    const contacts: number[] = [];
    for (const name of ['Ama', 'Bo', 'Cy', 'Dee', 'Eli']) {
      const c = await save('/api/contacts/contacts/contactSave', {
        ContactType: 'individual',
        Status: 'active',
        FirstName: name,
        LastName: 'Racer',
      });
      contacts.push(Number(c.ContactId));
    }
    // Each contact three times at once.
    const answers = await Promise.all(
      contacts.flatMap((ContactId) =>
        [0, 1, 2].map(() => staff.post('/api/events/registrations', { EventDetailId: detailId, ContactId })),
      ),
    );
    const ok = answers.filter((a) => a.statusCode === 200).map((a) => a.json() as { outcome: string });
    expect(ok).toHaveLength(5);
    expect(ok.filter((a) => a.outcome === 'registered')).toHaveLength(3);
    expect(ok.filter((a) => a.outcome === 'waitlisted')).toHaveLength(2);
    const refused = answers.filter((a) => a.statusCode !== 200);
    expect(refused).toHaveLength(10);
    for (const a of refused) {
      expect(a.statusCode).toBe(409);
      expect((a.json() as { message: string }).message).toBe('Already registered for this occurrence.');
    }
    expect(await stored(detailId)).toEqual({ registered: 3, seats: 3 });
  });

  it('a batch of registrations sent at once gives exactly the seats there are, each its own answer', async () => {
    const detailId = await occurrenceOf('Group commit', 20, false);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        staff.post('/api/events/registrations', {
          EventDetailId: detailId,
          Attendees: [{ Name: `Racer ${i}` }],
        }),
      ),
    );
    const ok = answers.filter((a) => a.statusCode === 200);
    expect(ok).toHaveLength(20);
    for (const a of ok) {
      const body = a.json() as {
        outcome: string;
        RegistrationId: number;
        Attendees: { AttendeeName: string }[];
      };
      expect(body.outcome).toBe('registered');
      expect(body.Attendees).toHaveLength(1);
    }
    // Each answer names its own registration and its own attendee.
    expect(new Set(ok.map((a) => (a.json() as { RegistrationId: number }).RegistrationId)).size).toBe(20);
    for (const [i, a] of answers.entries())
      if (a.statusCode === 200)
        expect((a.json() as { Attendees: { AttendeeName: string }[] }).Attendees[0]?.AttendeeName).toBe(
          `Racer ${i}`,
        );
    for (const a of answers.filter((x) => x.statusCode !== 200)) {
      expect(a.statusCode).toBe(409);
      expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(a.json()).toEqual({ message: 'This event is full; no more registrations are taken.' });
    }
    expect(await stored(detailId)).toEqual({ registered: 20, seats: 20 });
  });

  it('a batch whose transaction fails after taking the last seats loses nothing and refuses no one wrongly', async () => {
    // The batch's seat statement takes every seat left, then its write fails (a database fault on one attendee):
    // the whole transaction rolls back, so "full" was never true. Each registration is then taken alone: the
    // faulty one fails on its own, the others take the seats (exactly the seats there are) and only those past the
    // last seat are refused as full.
    const detailId = await occurrenceOf('Rolled back batch', 5, false);
    const fn = 'events_seats_fault';
    await ctx.database.ownerExec(`
      CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER AS $$
      BEGIN IF NEW.attendee_name = 'Faulty guest' THEN RAISE EXCEPTION 'Injected fault'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER ${fn} BEFORE INSERT ON event_attendees FOR EACH ROW EXECUTE FUNCTION ${fn}();`);
    let answers: Awaited<ReturnType<typeof staff.post>>[];
    try {
      answers = await Promise.all(
        ['Faulty guest', ...Array.from({ length: 8 }, (_, i) => `Guest ${i}`)].map((Name) =>
          staff.post('/api/events/registrations', { EventDetailId: detailId, Attendees: [{ Name }] }),
        ),
      );
    } finally {
      await ctx.database.ownerExec(`DROP TRIGGER ${fn} ON event_attendees; DROP FUNCTION ${fn}();`);
    }
    expect(answers[0]?.statusCode).toBe(500);
    const others = answers.slice(1);
    expect(others.filter((a) => a.statusCode === 200)).toHaveLength(5);
    for (const a of others.filter((x) => x.statusCode !== 200)) {
      expect(a.statusCode).toBe(409);
      expect(a.json()).toEqual({ message: 'This event is full; no more registrations are taken.' });
    }
    expect(await stored(detailId)).toEqual({ registered: 5, seats: 5 });
  });

  it('a full occurrence refused without the database takes a registration again once a seat frees', async () => {
    const detailId = await occurrenceOf('Known full', 2, false);
    const first = await Promise.all(
      [0, 1, 2].map((i) =>
        staff.post('/api/events/registrations', {
          EventDetailId: detailId,
          Attendees: [{ Name: `Early ${i}` }],
        }),
      ),
    );
    expect(first.filter((a) => a.statusCode === 200)).toHaveLength(2);
    const late = await staff.post('/api/events/registrations', {
      EventDetailId: detailId,
      Attendees: [{ Name: 'Late' }],
    });
    expect(late.statusCode).toBe(409);
    // A seat frees: the next registration takes it, at once (the cancel forgets "full").
    const seated = first.find((a) => a.statusCode === 200)?.json() as { Attendees: { AttendeeId: number }[] };
    const cancel = await staff.post(`/api/events/attendees/${seated.Attendees[0]?.AttendeeId}/cancel`);
    expect(cancel.statusCode, cancel.body).toBe(200);
    const again = await staff.post('/api/events/registrations', {
      EventDetailId: detailId,
      Attendees: [{ Name: 'Second chance' }],
    });
    expect(again.statusCode, again.body).toBe(200);
    // Freed behind this process's back (another app process): refused for at most the short time to live.
    await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(sql`update event_details set capacity = 3 where tenant_id = ${t.tenant.id}
        and event_detail_id = ${detailId}`),
    );
    await new Promise((r) => setTimeout(r, 1100));
    const afterTtl = await staff.post('/api/events/registrations', {
      EventDetailId: detailId,
      Attendees: [{ Name: 'After the TTL' }],
    });
    expect(afterTtl.statusCode, afterTtl.body).toBe(200);
    expect(await stored(detailId)).toEqual({ registered: 3, seats: 3 });
  });

  it('members sent at once: one place each, the same member twice in one batch refused as already registered', async () => {
    const detailId = await occurrenceOf('Members batch', 5, false);
    const member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
    const contact = await save('/api/contacts/contacts/contactSave', {
      ContactType: 'individual',
      Status: 'active',
      FirstName: 'Mo',
      LastName: 'Member',
    });
    await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(sql`update contacts set user_id = ${t.member.id} where tenant_id = ${t.tenant.id}
        and contact_id = ${Number(contact.ContactId)}`),
    );
    const answers = await Promise.all(
      [0, 1, 2].map(() => member.post('/api/events/member/register', { EventDetailId: detailId })),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.statusCode !== 200)) {
      expect(a.statusCode).toBe(409);
      expect((a.json() as { message: string }).message).toBe('Already registered for this occurrence.');
    }
    expect(await stored(detailId)).toEqual({ registered: 1, seats: 1 });
  });

  it('members sent at once are taken in the batch: exactly the seats there are, each member their own place', async () => {
    const detailId = await occurrenceOf('Members burst', 5, false);
    const names = ['Ada', 'Ben', 'Cai', 'Dot', 'Eve', 'Fay', 'Gus', 'Hal'];
    const members = [];
    for (const name of names) {
      const user = await createUser(ctx.database.db, {
        tenantId: t.tenant.id,
        username: `burst.${name.toLowerCase()}.${Date.now().toString(36)}`,
        password: 'member-password-2026',
        role: 'member',
      });
      const contact = await save('/api/contacts/contacts/contactSave', {
        ContactType: 'individual',
        Status: 'active',
        FirstName: name,
        LastName: 'Burst',
      });
      await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
        tx.execute(sql`update contacts set user_id = ${user.id} where tenant_id = ${t.tenant.id}
          and contact_id = ${Number(contact.ContactId)}`),
      );
      members.push(client(ctx.app, (await signIn(ctx.app, user)).cookie));
    }
    const scoped = { ...ctx.app.pipelineCounts };
    const answers = await Promise.all(
      members.map((m) => m.post('/api/events/member/register', { EventDetailId: detailId })),
    );
    // None of them ran in a scoped transaction of its own: they waited for the occurrence's batch.
    expect(ctx.app.pipelineCounts).toEqual(scoped);
    const ok = answers.filter((a) => a.statusCode === 200);
    expect(ok).toHaveLength(5);
    for (const [i, a] of answers.entries()) {
      if (a.statusCode === 200) {
        const body = a.json() as { outcome: string; Attendees: { AttendeeName: string }[] };
        expect(body.outcome).toBe('registered');
        // Each member's place is their own contact's.
        expect(body.Attendees.map((x) => x.AttendeeName)).toEqual([`${names[i]} Burst`]);
      } else {
        expect(a.statusCode).toBe(409);
        expect(a.json()).toEqual({ message: 'This event is full; no more registrations are taken.' });
      }
    }
    expect(await stored(detailId)).toEqual({ registered: 5, seats: 5 });
    // A member whose sign-in names no contact is refused with the pipeline's message, as on a scoped route.
    const stranger = await createUser(ctx.database.db, {
      tenantId: t.tenant.id,
      username: `burst.nocontact.${Date.now().toString(36)}`,
      password: 'member-password-2026',
      role: 'member',
    });
    const none = await client(ctx.app, (await signIn(ctx.app, stranger)).cookie).post(
      '/api/events/member/register',
      { EventDetailId: await occurrenceOf('No contact', 5, false) },
    );
    expect(none.statusCode, none.body).toBe(403);
  });
});
