/**
 * Seats taken in one conditional statement (decision 0140): registrations sent at once never take more seats than
 * the occurrence has, whether they are guests (one statement) or contacts (the seats, then the duplicate check and
 * the writes), and the same contact sent several times at once holds one place. Run with TEST_DATABASE_URL, the
 * requests race on real PostgreSQL connections; on PGlite they take turns.
 */
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
});

afterAll(async () => {
  await ctx?.close();
});

describe('seats decided in one statement', () => {
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
});
