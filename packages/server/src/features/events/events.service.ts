/**
 * The events use cases: occurrences following the repeat rule, registration with capacity decided under the
 * occurrence's row lock (never one seat too many, however many register at once), the waitlist and its offers,
 * cancel with the association's refund rule, check-in, the calendar range and getEventId.
 */
import { type Fragment, q, type Tx } from '@guildhall/db';
import {
  decideRegistration,
  EVENT_ATTENDEE_STATUSES,
  type EventOverview,
  type EventPage,
  eventAttendeesResource,
  eventConfirmationMail,
  eventSeatHeldMail,
  eventSeatOfferMail,
  eventWaitlistMail,
  type GetEventIdAnswer,
  holdsSeat,
  partiesToPromote,
  type RegisterAnswer,
  type RegistrationOutcome,
  refundCents,
  registrationPrice,
  resolveTimeZone,
  type SystemTemplate,
} from '@guildhall/shared';
import {
  expandOccurrences,
  planOccurrences,
  RECURRENCE_HORIZON_DAYS,
  recurrenceRuleOf,
} from '@guildhall/shared/events/recurrence.rules';
import { HttpError, notFound } from '../../platform/errors.ts';
import { tenantMoney } from '../../platform/money.ts';
import type { AnswerAudience, ExtraAnswers } from '../../platform/resources/extra-fields.ts';
import { boundResource } from '../../platform/resources/registry.ts';
import type { Services } from '../../platform/services.ts';
import { billingApi } from '../billing/billing.module.ts';
import { refreshForAttendee } from './events.certifications.ts';
import { forgetFull, type Refusal, refusal } from './events.full.ts';
import * as repo from './events.repo.ts';
import { iso, num, numOrNull, one, rows, strOrNull } from './events.repo.ts';

const S = EVENT_ATTENDEE_STATUSES;
/** The source of the invoices events ask billing for (billing's contract). */
export const REGISTRATION_SOURCE = 'event-registration';
/** How long a seat offered from the waitlist is held for the person offered it. */
export const OFFER_HOURS = 48;

export function eventTimezone(
  event: { timezone_id: string | null },
  tenantTimezone: string | undefined,
): string {
  return resolveTimeZone(event.timezone_id ?? tenantTimezone);
}

/** Brings an event's stored occurrences in line with its times and repeat rule (exceptions kept). */
export async function syncOccurrences(
  tx: Tx,
  tenantId: string,
  eventId: number,
  tenantTimezone: string | undefined,
): Promise<void> {
  const event = await repo.findEvent(tx, tenantId, eventId);
  if (!event) return;
  const timezone = eventTimezone(event, tenantTimezone);
  const rule = recurrenceRuleOf(
    event.repeats,
    event.starts_at,
    timezone,
    event.repeat_until,
    event.recurrence_rule,
  );
  const from = Math.max(Date.now(), Date.parse(event.starts_at));
  const horizon = new Date(from + RECURRENCE_HORIZON_DAYS * 86_400_000).toISOString();
  const generated = expandOccurrences(
    { startsAt: event.starts_at, endsAt: event.ends_at, timezone, rrule: rule },
    horizon,
  );
  const stored = await repo.storedOccurrences(tx, tenantId, eventId);
  const plan = planOccurrences(
    generated,
    stored.map((s) => ({
      id: num(s.event_detail_id),
      originalStartsAt: String(s.original_starts_at),
      isException: s.is_exception,
      hasAttendees: s.has_attendees,
    })),
  );
  await repo.applyOccurrencePlan(tx, tenantId, eventId, plan);
}

/** Who registers, as the routes know them. */
export interface Registrant {
  channel: 'backoffice' | 'member' | 'public';
  /** The registering contact (null: a back-office registration of guests only). */
  contactId: number | null;
  /** Member prices apply. */
  isMember: boolean;
}

export interface AttendeeInput {
  ContactId?: number | undefined;
  Name?: string | undefined;
  Email?: string | undefined;
}

/** What the caller sends after the transaction committed: confirmations and offers. */
export interface Outgoing {
  to: string;
  ics?: { eventId: number; eventDetailId: number };
  /** The system message it is, with its values: sent in the association's wording (decision 0154). */
  template: { declaration: SystemTemplate; values: Record<string, string> };
}

interface LockedDetail {
  event_detail_id: unknown;
  event_id: unknown;
  starts_at: string;
  ends_at: string;
  detail_status: string;
  capacity: unknown;
  seats_taken: unknown;
  status: string;
  visibility: string;
  registration_open: boolean;
  waitlist_enabled: boolean;
  name: string;
  full_refund_days: unknown;
  late_refund_percent: unknown;
  event_deleted: boolean;
}

const detailColumns = q`d.event_detail_id, d.event_id, ${iso('d.starts_at')} as starts_at, ${iso('d.ends_at')} as ends_at,
    d.status as detail_status, coalesce(d.capacity, e.capacity) as capacity, d.seats_taken, e.status,
    e.visibility, e.registration_open, e.waitlist_enabled, e.name, e.full_refund_days, e.late_refund_percent,
    e.is_deleted as event_deleted`;

/** Locks an occurrence's row: registrations and cancellations of one occurrence take turns here. */
async function lockDetail(tx: Tx, tenantId: string, eventDetailId: number): Promise<LockedDetail> {
  const row = await one<LockedDetail>(
    tx,
    q`select ${detailColumns}
      from event_details d join events e on e.tenant_id = d.tenant_id and e.event_id = d.event_id
      where d.tenant_id = ${tenantId} and d.event_detail_id = ${eventDetailId} and not d.is_deleted
      for update of d`,
  );
  if (!row || row.event_deleted) throw notFound();
  return row;
}

/** A registration type as registering reads it. */
interface TypeRow {
  registration_type_id: unknown;
  name: string;
  member_price: unknown;
  non_member_price: unknown;
  early_bird_until: string | null;
  early_bird_discount: unknown;
  capacity: unknown;
  members_only: boolean;
}

/**
 * An occurrence as committed, without its lock (the checks and lookups made before queueing for it), whether it
 * holds offers from the waitlist that have expired (their seats are still counted until the lock releases them), and
 * its event's registration types: one read.
 */
async function peekDetail(
  tx: Tx,
  tenantId: string,
  eventDetailId: number,
): Promise<LockedDetail & { stale_offers: boolean; types: TypeRow[] }> {
  const row = await one<LockedDetail & { stale_offers: boolean; types: TypeRow[] | string }>(
    tx,
    q`select ${detailColumns},
        exists (select 1 from event_attendees a where a.tenant_id = d.tenant_id and a.event_detail_id = d.event_detail_id
          and a.event_attendee_status_id = ${S.Offered} and a.offer_expires_at < now()) as stale_offers,
        (select coalesce(json_agg(json_build_object('registration_type_id', t.registration_type_id, 'name', t.name,
            'member_price', t.member_price, 'non_member_price', t.non_member_price,
            'early_bird_until', t.early_bird_until::text, 'early_bird_discount', t.early_bird_discount,
            'capacity', t.capacity, 'members_only', t.members_only) order by t.registration_type_id), '[]'::json)
          from event_registration_types t
          where t.tenant_id = d.tenant_id and t.event_id = d.event_id and not t.is_deleted) as types
      from event_details d join events e on e.tenant_id = d.tenant_id and e.event_id = d.event_id
      where d.tenant_id = ${tenantId} and d.event_detail_id = ${eventDetailId} and not d.is_deleted`,
  );
  if (!row || row.event_deleted) throw notFound();
  return { ...row, types: typeof row.types === 'string' ? (JSON.parse(row.types) as TypeRow[]) : row.types };
}

async function contactOf(
  tx: Tx,
  tenantId: string,
  contactId: number,
): Promise<{ name: string; email: string | null; status: string } | undefined> {
  const row = await one<{
    display_name: string;
    first_name: string | null;
    last_name: string | null;
    email: string | null;
    status: string;
  }>(
    tx,
    q`select display_name, first_name, last_name, email, status from contacts
      where tenant_id = ${tenantId} and contact_id = ${contactId} and not is_deleted`,
  );
  if (!row) return undefined;
  const name =
    row.first_name || row.last_name
      ? [row.first_name, row.last_name].filter(Boolean).join(' ')
      : row.display_name;
  return { name, email: row.email, status: row.status };
}

/** Whether a contact pays member prices: an active contact (the memberships feature refines who is a member). */
export async function isMemberContact(tx: Tx, tenantId: string, contactId: number | null): Promise<boolean> {
  if (contactId === null) return false;
  const c = await contactOf(tx, tenantId, contactId);
  return c?.status === 'active';
}

/**
 * Offers freed seats of an occurrence to its waitlist, first come first served by registration, and lets expired
 * offers go (their seats to the next in line). Runs under the occurrence's lock. Answers the attendees offered.
 */
async function promoteWaitlist(
  tx: Tx,
  tenantId: string,
  detail: LockedDetail,
  outgoing: Outgoing[],
): Promise<{ offered: number[]; taken: number }> {
  const detailId = num(detail.event_detail_id);
  const expired = await rows<{ n: unknown }>(
    tx,
    q`update event_attendees set event_attendee_status_id = ${S.Cancelled}, offer_expires_at = null,
        notes = coalesce(notes || ' ', '') || 'The offered seat was not taken in time.', updated_at = now()
      where tenant_id = ${tenantId} and event_detail_id = ${detailId}
        and event_attendee_status_id = ${S.Offered} and offer_expires_at < now()
      returning registered_attendees_count as n`,
  );
  let taken = num(detail.seats_taken) - expired.reduce((s, r) => s + num(r.n), 0);
  const capacity = numOrNull(detail.capacity);
  const free = capacity === null ? null : Math.max(0, capacity - taken);
  const waiting = await rows<{ registration_id: unknown; party: unknown }>(
    tx,
    q`select registration_id, sum(registered_attendees_count) as party, min(attendee_id) as first
      from event_attendees
      where tenant_id = ${tenantId} and event_detail_id = ${detailId}
        and event_attendee_status_id = ${S.Waitlisted} and not is_deleted
      group by registration_id order by min(created_at), first`,
  );
  const chosen = partiesToPromote(
    waiting.map((w) => ({ id: num(w.registration_id), party: num(w.party) })),
    free,
  );
  let offered: {
    attendee_id: unknown;
    attendee_name: string;
    attendee_email: string | null;
    registered_attendees_count: unknown;
    check_in_code: string;
  }[] = [];
  if (chosen.length > 0) {
    offered = await rows(
      tx,
      q`update event_attendees set event_attendee_status_id = ${S.Offered},
          offer_expires_at = now() + interval '${repo.rawHours(OFFER_HOURS)} hours', updated_at = now()
        where tenant_id = ${tenantId} and event_detail_id = ${detailId} and event_attendee_status_id = ${S.Waitlisted}
          and registration_id in (select (jsonb_array_elements_text(${JSON.stringify(chosen)}::jsonb))::bigint)
        returning attendee_id, attendee_name, attendee_email, registered_attendees_count, check_in_code`,
    );
    for (const o of offered) {
      taken += num(o.registered_attendees_count);
      if (o.attendee_email)
        outgoing.push({
          to: o.attendee_email,
          template: {
            declaration: eventSeatOfferMail,
            values: {
              'Attendee.Name': String(o.attendee_name),
              'Event.Name': String(detail.name),
              'Event.StartsAt': String(detail.starts_at),
              'Attendee.CheckInCode': String(o.check_in_code),
              'Offer.Hours': String(OFFER_HOURS),
            },
          },
        });
    }
  }
  await rows(
    tx,
    q`update event_details set seats_taken = ${Math.max(0, taken)}
      where tenant_id = ${tenantId} and event_detail_id = ${detailId}`,
  );
  // Seats may have come back: the occurrence is no longer known full on this process.
  forgetFull(tenantId, detailId);
  return { offered: offered.map((o) => num(o.attendee_id)), taken: Math.max(0, taken) };
}

export interface RegisterInput {
  eventDetailId: number;
  registrationTypeId?: number | undefined;
  attendees: AttendeeInput[];
  /**
   * Answers to the event's registration questions (custom fields of attendees, by field id): `each[i]` those of the
   * i-th person named, `all` those of every person who gave none of their own (the registrant alone, or one set for
   * the party).
   */
  answers?: { all?: Record<string, unknown> | undefined; each?: (Record<string, unknown> | undefined)[] };
}

/**
 * An event's registration questions: the custom fields of the attendees' resource (entity EventRegistration), those
 * of no event and those scoped to the event (decision 0111); undefined when no feature gives the attendees fields.
 */
export function registrationQuestions(services: Pick<Services, 'resources'>): ExtraAnswers | undefined {
  return boundResource(services.resources, eventAttendeesResource.name).extraFields?.answers;
}

interface InsertedAttendee {
  registration_id: unknown;
  attendee_id: unknown;
  attendee_name: string;
  event_attendee_status_id: unknown;
  check_in_code: string;
  attendee_email: string | null;
}

interface PartyToWrite {
  tenantId: string;
  eventId: number;
  eventDetailId: number;
  registrant: Registrant;
  people: { contactId: number | null; name: string; email: string | null }[];
  contacts: number[];
  registrationTypeId: number | null;
  seatCents: number;
}

/** The registration and its attendees, after `seats` (a statement whose rows let them be written). */
function partyStatement(p: PartyToWrite, status: number, seats: Fragment, guard: Fragment = q``) {
  const registered = status === S.Registered;
  return q`with seats as (${seats}),
      reg as (
        insert into event_registrations (tenant_id, event_id, event_detail_id, contact_id, channel)
        select ${p.tenantId}, ${p.eventId}, ${p.eventDetailId}, ${p.registrant.contactId}, ${p.registrant.channel}
        from seats${guard}
        returning registration_id),
      att as (
        insert into event_attendees (tenant_id, event_id, event_detail_id, registration_id, contact_id, attendee_name,
          attendee_email, registration_type_id, event_attendee_status_id, paid_cents)
        select ${p.tenantId}, ${p.eventId}, ${p.eventDetailId}, reg.registration_id, r.c, r.n, r.e,
          ${p.registrationTypeId}, ${status}, ${registered ? p.seatCents : 0}
        from reg, jsonb_to_recordset(${JSON.stringify(p.people.map((x) => ({ c: x.contactId, n: x.name, e: x.email })))}::jsonb)
          as r(c bigint, n text, e text)
        returning registration_id, attendee_id, attendee_name, event_attendee_status_id, check_in_code, attendee_email)
      select att.* from att order by att.attendee_id`;
}

/** Under the occurrence's lock: the registration, its attendees and the seats they take, in one statement. */
function insertParty(tx: Tx, p: PartyToWrite, status: number): Promise<InsertedAttendee[]> {
  const party = p.people.length;
  return rows<InsertedAttendee>(
    tx,
    partyStatement(
      p,
      status,
      q`update event_details set seats_taken = seats_taken + ${status === S.Registered ? party : 0}
        where tenant_id = ${p.tenantId} and event_detail_id = ${p.eventDetailId} returning 1`,
    ),
  );
}

/** Whether one of the contacts already holds a place (any status but cancelled) at the occurrence. */
async function alreadyRegistered(tx: Tx, tenantId: string, eventDetailId: number, contacts: number[]) {
  const already = await one<{ n: unknown }>(
    tx,
    q`select count(*) as n from event_attendees
      where tenant_id = ${tenantId} and event_detail_id = ${eventDetailId} and not is_deleted
        and event_attendee_status_id <> ${S.Cancelled}
        and contact_id in (select (jsonb_array_elements_text(${JSON.stringify(contacts)}::jsonb))::bigint)`,
  );
  return num(already?.n) > 0;
}

/**
 * Takes the party's seats if they fit, in the statement that locks the occurrence's row (an UPDATE whose condition
 * is the capacity, re-read by PostgreSQL on the row as the previous holder committed it), and writes the
 * registration: null when they do not fit (or the occurrence is cancelled or gone), nothing written. Guests only:
 * one statement, so the lock is held from it to the commit. With contacts, the check that none of them is already
 * registered needs a snapshot taken after the lock (a statement's own snapshot predates its wait), so the seats are
 * taken first and the check and the writes are the second statement; a duplicate answers 409 and the transaction's
 * rollback gives the seats back.
 */
async function registerIfSeatsFit(tx: Tx, p: PartyToWrite): Promise<InsertedAttendee[] | null> {
  const party = p.people.length;
  const seats = q`update event_details d set seats_taken = d.seats_taken + ${party}
      from events e
      where d.tenant_id = ${p.tenantId} and d.event_detail_id = ${p.eventDetailId} and not d.is_deleted
        and d.status <> 'cancelled' and e.tenant_id = d.tenant_id and e.event_id = d.event_id and not e.is_deleted
        and (coalesce(d.capacity, e.capacity) is null or d.seats_taken + ${party} <= coalesce(d.capacity, e.capacity))
      returning d.event_detail_id`;
  if (p.contacts.length === 0) {
    const written = await rows<InsertedAttendee>(tx, partyStatement(p, S.Registered, seats));
    return written.length > 0 ? written : null;
  }
  const taken = await rows(tx, seats);
  if (taken.length === 0) return null;
  const written = await rows<InsertedAttendee>(
    tx,
    partyStatement(
      p,
      S.Registered,
      q`select 1`,
      q` where not exists (select 1 from event_attendees a where a.tenant_id = ${p.tenantId}
          and a.event_detail_id = ${p.eventDetailId} and not a.is_deleted
          and a.event_attendee_status_id <> ${S.Cancelled}
          and a.contact_id in (select (jsonb_array_elements_text(${JSON.stringify(p.contacts)}::jsonb))::bigint))`,
    ),
  );
  if (written.length === 0) throw new HttpError(409, 'Already registered for this occurrence.');
  return written;
}

/** A registration checked and priced, before its seats are decided. */
interface Prepared {
  registrant: Registrant;
  input: RegisterInput;
  probe: LockedDetail & { stale_offers: boolean; types: TypeRow[] };
  staff: boolean;
  eventId: number;
  people: PartyToWrite['people'];
  contacts: number[];
  asked: ExtraAnswers | undefined;
  answers: Record<string, unknown>[];
  type: TypeRow | undefined;
  price: { unitPriceCents: number; discountCents: number };
  seatCents: number;
  party: number;
  write: PartyToWrite;
  typeCapped: boolean;
}

/**
 * Everything of a registration that does not depend on the seat count, checked and looked up before queueing for
 * the occurrence's lock (so that the lock is held for the decision and the write only): the occurrence as the probe
 * read it, the party, the answers, the registration type and the price. A refusal is thrown.
 */
async function prepare(
  tx: Tx,
  tenantId: string,
  registrant: Registrant,
  input: RegisterInput,
  today: string,
  services: Services,
  probe: LockedDetail & { stale_offers: boolean; types: TypeRow[] },
  /** The questions the event asks an audience, read once for a batch of registrations (registerBatch). */
  questionsOf?: (audience: AnswerAudience) => Promise<readonly unknown[]>,
): Promise<Prepared> {
  const staff = registrant.channel === 'backoffice';
  if (!staff) {
    if (probe.status !== 'published') throw notFound();
    if (registrant.channel === 'public' && probe.visibility !== 'public') throw notFound();
    if (!probe.registration_open) throw new HttpError(409, 'Registration for this event is closed.');
    if (Date.parse(probe.starts_at) <= Date.now())
      throw new HttpError(409, 'This occurrence has already started; registration is closed.');
  }
  if (probe.detail_status === 'cancelled') throw new HttpError(409, 'This occurrence is cancelled.');
  const eventId = num(probe.event_id);

  // The party: the registrant alone, or the people named (contacts or guests).
  const people: { contactId: number | null; name: string; email: string | null }[] = [];
  const named =
    input.attendees.length > 0 ? input.attendees : [{ ContactId: registrant.contactId ?? undefined }];
  for (const a of named) {
    if (a.ContactId !== undefined) {
      const c = await contactOf(tx, tenantId, a.ContactId);
      if (!c)
        throw new HttpError(400, 'That contact does not exist.', {
          Attendees: ['That contact does not exist.'],
        });
      people.push({ contactId: a.ContactId, name: c.name, email: c.email });
    } else if (a.Name) {
      people.push({ contactId: null, name: a.Name, email: a.Email || null });
    } else {
      throw new HttpError(400, 'Each attendee needs a contact or a name.', {
        Attendees: ['Each attendee needs a contact or a name.'],
      });
    }
  }
  const contacts = people.map((p) => p.contactId).filter((c): c is number => c !== null);

  // The event's registration questions (custom fields of registrations, decision 0111), answered for each person
  // before any seat is taken.
  const asked = registrationQuestions(services);
  const audience = staff ? 'staff' : 'member';
  const given = people.map((_, i) => input.answers?.each?.[i] ?? input.answers?.all ?? {});
  const answers: Record<string, unknown>[] = [];
  // One statement when the event asks nothing and nothing is answered (most registrations).
  const anyGiven = given.some((a) => Object.keys(a).length > 0);
  const questions = () =>
    questionsOf ? questionsOf(audience) : (asked?.fields(tx, tenantId, audience, eventId) ?? []);
  if (asked && (anyGiven || (await questions()).length > 0)) {
    const errors: Record<string, string[]> = {};
    for (const [i, a] of given.entries()) {
      const checked = await asked.check(tx, tenantId, a, audience, eventId);
      if ('errors' in checked) {
        const prefix = people.length > 1 ? `Attendees.${i}.` : '';
        for (const [k, v] of Object.entries(checked.errors)) errors[prefix + k] = v;
      } else answers.push(checked.values);
    }
    if (Object.keys(errors).length > 0)
      throw new HttpError(400, Object.values(errors)[0]?.[0] ?? 'The answers are not valid.', errors);
  }

  // The registration type: the one chosen, or the only one; none when the event has no types (free).
  const types = probe.types;
  let type = types.find((t) => num(t.registration_type_id) === input.registrationTypeId);
  if (input.registrationTypeId !== undefined && !type)
    throw new HttpError(400, 'That registration type is not offered for this event.', {
      RegistrationTypeId: ['That registration type is not offered for this event.'],
    });
  if (!type && types.length === 1) type = types[0];
  if (!type && types.length > 1)
    throw new HttpError(400, 'Choose a registration type.', {
      RegistrationTypeId: ['Choose a registration type.'],
    });
  if (type?.members_only && !registrant.isMember && !staff)
    throw new HttpError(409, `${type.name} is for members only.`);

  const party = people.length;
  // Full as committed, with no waitlist to join and no expired offer to release: refused without queueing for the
  // lock (seats only come back through that lock, so the answer is the one the lock would give at this instant).
  if (!probe.waitlist_enabled && !probe.stale_offers) {
    const quick = decideRegistration(
      [{ capacity: numOrNull(probe.capacity), taken: num(probe.seats_taken) }],
      party,
      false,
    );
    if (quick.outcome === 'refused') throw new HttpError(409, quick.message);
  }

  const price = type
    ? registrationPrice(
        {
          memberPriceCents: num(type.member_price),
          nonMemberPriceCents: num(type.non_member_price),
          earlyBirdUntil: type.early_bird_until,
          earlyBirdDiscountCents: num(type.early_bird_discount),
        },
        { isMember: registrant.isMember, today },
      )
    : { unitPriceCents: 0, discountCents: 0 };
  const seatCents = price.unitPriceCents - price.discountCents;
  const write = {
    tenantId,
    eventId,
    eventDetailId: input.eventDetailId,
    registrant,
    people,
    contacts,
    registrationTypeId: type ? num(type.registration_type_id) : null,
    seatCents,
  };

  const typeCapped = type !== undefined && numOrNull(type.capacity) !== null;
  return {
    registrant,
    input,
    probe,
    staff,
    eventId,
    people,
    contacts,
    asked,
    answers,
    type,
    price,
    seatCents,
    party,
    write,
    typeCapped,
  };
}

/**
 * Registers a party for an occurrence. Capacity (of the occurrence, and of the registration type) is decided under
 * the occurrence's row lock, so parallel registrations take turns and never take one seat too many. A full
 * occurrence puts the party on the waitlist when the event keeps one, and refuses it (409) otherwise.
 */
export async function register(
  tx: Tx,
  tenantId: string,
  registrant: Registrant,
  input: RegisterInput,
  today: string,
  outgoing: Outgoing[],
  services: Services,
): Promise<RegisterAnswer> {
  const probe = await peekDetail(tx, tenantId, input.eventDetailId);
  const p = await prepare(tx, tenantId, registrant, input, today, services, probe);
  const { contacts, type, party, typeCapped } = p;
  const party_ = p.write;
  // The seat decision as one conditional statement (decision 0140): the UPDATE that adds the party's seats only if
  // they fit locks the occurrence's row itself, so the lock is held from that statement to the commit. Taken when
  // the occurrence's limit is the only one (no registration type with seats of its own) and no expired offer waits
  // to be released; otherwise, and when the seats do not fit (the waitlist or the refusal's message), the locked
  // decision below.
  let detail: LockedDetail = probe;
  let decision: RegistrationOutcome | null = null;
  let inserted: InsertedAttendee[] = [];
  if (!probe.stale_offers && !typeCapped) {
    const taken = await registerIfSeatsFit(tx, party_);
    if (taken) {
      decision = { outcome: 'registered' };
      inserted = taken;
    }
  }
  if (!decision) {
    detail = await lockDetail(tx, tenantId, input.eventDetailId);
    if (detail.detail_status === 'cancelled') throw new HttpError(409, 'This occurrence is cancelled.');
    // Offers from the waitlist that have expired give their seats back here, under the lock: to the next parties in
    // line first (they waited longer), then to this registration.
    if (probe.stale_offers) {
      const { taken } = await promoteWaitlist(tx, tenantId, detail, outgoing);
      detail.seats_taken = taken;
    }
    if (contacts.length > 0 && (await alreadyRegistered(tx, tenantId, input.eventDetailId, contacts)))
      throw new HttpError(409, 'Already registered for this occurrence.');
    const limits = [{ capacity: numOrNull(detail.capacity), taken: num(detail.seats_taken) }];
    if (type && numOrNull(type.capacity) !== null) {
      const typeTaken = await one<{ n: unknown }>(
        tx,
        q`select coalesce(sum(registered_attendees_count), 0) as n from event_attendees
          where tenant_id = ${tenantId} and event_detail_id = ${input.eventDetailId}
            and registration_type_id = ${num(type.registration_type_id)} and not is_deleted
            and event_attendee_status_id in (2, 4, 5, 6, 7)`,
      );
      limits.push({ capacity: numOrNull(type.capacity), taken: num(typeTaken?.n) });
    }
    decision = decideRegistration(limits, party, detail.waitlist_enabled);
    if (decision.outcome === 'refused') throw new HttpError(409, decision.message);
    // The registration, its attendees and the seats they take, in one statement (one round trip under the lock).
    inserted = await insertParty(tx, party_, decision.outcome === 'waitlisted' ? S.Waitlisted : S.Registered);
  }
  return complete(tx, tenantId, p, detail, decision, inserted, outgoing, services);
}

/** After the seats are decided and the attendees written: their answers, the invoice of a fee, the answer and mail. */
async function complete(
  tx: Tx,
  tenantId: string,
  p: Prepared,
  detail: Pick<LockedDetail, 'name' | 'starts_at'>,
  decision: RegistrationOutcome,
  inserted: InsertedAttendee[],
  outgoing: Outgoing[],
  services: Services,
): Promise<RegisterAnswer> {
  const { registrant, asked, answers, type, price, seatCents, party, eventId, input } = p;
  const status = decision.outcome === 'waitlisted' ? S.Waitlisted : S.Registered;

  const registrationId = num(inserted[0]?.registration_id);
  // Each attendee's answers (the rows come back in the order the people were named).
  for (const [i, a] of answers.entries()) {
    const row = inserted[i];
    if (row && asked && Object.keys(a).length > 0) await asked.write(tx, tenantId, num(row.attendee_id), a);
  }

  // A fee is billed to the registrant through billing: the seats are held (awaiting payment) until the invoice is
  // paid (invoice.paid confirms them). Guests registered by staff with no registrant are not billed.
  const totalCents = status === S.Registered ? seatCents * party : 0;
  let invoiceId: number | null = null;
  if (totalCents > 0 && registrant.contactId !== null && type) {
    const invoice = await billingApi.createInvoice(tx, services, tenantId, {
      contactId: registrant.contactId,
      lines: [
        {
          description: `${detail.name}, ${type.name} (${detail.starts_at.slice(0, 10)})`,
          unitPriceCents: price.unitPriceCents,
          quantity: party,
          ...(price.discountCents > 0 ? { discountCents: price.discountCents * party } : {}),
        },
      ],
      source: { kind: REGISTRATION_SOURCE, id: registrationId },
      idempotencyKey: `${REGISTRATION_SOURCE}-${registrationId}`,
      memo: `Registration for ${detail.name}`,
    });
    invoiceId = invoice.invoiceId;
    const paid = invoice.status === 'paid';
    await rows(
      tx,
      q`update event_registrations set invoice_id = ${invoiceId}
        where tenant_id = ${tenantId} and registration_id = ${registrationId}`,
    );
    await rows(
      tx,
      q`update event_attendees set invoice_id = ${invoiceId}, paid_cents = 0,
          event_attendee_status_id = ${paid ? S.Registered : S.PendingPayment}
        where tenant_id = ${tenantId} and registration_id = ${registrationId}`,
    );
    if (paid) await recordPaid(tx, tenantId, registrationId, invoice.totalCents);
    for (const a of inserted) a.event_attendee_status_id = paid ? S.Registered : S.PendingPayment;
  }
  const pending =
    invoiceId !== null && inserted.some((a) => num(a.event_attendee_status_id) === S.PendingPayment);

  // The association's money format is read only for a seat held awaiting payment (one round trip fewer otherwise).
  const message = pending
    ? `Your ${party === 1 ? 'seat is' : `${party} seats are`} held for ${detail.name}: pay the invoice of ${(await tenantMoney(tx, tenantId))(totalCents)} to confirm.`
    : decision.outcome === 'registered'
      ? party === 1
        ? `Registered for ${detail.name}.`
        : `Registered ${party} people for ${detail.name}.`
      : decision.message;
  for (const a of inserted) {
    if (!a.attendee_email) continue;
    outgoing.push(
      status === S.Registered
        ? {
            to: a.attendee_email,
            ics: { eventId, eventDetailId: input.eventDetailId },
            template: {
              declaration: pending ? eventSeatHeldMail : eventConfirmationMail,
              values: {
                'Attendee.Name': String(a.attendee_name),
                'Event.Name': String(detail.name),
                'Event.StartsAt': String(detail.starts_at),
                'Attendee.CheckInCode': String(a.check_in_code),
              },
            },
          }
        : {
            to: a.attendee_email,
            template: {
              declaration: eventWaitlistMail,
              values: {
                'Attendee.Name': String(a.attendee_name),
                'Event.Name': String(detail.name),
                'Event.StartsAt': String(detail.starts_at),
              },
            },
          },
    );
  }
  return {
    RegistrationId: registrationId,
    outcome: pending ? 'pending_payment' : decision.outcome,
    message,
    Attendees: inserted.map((a) => ({
      AttendeeId: num(a.attendee_id),
      AttendeeName: a.attendee_name,
      EventAttendeeStatusId: num(a.event_attendee_status_id),
      CheckInCode: a.check_in_code,
    })),
    InvoiceId: invoiceId,
    totalCents,
  };
}

/** What a paid invoice paid for each attendee of the registration (the refund rule reads it). */
async function recordPaid(
  tx: Tx,
  tenantId: string,
  registrationId: number,
  totalCents: number,
): Promise<void> {
  const attendees = await rows<{ attendee_id: unknown }>(
    tx,
    q`select attendee_id from event_attendees where tenant_id = ${tenantId} and registration_id = ${registrationId}
      order by attendee_id`,
  );
  if (attendees.length === 0) return;
  const each = Math.floor(totalCents / attendees.length);
  const first = totalCents - each * (attendees.length - 1);
  await rows(
    tx,
    q`update event_attendees a set paid_cents = case when a.attendee_id = ${num(attendees[0]?.attendee_id)} then ${first}::bigint else ${each}::bigint end
      where a.tenant_id = ${tenantId} and a.registration_id = ${registrationId}`,
  );
}

/** invoice.paid for a registration: its seats awaiting payment are confirmed. */
export async function registrationPaid(
  tx: Tx,
  tenantId: string,
  registrationId: number,
  invoiceId: number,
  services: Services,
): Promise<void> {
  const summary = await billingApi.invoiceSummary(tx, tenantId, invoiceId);
  await rows(
    tx,
    q`update event_attendees set event_attendee_status_id = ${S.Registered}, updated_at = now()
      where tenant_id = ${tenantId} and registration_id = ${registrationId} and event_attendee_status_id = ${S.PendingPayment}`,
  );
  await recordPaid(tx, tenantId, registrationId, summary.paidCents);
  void services;
}

/** invoice.voided for a registration: its seats still awaiting payment go back (to the waitlist's offers). */
export async function registrationVoided(
  tx: Tx,
  tenantId: string,
  registrationId: number,
  services: Services,
): Promise<void> {
  const pending = await rows<{ attendee_id: unknown }>(
    tx,
    q`select attendee_id from event_attendees where tenant_id = ${tenantId} and registration_id = ${registrationId}
        and event_attendee_status_id = ${S.PendingPayment}`,
  );
  for (const a of pending)
    await cancelAttendee(tx, tenantId, num(a.attendee_id), null, [], services, { billing: false });
}

/**
 * Cancels one attendee: their seat goes back (and to the waitlist, as offers), and what they paid is refunded as
 * the event's refund rule allows. `ownContactId` limits it to the member's own registrations.
 */
export async function cancelAttendee(
  tx: Tx,
  tenantId: string,
  attendeeId: number,
  ownContactId: number | null,
  outgoing: Outgoing[],
  services: Services,
  options: { billing: boolean } = { billing: true },
): Promise<{
  AttendeeId: number;
  EventAttendeeStatusId: number;
  refundCents: number;
  promoted: number[];
  message: string;
  contactId: number | null;
}> {
  const found = await one<{ event_detail_id: unknown }>(
    tx,
    q`select a.event_detail_id from event_attendees a
      left join event_registrations r on r.tenant_id = a.tenant_id and r.registration_id = a.registration_id
      where a.tenant_id = ${tenantId} and a.attendee_id = ${attendeeId} and not a.is_deleted
        ${ownContactId === null ? q`` : q`and (a.contact_id = ${ownContactId} or r.contact_id = ${ownContactId})`}`,
  );
  if (!found) throw notFound();
  const detail = await lockDetail(tx, tenantId, num(found.event_detail_id));
  const attendee = await one<{
    event_attendee_status_id: unknown;
    registered_attendees_count: unknown;
    paid_cents: unknown;
    contact_id: unknown;
    registration_id: unknown;
    invoice_id: unknown;
    registrant: unknown;
  }>(
    tx,
    q`select a.event_attendee_status_id, a.registered_attendees_count, a.paid_cents, a.contact_id, a.registration_id,
        a.invoice_id, r.contact_id as registrant
      from event_attendees a
      left join event_registrations r on r.tenant_id = a.tenant_id and r.registration_id = a.registration_id
      where a.tenant_id = ${tenantId} and a.attendee_id = ${attendeeId} for update of a`,
  );
  if (!attendee) throw notFound();
  const status = num(attendee.event_attendee_status_id);
  if (status === S.Cancelled) throw new HttpError(409, 'This registration is already cancelled.');
  if (ownContactId !== null && Date.parse(detail.starts_at) <= Date.now())
    throw new HttpError(409, 'This occurrence has started; it can no longer be cancelled here.');
  const refund = refundCents(
    num(attendee.paid_cents),
    { fullRefundDays: num(detail.full_refund_days ?? 0), latePercent: num(detail.late_refund_percent ?? 0) },
    detail.starts_at,
    new Date().toISOString(),
  );
  await rows(
    tx,
    q`update event_attendees set event_attendee_status_id = ${S.Cancelled}, offer_expires_at = null, updated_at = now()
      where tenant_id = ${tenantId} and attendee_id = ${attendeeId}`,
  );
  const released = holdsSeat(status) ? num(attendee.registered_attendees_count) : 0;
  // Money goes through billing: what was paid comes back as a credit under the refund rule; an unpaid invoice is
  // voided once none of its registration's seats is still held.
  const registrant = numOrNull(attendee.registrant) ?? numOrNull(attendee.contact_id);
  const registrationId = num(attendee.registration_id);
  const invoiceId = numOrNull(attendee.invoice_id);
  if (options.billing && refund > 0 && registrant !== null)
    await billingApi.issueCredit(tx, services, tenantId, {
      contactId: registrant,
      amountCents: refund,
      reason: `Cancelled registration: ${detail.name}`,
      source: { kind: REGISTRATION_SOURCE, id: registrationId },
    });
  if (options.billing && invoiceId !== null && status === S.PendingPayment) {
    const still = await one<{ n: unknown }>(
      tx,
      q`select count(*) as n from event_attendees where tenant_id = ${tenantId} and registration_id = ${registrationId}
          and event_attendee_status_id in (${S.PendingPayment}, ${S.Registered}, ${S.Attended})`,
    );
    const summary = await billingApi.invoiceSummary(tx, tenantId, invoiceId);
    if (
      num(still?.n) === 0 &&
      summary.paidCents === 0 &&
      (summary.status === 'open' || summary.status === 'draft')
    )
      await billingApi.voidInvoice(
        tx,
        services,
        tenantId,
        invoiceId,
        `Registration cancelled: ${detail.name}`,
      );
  }
  const { offered: promoted } = await promoteWaitlist(
    tx,
    tenantId,
    { ...detail, seats_taken: num(detail.seats_taken) - released },
    outgoing,
  );
  const money = await tenantMoney(tx, tenantId);
  return {
    AttendeeId: attendeeId,
    EventAttendeeStatusId: S.Cancelled,
    refundCents: refund,
    promoted,
    contactId: numOrNull(attendee.contact_id),
    message:
      refund > 0
        ? `Registration cancelled; ${money(refund)} will be credited to the account.`
        : 'Registration cancelled.',
  };
}

/** Takes a seat offered from the waitlist (before the offer expires). */
export async function acceptOffer(
  tx: Tx,
  tenantId: string,
  attendeeId: number,
  ownContactId: number | null,
): Promise<{ AttendeeId: number; EventAttendeeStatusId: number; message: string }> {
  const found = await one<{ event_detail_id: unknown; status: unknown; expires: string | null }>(
    tx,
    q`select a.event_detail_id, a.event_attendee_status_id as status, ${iso('a.offer_expires_at')} as expires
      from event_attendees a
      left join event_registrations r on r.tenant_id = a.tenant_id and r.registration_id = a.registration_id
      where a.tenant_id = ${tenantId} and a.attendee_id = ${attendeeId} and not a.is_deleted
        ${ownContactId === null ? q`` : q`and (a.contact_id = ${ownContactId} or r.contact_id = ${ownContactId})`}`,
  );
  if (!found) throw notFound();
  await lockDetail(tx, tenantId, num(found.event_detail_id));
  if (num(found.status) !== S.Offered)
    throw new HttpError(409, 'There is no seat on offer for this registration.');
  if (found.expires && Date.parse(found.expires) < Date.now())
    throw new HttpError(409, 'This offer has expired; the seat went to the next person on the waitlist.');
  await rows(
    tx,
    q`update event_attendees set event_attendee_status_id = ${S.Registered}, offer_expires_at = null, updated_at = now()
      where tenant_id = ${tenantId} and attendee_id = ${attendeeId}`,
  );
  return {
    AttendeeId: attendeeId,
    EventAttendeeStatusId: S.Registered,
    message: 'The seat is yours: you are registered.',
  };
}

/** Checks an attendee in at the door (by id or by the code on the confirmation), or undoes it. */
export async function checkIn(
  tx: Tx,
  tenantId: string,
  input: {
    EventDetailId: number;
    AttendeeId?: number | undefined;
    Code?: string | undefined;
    Undo?: boolean | undefined;
  },
): Promise<{
  AttendeeId: number;
  AttendeeName: string;
  EventAttendeeStatusId: number;
  CheckedInAt: string | null;
  message: string;
}> {
  const who =
    input.AttendeeId !== undefined
      ? q`attendee_id = ${input.AttendeeId}`
      : q`check_in_code = ${(input.Code ?? '').toUpperCase()}`;
  const row = await one<{
    attendee_id: unknown;
    attendee_name: string;
    event_attendee_status_id: unknown;
    event_detail_id: unknown;
  }>(
    tx,
    q`select attendee_id, attendee_name, event_attendee_status_id, event_detail_id from event_attendees
      where tenant_id = ${tenantId} and ${who} and not is_deleted for update`,
  );
  if (!row) throw new HttpError(404, 'No registration has that code.');
  if (num(row.event_detail_id) !== input.EventDetailId)
    throw new HttpError(409, `${row.attendee_name} is registered for another occurrence.`);
  const status = num(row.event_attendee_status_id);
  if (input.Undo) {
    const back = await one<{ at: string | null }>(
      tx,
      q`update event_attendees set checked_in_at = null, credits_earned = null, event_attendee_status_id = ${S.Registered}, updated_at = now()
        where tenant_id = ${tenantId} and attendee_id = ${num(row.attendee_id)} returning null::text as at`,
    );
    // The credits go back: the contact's certification progress follows.
    await refreshForAttendee(tx, tenantId, num(row.attendee_id));
    return {
      AttendeeId: num(row.attendee_id),
      AttendeeName: row.attendee_name,
      EventAttendeeStatusId: S.Registered,
      CheckedInAt: back?.at ?? null,
      message: `${row.attendee_name}: check-in undone.`,
    };
  }
  if (status === S.Attended) throw new HttpError(409, `${row.attendee_name} is already checked in.`);
  if (status !== S.Registered && status !== S.NoShow && status !== S.PendingPayment)
    throw new HttpError(409, `${row.attendee_name} is not registered (${statusName(status)}).`);
  const done = await one<{ at: string }>(
    tx,
    // Attending earns the event's continuing-education credits, recorded on the attendance (the contact's transcript).
    q`update event_attendees a set checked_in_at = now(), event_attendee_status_id = ${S.Attended}, updated_at = now(),
        credits_earned = (select e.credit_hours from events e where e.tenant_id = a.tenant_id and e.event_id = a.event_id)
      where a.tenant_id = ${tenantId} and a.attendee_id = ${num(row.attendee_id)} returning ${iso('a.checked_in_at')} as at`,
  );
  await refreshForAttendee(tx, tenantId, num(row.attendee_id));
  return {
    AttendeeId: num(row.attendee_id),
    AttendeeName: row.attendee_name,
    EventAttendeeStatusId: S.Attended,
    CheckedInAt: done?.at ?? null,
    message: `${row.attendee_name} is checked in.`,
  };
}

/**
 * After an occurrence has ended, the attendees still registered and never checked in become no-shows (the door's
 * "Mark the rest as no-shows"). Their seats stay counted: the occurrence is over. Answers how many were marked.
 */
export async function markNoShows(
  tx: Tx,
  tenantId: string,
  eventDetailId: number,
): Promise<{ marked: number; message: string }> {
  const detail = await lockDetail(tx, tenantId, eventDetailId);
  if (Date.parse(detail.ends_at) > Date.now())
    throw new HttpError(409, 'This occurrence has not ended yet; mark no-shows once it is over.');
  const marked = await rows(
    tx,
    q`update event_attendees set event_attendee_status_id = ${S.NoShow}, updated_at = now()
      where tenant_id = ${tenantId} and event_detail_id = ${eventDetailId} and not is_deleted
        and event_attendee_status_id = ${S.Registered} and checked_in_at is null
      returning attendee_id`,
  );
  return {
    marked: marked.length,
    message:
      marked.length === 0
        ? 'Everyone registered was checked in: no no-shows.'
        : `${marked.length} ${marked.length === 1 ? 'attendee' : 'attendees'} marked as no-show.`,
  };
}

function statusName(status: number): string {
  const names: Record<number, string> = {
    1: 'waitlisted',
    2: 'offered a seat',
    3: 'cancelled',
    4: 'registered',
    5: 'attended',
    6: 'no-show',
    7: 'awaiting payment',
  };
  return names[status] ?? 'unknown';
}

/** The attendees of an occurrence for the door: by name, email or code. */
export async function checkInList(tx: Tx, tenantId: string, eventDetailId: number, search: string) {
  const head = await one<{ event_id: unknown; name: string; starts_at: string; ends_at: string }>(
    tx,
    q`select d.event_id, e.name, ${iso('d.starts_at')} as starts_at, ${iso('d.ends_at')} as ends_at from event_details d
      join events e on e.tenant_id = d.tenant_id and e.event_id = d.event_id
      where d.tenant_id = ${tenantId} and d.event_detail_id = ${eventDetailId} and not d.is_deleted`,
  );
  if (!head) throw notFound();
  const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const found = await rows<Record<string, unknown>>(
    tx,
    q`select a.attendee_id, a.attendee_name, a.attendee_email, a.event_attendee_status_id, ${iso('a.checked_in_at')} as checked_in_at,
        a.check_in_code, t.name as type_name
      from event_attendees a
      left join event_registration_types t on t.tenant_id = a.tenant_id and t.registration_type_id = a.registration_type_id
      where a.tenant_id = ${tenantId} and a.event_detail_id = ${eventDetailId} and not a.is_deleted
        and a.event_attendee_status_id in (4, 5, 6, 7)
        ${search ? q`and (a.attendee_name ilike ${like} or a.attendee_email ilike ${like} or a.check_in_code = ${search.toUpperCase()})` : q``}
      order by a.attendee_name limit 200`,
  );
  const counts = await one<{ registered: unknown; checked: unknown; pending: unknown }>(
    tx,
    q`select count(*) filter (where event_attendee_status_id in (4, 5, 6, 7)) as registered,
        count(*) filter (where event_attendee_status_id = 5) as checked,
        count(*) filter (where event_attendee_status_id = 4 and checked_in_at is null) as pending
      from event_attendees where tenant_id = ${tenantId} and event_detail_id = ${eventDetailId} and not is_deleted`,
  );
  return {
    EventId: num(head.event_id),
    EventDetailId: eventDetailId,
    Name: head.name,
    StartsAt: head.starts_at,
    EndsAt: head.ends_at,
    registered: num(counts?.registered),
    checkedIn: num(counts?.checked),
    notCheckedIn: num(counts?.pending),
    Results: found.map((r) => ({
      AttendeeId: num(r.attendee_id),
      AttendeeName: String(r.attendee_name),
      AttendeeEmail: strOrNull(r.attendee_email),
      EventAttendeeStatusId: num(r.event_attendee_status_id),
      CheckedInAt: strOrNull(r.checked_in_at),
      CheckInCode: String(r.check_in_code),
      RegistrationType: strOrNull(r.type_name),
    })),
  };
}

/** Parses a calendar bound: an instant with an offset, or a local date(-time) read in the given timezone. */
export function calendarBound(value: string, timezone: string): string {
  if (/[zZ]$|[+-]\d\d:?\d\d$/.test(value)) {
    const t = Date.parse(value);
    if (Number.isFinite(t)) return new Date(t).toISOString();
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value);
  if (!m)
    throw new HttpError(400, 'start and end must be dates.', { start: ['start and end must be dates.'] });
  const [, y, mo, d, h = '00', mi = '00', s = '00'] = m;
  // The UTC instant whose wall time in `timezone` is the one given (two passes settle a DST change).
  const wall = Date.UTC(num(y), num(mo) - 1, num(d), num(h), num(mi), num(s));
  let guess = wall;
  for (let i = 0; i < 2; i++) guess = wall - offsetMs(guess, timezone);
  return new Date(guess).toISOString();
}

function offsetMs(at: number, timezone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: timezone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(at));
  const get = (t: string) => num(parts.find((p) => p.type === t)?.value ?? 0);
  const asUtc = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return asUtc - Math.floor(at / 1000) * 1000;
}

/** The calendar's answer for a range, as JSON text (the database builds it; see `calendarRangeJson`). */
export async function calendar(
  tx: Tx,
  tenantId: string,
  query: {
    start: string;
    end: string;
    timezone: string;
    audience: 'staff' | 'member' | 'public';
    categoryId?: number | undefined;
  },
  tenantTimezone: string | undefined,
): Promise<string> {
  const start = calendarBound(query.start, query.timezone);
  const end = calendarBound(query.end, query.timezone);
  if (Date.parse(end) - Date.parse(start) > 400 * 86_400_000)
    throw new HttpError(400, 'A calendar range may span at most 400 days.', {
      end: ['A calendar range may span at most 400 days.'],
    });
  return repo.calendarRangeJson(tx, tenantId, {
    start,
    end,
    audience: query.audience,
    categoryId: query.categoryId,
    tenantTimezone: resolveTimeZone(tenantTimezone),
  });
}

/**
 * What the event record's Waitlist, Finances and Check-in tabs show, in four statements: the registrations' money
 * (their invoices that are not void: billed, paid, outstanding; the void ones apart; refunds as the credits their
 * cancellations issued), the money by registration type, the waitlist in the order people joined it, and each
 * occurrence's seats and door count.
 */
export async function eventOverview(tx: Tx, tenantId: string, eventId: number): Promise<EventOverview> {
  const event = await one(
    tx,
    q`select event_id from events where tenant_id = ${tenantId} and event_id = ${eventId} and not is_deleted`,
  );
  if (!event) throw notFound();
  const [money] = await rows(
    tx,
    q`with regs as (
        select registration_id, invoice_id from event_registrations where tenant_id = ${tenantId} and event_id = ${eventId}
      )
      select (select count(*) from regs) as registrations,
        count(*) filter (where i.status <> 'void') as invoices,
        coalesce(sum(i.total_cents) filter (where i.status <> 'void'), 0) as billed,
        coalesce(sum(i.applied_cents) filter (where i.status <> 'void'), 0) as paid,
        coalesce(sum(i.balance_cents) filter (where i.status <> 'void'), 0) as outstanding,
        coalesce(sum(i.total_cents) filter (where i.status = 'void'), 0) as voided,
        (select coalesce(sum(c.amount_cents), 0) from credits c
          where c.tenant_id = ${tenantId} and c.source_kind = ${REGISTRATION_SOURCE}
            and c.source_id in (select registration_id from regs)) as refunded
      from invoices i
      where i.tenant_id = ${tenantId} and i.invoice_id in (select invoice_id from regs where invoice_id is not null)`,
  );
  const byType = await rows(
    tx,
    q`select a.registration_type_id, coalesce(t.name, 'No registration type') as name, count(*) as attendees,
        coalesce(sum(a.paid_cents), 0) as paid
      from event_attendees a
      left join event_registration_types t on t.tenant_id = a.tenant_id and t.registration_type_id = a.registration_type_id
      where a.tenant_id = ${tenantId} and a.event_id = ${eventId} and not a.is_deleted
        and a.event_attendee_status_id in (${S.Registered}, ${S.Attended}, ${S.NoShow}, ${S.PendingPayment})
      group by a.registration_type_id, t.name
      order by t.name nulls last`,
  );
  const waitlist = await rows(
    tx,
    q`select a.attendee_id, a.attendee_name, a.attendee_email, a.event_detail_id, ${iso('d.starts_at')} as starts_at,
        a.event_attendee_status_id, ${iso('a.offer_expires_at')} as offer_expires_at, ${iso('a.created_at')} as created_at
      from event_attendees a
      join event_details d on d.tenant_id = a.tenant_id and d.event_detail_id = a.event_detail_id
      where a.tenant_id = ${tenantId} and a.event_id = ${eventId} and not a.is_deleted
        and a.event_attendee_status_id in (${S.Waitlisted}, ${S.Offered})
      order by d.starts_at, a.created_at, a.attendee_id
      limit 1000`,
  );
  const occurrences = await rows(
    tx,
    q`select d.event_detail_id, ${iso('d.starts_at')} as starts_at, ${iso('d.ends_at')} as ends_at, d.status,
        coalesce(d.capacity, e.capacity) as capacity,
        count(a.attendee_id) filter (where a.event_attendee_status_id in
          (${S.Registered}, ${S.Attended}, ${S.NoShow}, ${S.PendingPayment})) as registered,
        count(a.attendee_id) filter (where a.checked_in_at is not null) as checked_in,
        count(a.attendee_id) filter (where a.event_attendee_status_id in (${S.Waitlisted}, ${S.Offered})) as waitlisted
      from event_details d
      join events e on e.tenant_id = d.tenant_id and e.event_id = d.event_id
      left join event_attendees a on a.tenant_id = d.tenant_id and a.event_detail_id = d.event_detail_id and not a.is_deleted
      where d.tenant_id = ${tenantId} and d.event_id = ${eventId} and not d.is_deleted
      group by d.event_detail_id, d.starts_at, d.ends_at, d.status, d.capacity, e.capacity
      order by d.starts_at
      limit 500`,
  );
  return {
    Finances: {
      Registrations: num(money?.registrations),
      Invoices: num(money?.invoices),
      BilledCents: num(money?.billed),
      PaidCents: num(money?.paid),
      OutstandingCents: num(money?.outstanding),
      VoidedCents: num(money?.voided),
      RefundedCents: num(money?.refunded),
      ByType: byType.map((t) => ({
        RegistrationTypeId: numOrNull(t.registration_type_id),
        Name: String(t.name),
        Attendees: num(t.attendees),
        PaidCents: num(t.paid),
      })),
    },
    Waitlist: waitlist.map((w) => ({
      AttendeeId: num(w.attendee_id),
      AttendeeName: String(w.attendee_name),
      AttendeeEmail: strOrNull(w.attendee_email),
      EventDetailId: num(w.event_detail_id),
      StartsAt: String(w.starts_at),
      EventAttendeeStatusId: num(w.event_attendee_status_id),
      OfferExpiresAt: strOrNull(w.offer_expires_at),
      CreatedAt: String(w.created_at),
    })),
    Occurrences: occurrences.map((o) => ({
      EventDetailId: num(o.event_detail_id),
      StartsAt: String(o.starts_at),
      EndsAt: String(o.ends_at),
      Status: String(o.status),
      Capacity: numOrNull(o.capacity),
      Registered: num(o.registered),
      CheckedIn: num(o.checked_in),
      Waitlisted: num(o.waitlisted),
    })),
  };
}

/** EventId, the next occurrence (or the last one) and the hashed id, for a numeric event id or a hashed one. */
export async function getEventId(
  tx: Tx,
  tenantId: string,
  id: string,
  audience: 'staff' | 'member',
): Promise<GetEventIdAnswer> {
  const event = /^\d{1,15}$/.test(id)
    ? await repo.findEvent(tx, tenantId, Number(id))
    : await repo.findEventByHash(tx, tenantId, id);
  if (!event || event.is_deleted) throw notFound();
  if (audience === 'member' && event.status !== 'published') throw notFound();
  const detail = await one<{ event_detail_id: unknown }>(
    tx,
    q`(select event_detail_id from event_details where tenant_id = ${tenantId} and event_id = ${num(event.event_id)}
         and not is_deleted and ends_at >= now() order by starts_at limit 1)
      union all
      (select event_detail_id from event_details where tenant_id = ${tenantId} and event_id = ${num(event.event_id)}
         and not is_deleted order by starts_at desc limit 1)
      limit 1`,
  );
  return {
    EventId: num(event.event_id),
    EventDetailId: detail ? num(detail.event_detail_id) : null,
    HashEventId: event.hashed_event_id,
  };
}

/** An event as the member area and the public page show it, with seats left and the buyer's prices. */
export async function eventPage(
  tx: Tx,
  tenantId: string,
  event: repo.EventRow,
  buyer: { isMember: boolean; today: string },
  tenantTimezone: string | undefined,
  services: Pick<Services, 'resources'>,
  /** Where this page's reader fetches the event's image (the public page's address or the member area's). */
  imageAddress: string,
): Promise<EventPage> {
  const eventId = num(event.event_id);
  const imageFileId = numOrNull(event.image_file_id);
  // The file's id in the address: a new image is a new address for caches.
  const image =
    imageFileId === null
      ? null
      : {
          Url: `${imageAddress}?f=${imageFileId}`,
          ThumbnailUrl: `${imageAddress}/thumbnail?f=${imageFileId}`,
        };
  const details = await rows<Record<string, unknown>>(
    tx,
    q`select d.event_detail_id, ${iso('d.starts_at')} as starts_at, ${iso('d.ends_at')} as ends_at, d.status,
        d.location, coalesce(d.capacity, ${numOrNull(event.capacity)}::int) as capacity, d.seats_taken
      from event_details d where d.tenant_id = ${tenantId} and d.event_id = ${eventId} and not d.is_deleted
        and d.ends_at >= now() - interval '1 day'
      order by d.starts_at limit 60`,
  );
  const types = await rows<Record<string, unknown>>(
    tx,
    q`select registration_type_id, name, member_price, non_member_price, early_bird_until::text as early_bird_until,
        early_bird_discount, members_only
      from event_registration_types where tenant_id = ${tenantId} and event_id = ${eventId} and not is_deleted
      order by registration_type_id`,
  );
  return {
    EventId: eventId,
    HashedEventId: event.hashed_event_id,
    Name: event.name,
    Description: event.description,
    Category: event.category,
    Location: event.location,
    OnlineUrl: event.online_url,
    Timezone: eventTimezone(event, tenantTimezone),
    Visibility: event.visibility,
    RegistrationOpen: event.registration_open,
    WaitlistEnabled: event.waitlist_enabled,
    CreditHours: numOrNull(event.credit_hours),
    Image: image,
    Occurrences: details.map((d) => {
      const capacity = numOrNull(d.capacity);
      return {
        EventDetailId: num(d.event_detail_id),
        StartsAt: String(d.starts_at),
        EndsAt: String(d.ends_at),
        Status: String(d.status),
        Location: strOrNull(d.location),
        seatsLeft: capacity === null ? null : Math.max(0, capacity - num(d.seats_taken)),
      };
    }),
    RegistrationTypes: types.map((t) => {
      const price = registrationPrice(
        {
          memberPriceCents: num(t.member_price),
          nonMemberPriceCents: num(t.non_member_price),
          earlyBirdUntil: strOrNull(t.early_bird_until),
          earlyBirdDiscountCents: num(t.early_bird_discount),
        },
        buyer,
      );
      return {
        RegistrationTypeId: num(t.registration_type_id),
        Name: String(t.name),
        priceCents: price.unitPriceCents,
        discountCents: price.discountCents,
        MemberPrice: num(t.member_price),
        NonMemberPrice: num(t.non_member_price),
        EarlyBirdUntil: strOrNull(t.early_bird_until),
        MembersOnly: Boolean(t.members_only),
      };
    }),
    Questions: (await registrationQuestions(services)?.fields(tx, tenantId, 'member', eventId)) ?? [],
  };
}

/** A member's own registrations (as registrant or attendee), upcoming first. */
export async function myRegistrations(tx: Tx, tenantId: string, contactId: number) {
  const found = await rows<Record<string, unknown>>(
    tx,
    q`select a.attendee_id, a.event_id, a.event_detail_id, e.hashed_event_id, e.name as event_name, a.attendee_name,
        ${iso('d.starts_at')} as starts_at, ${iso('d.ends_at')} as ends_at, a.event_attendee_status_id,
        a.check_in_code, ${iso('a.offer_expires_at')} as offer_expires_at
      from event_attendees a
      join event_registrations r on r.tenant_id = a.tenant_id and r.registration_id = a.registration_id
      join event_details d on d.tenant_id = a.tenant_id and d.event_detail_id = a.event_detail_id
      join events e on e.tenant_id = a.tenant_id and e.event_id = a.event_id
      where a.tenant_id = ${tenantId} and not a.is_deleted and (a.contact_id = ${contactId} or r.contact_id = ${contactId})
      order by d.starts_at desc limit 200`,
  );
  return found.map((r) => {
    const status = num(r.event_attendee_status_id);
    return {
      AttendeeId: num(r.attendee_id),
      EventId: num(r.event_id),
      EventDetailId: num(r.event_detail_id),
      HashedEventId: String(r.hashed_event_id),
      EventName: String(r.event_name),
      AttendeeName: String(r.attendee_name),
      StartsAt: String(r.starts_at),
      EndsAt: String(r.ends_at),
      EventAttendeeStatusId: status,
      CheckInCode: String(r.check_in_code),
      OfferExpiresAt: strOrNull(r.offer_expires_at),
      canCancel:
        status !== S.Cancelled && status !== S.Attended && Date.parse(String(r.starts_at)) > Date.now(),
    };
  });
}

/**
 * A contact's events for the contact record: every registration where the contact attends or registered the party
 * (guests they brought), newest occurrence first, with attendance and the credits earned by checking in.
 */
export async function contactEvents(
  tx: Tx,
  tenantId: string,
  contactId: number,
  tenantTimezone: string | undefined,
) {
  const contact = await one<{ contact_id: unknown }>(
    tx,
    q`select contact_id from contacts where tenant_id = ${tenantId} and contact_id = ${contactId}`,
  );
  if (!contact) throw notFound();
  const found = await rows<Record<string, unknown>>(
    tx,
    q`select a.attendee_id, a.event_id, a.event_detail_id, e.name as event_name, c.name as category,
        ${iso('d.starts_at')} as starts_at, ${iso('d.ends_at')} as ends_at, e.timezone_id, a.attendee_name,
        a.contact_id = ${contactId} as is_attendee, a.event_attendee_status_id, t.name as type_name,
        ${iso('a.checked_in_at')} as checked_in_at, a.credits_earned, a.invoice_id
      from event_attendees a
      join event_registrations r on r.tenant_id = a.tenant_id and r.registration_id = a.registration_id
      join event_details d on d.tenant_id = a.tenant_id and d.event_detail_id = a.event_detail_id
      join events e on e.tenant_id = a.tenant_id and e.event_id = a.event_id
      left join event_categories c on c.tenant_id = e.tenant_id and c.category_id = e.category_id
      left join event_registration_types t on t.tenant_id = a.tenant_id and t.registration_type_id = a.registration_type_id
      where a.tenant_id = ${tenantId} and not a.is_deleted and not e.is_deleted
        and (a.contact_id = ${contactId} or (r.contact_id = ${contactId} and a.contact_id is distinct from ${contactId}))
      order by d.starts_at desc, a.attendee_id limit 500`,
  );
  const now = Date.now();
  const out = found.map((r) => ({
    AttendeeId: num(r.attendee_id),
    EventId: num(r.event_id),
    EventDetailId: num(r.event_detail_id),
    EventName: String(r.event_name),
    Category: strOrNull(r.category),
    StartsAt: String(r.starts_at),
    EndsAt: String(r.ends_at),
    Timezone: resolveTimeZone((r.timezone_id as string | null) ?? tenantTimezone),
    AttendeeName: String(r.attendee_name),
    IsAttendee: Boolean(r.is_attendee),
    EventAttendeeStatusId: num(r.event_attendee_status_id),
    RegistrationType: strOrNull(r.type_name),
    CheckedInAt: strOrNull(r.checked_in_at),
    CreditsEarned: numOrNull(r.credits_earned),
    InvoiceId: numOrNull(r.invoice_id),
  }));
  const own = out.filter((r) => r.IsAttendee);
  return {
    ContactId: contactId,
    upcoming: own.filter((r) => Date.parse(r.EndsAt) > now && holdsSeat(r.EventAttendeeStatusId)).length,
    attended: own.filter((r) => r.EventAttendeeStatusId === S.Attended).length,
    noShows: own.filter((r) => r.EventAttendeeStatusId === S.NoShow).length,
    cancelled: own.filter((r) => r.EventAttendeeStatusId === S.Cancelled).length,
    credits: own.reduce(
      (sum, r) => sum + (r.EventAttendeeStatusId === S.Attended ? (r.CreditsEarned ?? 0) : 0),
      0,
    ),
    Rows: out,
  };
}

/** One registration of a batch: who and what, resolved in the batch's transaction (a member's own contact). */
export interface BatchEntry {
  /** Who asks: staff, or a member for themselves (what a known-full occurrence checks first differs). */
  channel: 'backoffice' | 'member';
  resolve: (tx: Tx) => Promise<{ registrant: Registrant; input: RegisterInput; today: string }>;
}

/** One registration's result in a batch: its answer and mail, or its refusal. */
export type BatchResult =
  | { answer: RegisterAnswer; outgoing: Outgoing[] }
  | { refused: Refusal }
  | { error: unknown };

/** What a registration must pass, by channel, before its seats count (published, public, open, not started). */
export interface OccurrenceGate {
  published: boolean;
  isPublic: boolean;
  registrationOpen: boolean;
  startsAt: number;
}

/** What a batch learnt of its occurrence's seats after its writes (the full-occurrence cache keeps it). */
export interface SeatsAfter {
  capacity: number | null;
  taken: number;
  waitlistEnabled: boolean;
}

/**
 * Registrations of one occurrence taken together in one transaction (group commit, decision 0140): the occurrence is
 * read once; each registration is checked and priced on its own (its refusal is its own answer); those with nothing
 * else to write under the lock (no registration type with seats of its own, no answers, no fee to bill, no expired
 * offer to release) take their seats together: one statement locks the occurrence's row and adds min(asked, left)
 * seats with its conditional UPDATE (the guard across app processes), parties are seated first come first served
 * (a party is never split; one that does not fit is waitlisted or refused, as one at a time would be), one statement
 * writes every registration and attendee and gives back seats taken but not used. The others run one by one in
 * savepoints the usual way. Answers in the order of `entries`.
 */
export async function registerBatch(
  tx: Tx,
  tenantId: string,
  eventDetailId: number,
  entries: BatchEntry[],
  services: Services,
): Promise<{ results: BatchResult[]; seats: SeatsAfter | null; detail: OccurrenceGate | null }> {
  const results: BatchResult[] = new Array(entries.length);
  let probe: Awaited<ReturnType<typeof peekDetail>>;
  try {
    probe = await peekDetail(tx, tenantId, eventDetailId);
  } catch (error) {
    return { results: entries.map(() => ({ error })), seats: null, detail: null };
  }
  const detail: OccurrenceGate = {
    published: probe.status === 'published',
    isPublic: probe.visibility === 'public',
    registrationOpen: probe.registration_open,
    startsAt: Date.parse(probe.starts_at),
  };
  const fast: { i: number; p: Prepared; today: string }[] = [];
  const slow: { i: number; registrant: Registrant; input: RegisterInput; today: string }[] = [];
  // The event's questions by audience, read once for the batch (every entry is for the same event).
  const asked = registrationQuestions(services);
  const questions = new Map<AnswerAudience, Promise<readonly unknown[]>>();
  const questionsOf = (audience: AnswerAudience) => {
    let found = questions.get(audience);
    if (!found) {
      found = asked ? asked.fields(tx, tenantId, audience, num(probe.event_id)) : Promise.resolve([]);
      questions.set(audience, found);
    }
    return found;
  };
  for (const [i, entry] of entries.entries()) {
    try {
      const { registrant, input, today } = await entry.resolve(tx);
      const p = await prepare(
        tx,
        tenantId,
        registrant,
        { ...input, eventDetailId },
        today,
        services,
        probe,
        questionsOf,
      );
      const billed = p.seatCents > 0 && registrant.contactId !== null && p.type !== undefined;
      if (probe.stale_offers || p.typeCapped || p.answers.length > 0 || billed)
        slow.push({ i, registrant, input, today });
      else fast.push({ i, p, today });
    } catch (error) {
      results[i] = { error };
    }
  }
  let seats: SeatsAfter | null = null;
  if (fast.length > 0) {
    // The lock and the seats: min(asked, left) taken by the conditional UPDATE, what was there before read under
    // the lock (the CTE's `for update` waits for the row and reads it as its last holder committed it).
    const asked = fast.reduce((n, f) => n + f.p.party, 0);
    const took = await one<LockedDetail & { before: unknown; after: unknown }>(
      tx,
      q`with cur as (
          select ${detailColumns}, d.seats_taken as before
          from event_details d join events e on e.tenant_id = d.tenant_id and e.event_id = d.event_id
          where d.tenant_id = ${tenantId} and d.event_detail_id = ${eventDetailId} and not d.is_deleted
          for update of d),
        upd as (
          update event_details d set seats_taken = d.seats_taken + least(${asked}::int,
              greatest(coalesce(cur.capacity - d.seats_taken, ${asked}::int), 0))
          from cur
          where d.tenant_id = ${tenantId} and d.event_detail_id = ${eventDetailId} and cur.detail_status <> 'cancelled'
            and not cur.event_deleted
            and (cur.capacity is null or d.seats_taken < cur.capacity or cur.waitlist_enabled)
          returning d.seats_taken as after)
        select cur.*, (select after from upd) as after from cur`,
    );
    if (!took || took.event_deleted) {
      for (const f of fast) results[f.i] = { error: notFound() };
    } else if (took.detail_status === 'cancelled') {
      for (const f of fast) results[f.i] = { error: new HttpError(409, 'This occurrence is cancelled.') };
    } else {
      const capacity = numOrNull(took.capacity);
      const before = num(took.before);
      const granted = took.after === null ? 0 : num(took.after) - before;
      // Contacts already holding a place, read after the lock (a snapshot taken before it could miss one).
      const contacts = [...new Set(fast.flatMap((f) => f.p.contacts))];
      const held = new Set<number>();
      if (contacts.length > 0)
        for (const r of await rows<{ contact_id: unknown }>(
          tx,
          q`select distinct contact_id from event_attendees
            where tenant_id = ${tenantId} and event_detail_id = ${eventDetailId} and not is_deleted
              and event_attendee_status_id <> ${S.Cancelled}
              and contact_id in (select (jsonb_array_elements_text(${JSON.stringify(contacts)}::jsonb))::bigint)`,
        ))
          held.add(num(r.contact_id));
      // First come first served: each party in turn takes its seats if they all fit in what is left.
      let room = granted;
      const writes: { f: (typeof fast)[number]; decision: RegistrationOutcome; status: number }[] = [];
      for (const f of fast) {
        if (f.p.contacts.some((c) => held.has(c))) {
          results[f.i] = { error: new HttpError(409, 'Already registered for this occurrence.') };
          continue;
        }
        for (const c of f.p.contacts) held.add(c);
        if (f.p.party <= room) {
          room -= f.p.party;
          writes.push({ f, decision: { outcome: 'registered' }, status: S.Registered });
          continue;
        }
        const decision = decideRegistration(
          [{ capacity, taken: before + granted - room }],
          f.p.party,
          took.waitlist_enabled,
        );
        if (decision.outcome === 'refused') results[f.i] = { refused: refusal(decision.message) };
        else writes.push({ f, decision, status: S.Waitlisted });
      }
      // Nothing to write (every party refused): the seats taken go back on their own.
      if (writes.length === 0 && room > 0)
        await rows(
          tx,
          q`update event_details set seats_taken = seats_taken - ${room}::int
            where tenant_id = ${tenantId} and event_detail_id = ${eventDetailId}`,
        );
      const written =
        writes.length === 0
          ? []
          : await rows<InsertedAttendee & { k: unknown }>(
              tx,
              q`with give as (
                  update event_details set seats_taken = seats_taken - ${room}::int
                  where tenant_id = ${tenantId} and event_detail_id = ${eventDetailId} and ${room}::int > 0
                  returning 1),
                src as (
                  select * from jsonb_to_recordset(${JSON.stringify(
                    writes.map((w, k) => ({
                      k,
                      c: w.f.p.registrant.contactId,
                      ch: w.f.p.registrant.channel,
                    })),
                  )}::jsonb) as p(k int, c bigint, ch text)),
                reg as (
                  insert into event_registrations (tenant_id, event_id, event_detail_id, contact_id, channel)
                  select ${tenantId}, ${num(took.event_id)}, ${eventDetailId}, src.c, src.ch from src order by src.k
                  returning registration_id),
                -- The registrations' ids are drawn in the order they were inserted: the k-th id is the k-th party's.
                regk as (select registration_id, (row_number() over (order by registration_id)) - 1 as k from reg),
                att as (
                  insert into event_attendees (tenant_id, event_id, event_detail_id, registration_id, contact_id,
                    attendee_name, attendee_email, registration_type_id, event_attendee_status_id, paid_cents)
                  select ${tenantId}, ${num(took.event_id)}, ${eventDetailId}, regk.registration_id, r.c, r.n, r.e,
                    r.t, r.s, r.cents
                  from jsonb_to_recordset(${JSON.stringify(
                    writes.flatMap((w, k) =>
                      w.f.p.people.map((x, i) => ({
                        k,
                        i,
                        c: x.contactId,
                        n: x.name,
                        e: x.email,
                        t: w.f.p.write.registrationTypeId,
                        s: w.status,
                        cents: w.status === S.Registered ? w.f.p.seatCents : 0,
                      })),
                    ),
                  )}::jsonb) as r(k int, i int, c bigint, n text, e text, t bigint, s int, cents int)
                  join regk on regk.k = r.k
                  order by r.k, r.i
                  returning registration_id, attendee_id, attendee_name, event_attendee_status_id, check_in_code,
                    attendee_email)
                select att.*, regk.k from att join regk using (registration_id) order by att.attendee_id`,
            );
      for (const [k, w] of writes.entries()) {
        const inserted = written.filter((r) => num(r.k) === k);
        const outgoing: Outgoing[] = [];
        try {
          const answer = await complete(tx, tenantId, w.f.p, took, w.decision, inserted, outgoing, services);
          results[w.f.i] = { answer, outgoing };
        } catch (error) {
          results[w.f.i] = { error };
        }
      }
      seats = { capacity, taken: before + granted - room, waitlistEnabled: took.waitlist_enabled };
    }
  }
  // The others the usual way, each in a savepoint: one's failure is its own.
  for (const s of slow) {
    const outgoing: Outgoing[] = [];
    try {
      const answer = await tx.transaction((sp) =>
        register(sp, tenantId, s.registrant, { ...s.input, eventDetailId }, s.today, outgoing, services),
      );
      results[s.i] = { answer, outgoing };
    } catch (error) {
      results[s.i] = { error };
    }
  }
  return { results, seats, detail };
}
