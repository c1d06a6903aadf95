/**
 * The Demo Association's events: an annual conference with member, non-member and early-bird fees, a chapter
 * meeting every second Tuesday evening, webinars, a full workshop with a waitlist, and a past breakfast whose
 * attendees were checked in or did not show. Dates are relative to the day the demo is seeded.
 */
import { type Db, rowsOf, type Tx, withTenantTx } from '@guildhall/db';
import { foldSearchText, searchTextOf, todayIn } from '@guildhall/shared';
import { expandOccurrences, recurrenceRuleOf } from '@guildhall/shared/events/recurrence.rules';
import { sql } from 'drizzle-orm';
import { demoLedger } from './demo-billing.ts';

const TZ = 'America/Chicago';
const DAY = 86_400_000;

/** Noon-based day offset from today at a local hour and minute in Chicago (good enough for demo data). */
function at(days: number, hour: number, minute = 0): string {
  const d = new Date(Date.now() + days * DAY);
  const local = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), hour, minute));
  // Chicago is UTC-6 in winter and UTC-5 in summer: read the offset of that day.
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: TZ, timeZoneName: 'shortOffset' }).formatToParts(
    local,
  );
  const offset =
    Number((parts.find((p) => p.type === 'timeZoneName')?.value ?? 'GMT-6').replace('GMT', '')) || -6;
  return new Date(local.getTime() - offset * 3_600_000).toISOString();
}
const day = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

interface DemoEvent {
  name: string;
  category: string;
  startsAt: string;
  endsAt: string;
  repeats?: string;
  repeatUntil?: string;
  location?: string;
  onlineUrl?: string;
  capacity?: number;
  visibility?: 'public' | 'members';
  status?: 'published' | 'draft';
  credits?: number;
  description: string;
  types?: {
    name: string;
    member: number;
    nonMember: number;
    earlyUntil?: string;
    early?: number;
    capacity?: number;
  }[];
  /** How many demo contacts register, and what became of them (past events). */
  attendees?: number;
  past?: boolean;
}

export async function seedDemoEvents(db: Db, tenantId: string): Promise<void> {
  await withTenantTx(db, { tenantId }, async (tx) => {
    // The billing demo's ledger (absent when the association had too few contacts to bill).
    const ledger = await demoLedger(tx, tenantId, todayIn(TZ));
    const categories = new Map<string, number>();
    for (const [name, color] of [
      ['Conference', '#1c7ed6'],
      ['Chapter meeting', '#2f9e44'],
      ['Webinar', '#ae3ec9'],
      ['Workshop', '#f08c00'],
    ] as const) {
      const [row] = rowsOf<{ category_id: number }>(
        await tx.execute(
          sql`insert into event_categories (tenant_id, name, color) values (${tenantId}, ${name}, ${color}) returning category_id`,
        ),
      );
      if (row) categories.set(name, Number(row.category_id));
    }
    const contacts = rowsOf<{
      contact_id: number;
      first_name: string;
      last_name: string;
      display_name: string;
      email: string | null;
    }>(
      await tx.execute(sql`select contact_id, first_name, last_name, display_name, email from contacts
        where tenant_id = ${tenantId} and contact_type = 'individual' and status = 'active' and not is_deleted
        order by contact_id limit 120`),
    );
    const events: DemoEvent[] = [
      {
        name: 'Annual Conference 2027',
        category: 'Conference',
        startsAt: at(75, 8, 30),
        endsAt: at(77, 17),
        location: 'Hilton Chicago, 720 S Michigan Ave',
        capacity: 300,
        credits: 12,
        description:
          '<p>Three days of sessions, workshops and networking for members and friends of the association. Keynotes on governance, membership growth and advocacy.</p><ul><li>Early-bird pricing until a month before</li><li>Continuing-education credits for every session attended</li></ul>',
        types: [
          { name: 'Full conference', member: 45_000, nonMember: 65_000, earlyUntil: day(45), early: 7_500 },
          { name: 'One day', member: 20_000, nonMember: 27_500 },
          { name: 'Student', member: 9_500, nonMember: 9_500, capacity: 30 },
        ],
        attendees: 64,
      },
      {
        name: 'Chapter meeting',
        category: 'Chapter meeting',
        startsAt: at(-56, 18, 30),
        endsAt: at(-56, 20),
        repeats: 'monthlyWeekday',
        repeatUntil: day(330),
        location: 'Association office, 200 W Adams St',
        capacity: 40,
        visibility: 'members',
        description:
          '<p>Our monthly chapter meeting: news from the board, a short talk and time to meet other members.</p>',
        attendees: 18,
      },
      {
        name: 'Webinar: Governance for new board members',
        category: 'Webinar',
        startsAt: at(9, 12),
        endsAt: at(9, 13),
        onlineUrl: 'https://meet.example.org/governance',
        capacity: 500,
        credits: 1,
        description:
          '<p>An hour on the duties of a board member, conflicts of interest and reading the financial statements.</p>',
        attendees: 27,
      },
      {
        name: 'Webinar: Dues and budgeting',
        category: 'Webinar',
        startsAt: at(23, 12),
        endsAt: at(23, 13),
        onlineUrl: 'https://meet.example.org/budgeting',
        description: '<p>How to set dues that cover the year, and a budget template to take home.</p>',
        types: [{ name: 'Attendee', member: 0, nonMember: 2_500 }],
        attendees: 9,
      },
      {
        name: 'Grant writing workshop',
        category: 'Workshop',
        startsAt: at(16, 9),
        endsAt: at(16, 16),
        location: 'Association office, 200 W Adams St',
        capacity: 20,
        credits: 6,
        description:
          '<p>A hands-on day: from the funder’s guidelines to a finished proposal. Bring a project.</p>',
        types: [{ name: 'Workshop seat', member: 12_500, nonMember: 17_500 }],
        attendees: 23,
      },
      {
        name: 'Members’ networking breakfast',
        category: 'Chapter meeting',
        startsAt: at(-12, 7, 30),
        endsAt: at(-12, 9),
        location: 'The Berghoff, 17 W Adams St',
        capacity: 50,
        visibility: 'members',
        description: '<p>Coffee, breakfast and introductions.</p>',
        attendees: 31,
        past: true,
      },
      {
        name: 'Ethics and compliance workshop',
        category: 'Workshop',
        startsAt: at(-40, 9),
        endsAt: at(-40, 12),
        location: 'Association office, 200 W Adams St',
        capacity: 30,
        credits: 3,
        description:
          '<p>Three hours on the code of ethics, conflicts of interest and record keeping; three continuing-education credits.</p>',
        attendees: 21,
        past: true,
      },
      {
        name: 'Advocacy day at the Capitol',
        category: 'Conference',
        startsAt: at(120, 8),
        endsAt: at(120, 17),
        location: 'Illinois State Capitol, Springfield',
        status: 'draft',
        description: '<p>Draft: meeting legislators about the association’s priorities.</p>',
      },
    ];
    let cursor = 0;
    for (const e of events) {
      const [event] = rowsOf<{ event_id: number }>(
        await tx.execute(sql`insert into events (tenant_id, name, category_id, status, visibility, starts_at, ends_at,
            timezone_id, repeats, repeat_until, location, online_url, capacity, waitlist_enabled, registration_open,
            full_refund_days, late_refund_percent, credit_hours, description)
          values (${tenantId}, ${e.name}, ${categories.get(e.category) ?? null}, ${e.status ?? 'published'},
            ${e.visibility ?? 'public'}, ${e.startsAt}, ${e.endsAt}, ${TZ}, ${e.repeats ?? 'none'}, ${e.repeatUntil ?? null},
            ${e.location ?? null}, ${e.onlineUrl ?? null}, ${e.capacity ?? null}, true, ${!e.past}, 14, 50,
            ${e.credits ?? null}, ${e.description})
          returning event_id`),
      );
      if (!event) continue;
      const eventId = Number(event.event_id);
      // The global search's documents, as the server writes them on every save: staff see every event, members the
      // published ones.
      const category = e.category;
      const facets = JSON.stringify({
        Status: e.status ?? 'published',
        RelatedTo: category,
        City: e.location ?? (e.onlineUrl ? 'Online' : null),
      });
      for (const audience of (e.status ?? 'published') === 'published' ? ['staff', 'member'] : ['staff'])
        await tx.execute(sql`insert into search_documents (tenant_id, audience, entity_type, entity_id, title, title_key,
            search_text, facets)
          values (${tenantId}, ${audience}, 'Event', ${String(eventId)}, ${e.name}, ${foldSearchText(e.name)},
            ${searchTextOf([e.name, category, e.location ?? null])}, ${facets}::jsonb)`);
      const rule = recurrenceRuleOf(e.repeats ?? 'none', e.startsAt, TZ, e.repeatUntil ?? null);
      const occurrences = expandOccurrences(
        { startsAt: e.startsAt, endsAt: e.endsAt, timezone: TZ, rrule: rule },
        new Date(Date.now() + 400 * DAY).toISOString(),
      );
      const details: { id: number; startsAt: string }[] = [];
      for (const o of occurrences) {
        const [d] = rowsOf<{ event_detail_id: number }>(
          await tx.execute(sql`insert into event_details (tenant_id, event_id, starts_at, ends_at, original_starts_at)
            values (${tenantId}, ${eventId}, ${o.startsAt}, ${o.endsAt}, ${o.originalStartsAt}) returning event_detail_id`),
        );
        if (d) details.push({ id: Number(d.event_detail_id), startsAt: o.startsAt });
      }
      const typeIds: number[] = [];
      const typesById = new Map<number, NonNullable<DemoEvent['types']>[number]>();
      for (const t of e.types ?? []) {
        const [row] = rowsOf<{ registration_type_id: number }>(
          await tx.execute(sql`insert into event_registration_types (tenant_id, event_id, name, member_price,
              non_member_price, early_bird_until, early_bird_discount, capacity)
            values (${tenantId}, ${eventId}, ${t.name}, ${t.member}, ${t.nonMember}, ${t.earlyUntil ?? null},
              ${t.early ?? 0}, ${t.capacity ?? null}) returning registration_type_id`),
        );
        if (row) {
          typeIds.push(Number(row.registration_type_id));
          typesById.set(Number(row.registration_type_id), t);
        }
      }
      // Registrations: the next contacts in turn; a full event puts the rest on its waitlist. A repeating event's
      // people register for its next occurrence, and the past ones were attended.
      const now = Date.now();
      const targets = e.repeats
        ? [
            ...details.filter((d) => Date.parse(d.startsAt) < now).slice(-2),
            ...details.filter((d) => Date.parse(d.startsAt) >= now).slice(0, 1),
          ]
        : details.slice(0, 1);
      for (const target of targets) {
        const past = Date.parse(target.startsAt) < now;
        let taken = 0;
        const count = Math.max(1, e.attendees ?? 0);
        for (let i = 0; i < (e.attendees ?? 0) && contacts.length > 0; i++) {
          const c = contacts[(cursor + i) % contacts.length];
          if (!c) continue;
          const full = e.capacity !== undefined && taken >= e.capacity;
          let status = full ? 1 : past ? (i % 7 === 3 ? 6 : 5) : 4;
          const typeId = typeIds.length > 0 ? (typeIds[i % Math.min(typeIds.length, 2)] ?? null) : null;
          // People register over the weeks before an occurrence, in turn (the first to register take the seats,
          // the last join the waitlist): an upcoming occurrence's over the last eight weeks, a past one's in the
          // month before it took place.
          const earlier = (count - 1 - i) / count;
          const registeredDaysAgo = past
            ? Math.floor((now - Date.parse(target.startsAt)) / 86_400_000) + 3 + Math.floor(30 * earlier)
            : 2 + Math.floor(56 * earlier);
          const [reg] = rowsOf<{ registration_id: number }>(
            await tx.execute(sql`insert into event_registrations (tenant_id, event_id, event_detail_id, contact_id, channel,
                created_at)
              values (${tenantId}, ${eventId}, ${target.id}, ${c.contact_id}, 'member',
                now() - make_interval(days => ${registeredDaysAgo}) + make_interval(mins => ${i}))
              returning registration_id`),
          );
          const registrationId = Number(reg?.registration_id ?? 0);
          // A seat with a fee is billed through the ledger: a third at the non-member price, the early-bird
          // discount while it runs; one in six of the upcoming ones not paid yet (awaiting payment).
          const type = typeId === null ? undefined : typesById.get(typeId);
          const price = type
            ? (i % 3 === 0 ? type.nonMember : type.member) - (type.earlyUntil ? (type.early ?? 0) : 0)
            : 0;
          let invoiceId: number | null = null;
          let paidCents = 0;
          if (ledger && type && price > 0 && status !== 1) {
            const who = { contact_id: c.contact_id, display_name: c.display_name };
            const billed = await ledger.invoice(
              who,
              registeredDaysAgo,
              [{ description: `${e.name}: ${type.name}`, cents: price, account: 'events' }],
              { kind: 'event-registration', id: registrationId },
            );
            invoiceId = billed.invoiceId;
            if (past || i % 6 !== 5) {
              await ledger.pay(who, billed.total, 'card', Math.max(1, registeredDaysAgo - 1), [
                { invoiceId: billed.invoiceId, cents: billed.total },
              ]);
              paidCents = billed.total;
            } else status = 7;
            await tx.execute(sql`update event_registrations set invoice_id = ${invoiceId}
              where tenant_id = ${tenantId} and registration_id = ${registrationId}`);
          }
          await tx.execute(sql`insert into event_attendees (tenant_id, event_id, event_detail_id, registration_id, contact_id,
              attendee_name, attendee_email, registration_type_id, event_attendee_status_id, checked_in_at,
              credits_earned, invoice_id, paid_cents, created_at)
            values (${tenantId}, ${eventId}, ${target.id}, ${registrationId}, ${c.contact_id},
              ${`${c.first_name} ${c.last_name}`}, ${c.email}, ${typeId}, ${status},
              ${status === 5 ? target.startsAt : null}, ${status === 5 ? (e.credits ?? null) : null},
              ${invoiceId}, ${paidCents}, now() - make_interval(days => ${registeredDaysAgo}) + make_interval(mins => ${i}))`);
          if (status !== 1) taken += 1;
        }
        await tx.execute(sql`update event_details set seats_taken = ${taken}
          where tenant_id = ${tenantId} and event_detail_id = ${target.id}`);
        cursor += 7;
      }
    }
    await seedDemoCertifications(tx, tenantId);
  });
}

/**
 * Certification programmes with contacts registered in them, their progress counted from the credits they earned
 * at the past events above (as check-in keeps it, decision 0142): some completed, most in progress.
 */
async function seedDemoCertifications(tx: Tx, tenantId: string) {
  const programmes: [string, number, number, string][] = [
    [
      'Certified Association Executive',
      12,
      24,
      'Twelve credits within two years, earned at workshops and the conference.',
    ],
    ['Ethics in Practice', 3, 12, 'Three credits of ethics sessions each year.'],
    [
      'Board Governance Certificate',
      6,
      18,
      'For board members: governance workshops and chapter programmes.',
    ],
  ];
  let offset = 0;
  for (const [name, credits, months, description] of programmes) {
    const [programme] = rowsOf<{ programme_id: number }>(
      await tx.execute(sql`insert into certification_programmes (tenant_id, name, required_credits, period_months, description)
        values (${tenantId}, ${name}, ${credits}, ${months}, ${description}) returning programme_id`),
    );
    if (!programme) continue;
    // The contacts with credits first, then a few who have not attended yet.
    await tx.execute(sql`insert into certification_registrations (tenant_id, programme_id, contact_id, starts_on, ends_on, required_credits)
      select ${tenantId}, ${programme.programme_id}, c.contact_id, (current_date - 150),
        (current_date - 150 + make_interval(months => ${months}::int) - interval '1 day')::date, ${credits}
      from (select contact_id from contacts where tenant_id = ${tenantId} and contact_type = 'individual'
              and status = 'active' and not is_deleted order by contact_id offset ${offset} limit 18) c`);
    offset += 6;
  }
  await tx.execute(sql`with earned as (
      select r.certification_registration_id as id, r.required_credits, coalesce((select sum(a.credits_earned)
        from event_attendees a where a.tenant_id = r.tenant_id and a.contact_id = r.contact_id and not a.is_deleted
          and a.checked_in_at >= r.starts_on::timestamptz and a.checked_in_at < (r.ends_on + 1)::timestamptz), 0)::int as credits
      from certification_registrations r where r.tenant_id = ${tenantId})
    update certification_registrations c set credits_earned = earned.credits,
      status = case when earned.credits >= earned.required_credits then 'completed' else 'in-progress' end,
      completed_at = case when earned.credits >= earned.required_credits then now() end
    from earned where c.tenant_id = ${tenantId} and c.certification_registration_id = earned.id`);
}
