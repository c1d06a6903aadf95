/**
 * The events routes beside the generic layer's lists and records: getEventId (spec 000 section 7), the calendar's
 * range feed (back office and member area), registration, cancel, waitlist offers, check-in, the member area's
 * pages, the public page by hashed id, and the iCalendar files and feeds. Thin: each calls the service.
 */
import { q, type Tx, withTenantTx } from '@guildhall/db';
import {
  calendarOccurrenceSchema,
  calendarQuerySchema,
  cancelAnswerSchema,
  checkInBodySchema,
  checkInListSchema,
  contactEventsSchema,
  customFieldSchema,
  eventOverviewSchema,
  eventPageSchema,
  getEventIdAnswerSchema,
  memberCertificationSchema,
  memberFeedSchema,
  myRegistrationSchema,
  publicRegisterBodySchema,
  registerAnswerSchema,
  registerBodySchema,
  resolveTimeZone,
  todayIn,
} from '@guildhall/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type AuthContext,
  ownContactId,
  ownContactIdIfAny,
  ownContactIn,
  requireAuth,
  scope,
} from '../../platform/context.ts';
import { HttpError, notFound } from '../../platform/errors.ts';
import { billingApi } from '../billing/billing.module.ts';
import { communicationsApi } from '../communications/communications.module.ts';
import { filesApi } from '../files/files.module.ts';
import { registrationBatcher } from './events.batch.ts';
import { memberCertifications, memberRegisterCertification } from './events.certifications.ts';
import {
  contactOfFeedToken,
  feedOccurrences,
  memberFeed,
  memberFeedOccurrences,
  resetMemberFeed,
} from './events.feeds.ts';
import { refusedAsFull, sendRefusal } from './events.full.ts';
import { etagOf, icsOf } from './events.ical.ts';
import { attendeeListPdf, badgesPdf } from './events.pdf.ts';
import * as repo from './events.repo.ts';
import { num, numOrNull, one } from './events.repo.ts';
import * as service from './events.service.ts';

const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const hash = z.string().regex(/^[0-9a-f]{32}$/);
const tenantParam = z.uuid();
const message = z.object({ message: z.string() });

const tzOf = (auth: AuthContext) => auth.tenantSettings?.defaultTimezone;
const isStaff = (auth: AuthContext) => auth.role !== 'member';

async function tenantTimezone(tx: Tx, tenantId: string): Promise<string> {
  const row = await one<{ tz: string | null }>(
    tx,
    q`select settings->>'defaultTimezone' as tz from tenants where id = ${tenantId}`,
  );
  return resolveTimeZone(row?.tz);
}

export const eventsRoutes: FastifyPluginAsyncZod = async (app) => {
  const batcher = registrationBatcher(app.database, app.services);
  /** Sends what a use case left to send (confirmations with their .ics, offers), after the answer. */
  const host = new URL(app.config.publicUrl ?? 'http://localhost').host;
  const send = (tenantId: string, outgoing: service.Outgoing[]) => {
    for (const mail of outgoing)
      app.background.run('event mail', async () => {
        const ics = mail.ics ? await occurrenceAttachment(tenantId, mail.ics.eventDetailId) : null;
        const attachments = ics ? { attachments: [ics] } : {};
        // A system message, sent in the association's wording and logged (decision 0154).
        await communicationsApi.sendSystemMail(app.services, tenantId, mail.template.declaration, {
          to: mail.to,
          values: mail.template.values,
          ...attachments,
        });
      });
  };
  /** The occurrence as an .ics file for a confirmation (the same text as its download). */
  const occurrenceAttachment = (tenantId: string, eventDetailId: number) =>
    withTenantTx(app.database.db, { tenantId }, async (tx) => {
      const tz = await tenantTimezone(tx, tenantId);
      const [occurrence] = await feedOccurrences(tx, tenantId, q`d.event_detail_id = ${eventDetailId}`, tz);
      if (!occurrence) return null;
      return {
        filename: `${fileNameOf(occurrence.title)}.ics`,
        content: Buffer.from(await icsOf(occurrence.title, host, [occurrence]), 'utf8'),
        contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
      };
    });

  /** An event's image (a library file's, decision 0092), or 404 when it has none. */
  const sendEventImage = async (
    reply: FastifyReply,
    tx: Tx,
    tenantId: string,
    event: repo.EventRow,
    size: 'variant' | 'thumbnail',
    cache: 'public' | 'private',
  ) => {
    const fileId = numOrNull(event.image_file_id);
    const found = fileId === null ? null : await filesApi.imageOfFile(tx, tenantId, fileId, size);
    if (!found || !(await app.storage.has(found.key))) throw notFound();
    return reply
      .header('Content-Type', found.contentType)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Security-Policy', "sandbox; default-src 'none'")
      .header('Cache-Control', `${cache}, max-age=300`)
      .send(app.storage.get(found.key));
  };

  app.get('/api/events/getEventId/:id', {
    config: { permission: 'authenticated', scoped: true },
    schema: {
      tags: ['events'],
      summary: 'EventId, EventDetailId (the next occurrence) and HashEventId of an event by id or hashed id',
      params: z.object({ id: z.string().min(1).max(40) }),
      response: { 200: getEventIdAnswerSchema },
    },
    handler: (req) => {
      const { tx, auth } = scope(req);
      return service.getEventId(tx, auth.tenantId, req.params.id, isStaff(auth) ? 'staff' : 'member');
    },
  });

  app.get('/api/events/events/:id/overview', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['events'],
      summary: "The event record's Waitlist, Finances and Check-in tabs: its waitlist, money and occurrences",
      params: z.object({ id }),
      response: { 200: eventOverviewSchema },
    },
    handler: (req) => {
      const { tx, auth } = scope(req);
      return service.eventOverview(tx, auth.tenantId, req.params.id);
    },
  });

  app.get('/api/events/events/:id/questions', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['events'],
      summary: 'The registration questions staff ask when registering someone for the event',
      params: z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) }),
      response: { 200: z.array(customFieldSchema) },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const event = await repo.findEvent(tx, auth.tenantId, req.params.id);
      if (!event || event.is_deleted) throw notFound();
      return (
        (await service
          .registrationQuestions(app.services)
          ?.fields(tx, auth.tenantId, 'staff', req.params.id)) ?? []
      );
    },
  });

  app.get('/api/events/calendar', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['events'],
      summary: "Occurrences overlapping start..end (FullCalendar's feed: start, end, timeZone), expanded",
      querystring: calendarQuerySchema,
      response: { 200: z.array(calendarOccurrenceSchema) },
    },
    handler: async (req, reply) => {
      const { tx, auth } = scope(req);
      const timezone = resolveTimeZone(req.query.timeZone ?? req.query.timezone ?? tzOf(auth));
      const text = await service.calendar(
        tx,
        auth.tenantId,
        { ...req.query, timezone, audience: 'staff' },
        tzOf(auth),
      );
      // Already JSON of the declared shape, built by the database: sent as it is.
      return reply.type('application/json; charset=utf-8').send(text as never);
    },
  });

  app.get('/api/events/member/calendar', {
    config: { permission: 'member-area', scoped: true, ownRows: false },
    schema: {
      tags: ['events'],
      summary: 'The member area calendar: published occurrences overlapping start..end',
      querystring: calendarQuerySchema,
      response: { 200: z.array(calendarOccurrenceSchema) },
    },
    handler: async (req, reply) => {
      const { tx, auth } = scope(req);
      const timezone = resolveTimeZone(req.query.timeZone ?? req.query.timezone ?? tzOf(auth));
      const text = await service.calendar(
        tx,
        auth.tenantId,
        { ...req.query, timezone, audience: 'member' },
        tzOf(auth),
      );
      // Already JSON of the declared shape, built by the database: sent as it is.
      return reply.type('application/json; charset=utf-8').send(text as never);
    },
  });

  // Staff registration is not scoped: a request waits for its occurrence's batch (group commit, decision 0140)
  // without holding a transaction of its own, and an occurrence known full is refused without one.
  app.post('/api/events/registrations', {
    config: { permission: 'backoffice' },
    schema: {
      tags: ['events'],
      summary: 'Registers a contact (and the people named) for an occurrence; staff may register anyone',
      body: registerBodySchema,
      response: { 200: registerAnswerSchema, 409: message },
    },
    handler: async (req, reply) => {
      const auth = requireAuth(req.auth);
      const contactId = req.body.ContactId ?? null;
      if (contactId === null && (req.body.Attendees ?? []).length === 0)
        throw new HttpError(400, 'Choose the contact to register.', {
          ContactId: ['Choose the contact to register.'],
        });
      const full = refusedAsFull(auth.tenantId, req.body.EventDetailId, 'backoffice');
      if (full) return sendRefusal(reply, full);
      const result = await batcher.submit(auth.tenantId, req.body.EventDetailId, {
        channel: 'backoffice',
        resolve: async (tx) => ({
          registrant: {
            channel: 'backoffice',
            contactId,
            isMember: await service.isMemberContact(tx, auth.tenantId, contactId),
          },
          input: {
            eventDetailId: req.body.EventDetailId,
            registrationTypeId: req.body.RegistrationTypeId,
            attendees: req.body.Attendees ?? [],
            answers: { all: req.body.Answers, each: (req.body.Attendees ?? []).map((a) => a.Answers) },
          },
          today: todayIn(resolveTimeZone(tzOf(auth))),
        }),
      });
      if ('refused' in result) return sendRefusal(reply, result.refused);
      if ('error' in result) throw result.error;
      send(auth.tenantId, result.outgoing);
      return result.answer;
    },
  });

  app.post('/api/events/attendees/:id/cancel', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['events'],
      summary: "Cancels an attendee: the seat goes to the waitlist, the refund follows the event's rule",
      params: z.object({ id }),
      response: { 200: cancelAnswerSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const outgoing: service.Outgoing[] = [];
      const { contactId: _c, ...answer } = await service.cancelAttendee(
        tx,
        auth.tenantId,
        req.params.id,
        null,
        outgoing,
        app.services,
      );
      send(auth.tenantId, outgoing);
      return answer;
    },
  });

  app.get('/api/events/details/:id/check-in', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['events'],
      summary: 'The attendees of an occurrence at the door, by name, email or confirmation code',
      params: z.object({ id }),
      querystring: z.object({ search: z.string().max(100).optional() }),
      response: { 200: checkInListSchema },
    },
    handler: (req) => {
      const { tx, auth } = scope(req);
      return service.checkInList(tx, auth.tenantId, req.params.id, (req.query.search ?? '').trim());
    },
  });

  // Printable documents of an occurrence: its attendee list and its attendees' name badges.
  for (const [kind, render, label] of [
    ['attendees', attendeeListPdf, 'attendee list'],
    ['badges', badgesPdf, 'name badges'],
  ] as const)
    app.get(`/api/events/details/:id/${kind}.pdf`, {
      config: { permission: 'backoffice', scoped: true },
      schema: {
        tags: ['events'],
        summary: `The ${label} of an occurrence as a PDF to print`,
        params: z.object({ id }),
      },
      handler: async (req, reply) => {
        const { tx, auth } = scope(req);
        const { bytes, name } = await render(
          tx,
          auth.tenantId,
          req.params.id,
          tzOf(auth) ?? 'America/Chicago',
        );
        return reply
          .header('Content-Type', 'application/pdf')
          .header('Content-Disposition', `inline; filename="${fileNameOf(name)}-${kind}.pdf"`)
          .header('Cache-Control', 'private, no-store')
          .send(bytes);
      },
    });

  app.post('/api/events/details/:id/no-shows', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['events'],
      summary: 'After an occurrence has ended: the attendees registered and never checked in become no-shows',
      params: z.object({ id }),
      response: { 200: z.object({ marked: z.number(), message: z.string() }) },
    },
    handler: (req) => {
      const { tx, auth } = scope(req);
      return service.markNoShows(tx, auth.tenantId, req.params.id);
    },
  });

  app.get('/api/events/contacts/:id/events', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['events'],
      summary:
        "A contact's registrations and attendance (the contact record's Events tab), with credits earned",
      params: z.object({ id }),
      response: { 200: contactEventsSchema },
    },
    handler: (req) => {
      const { tx, auth } = scope(req);
      return service.contactEvents(tx, auth.tenantId, req.params.id, tzOf(auth));
    },
  });

  app.post('/api/events/check-in', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['events'],
      summary: 'Checks an attendee in (by id or the code on the confirmation), or undoes it',
      body: checkInBodySchema,
      response: {
        200: z.object({
          AttendeeId: z.number(),
          AttendeeName: z.string(),
          EventAttendeeStatusId: z.number(),
          CheckedInAt: z.string().nullable(),
          message: z.string(),
        }),
      },
    },
    handler: (req) => {
      const { tx, auth } = scope(req);
      if (req.body.AttendeeId === undefined && !req.body.Code)
        throw new HttpError(400, 'Give the attendee or the code.', {
          Code: ['Give the attendee or the code.'],
        });
      return service.checkIn(tx, auth.tenantId, req.body);
    },
  });

  // Member area: events, their page, register, my registrations, cancel, accept an offer.
  app.get('/api/events/member/events/:id', {
    config: { permission: 'member-area', scoped: true, ownRows: true },
    schema: {
      tags: ['events'],
      summary: 'An event as the member area shows it (EventDetail.General), by id or hashed id',
      params: z.object({ id: z.string().min(1).max(40) }),
      response: { 200: eventPageSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const event = /^\d{1,15}$/.test(req.params.id)
        ? await repo.findEvent(tx, auth.tenantId, Number(req.params.id))
        : await repo.findEventByHash(tx, auth.tenantId, req.params.id);
      if (!event || event.is_deleted || event.status !== 'published') throw notFound();
      const contactId = await ownContactIdIfAny(req);
      return service.eventPage(
        tx,
        auth.tenantId,
        event,
        {
          isMember: await service.isMemberContact(tx, auth.tenantId, contactId),
          today: todayIn(resolveTimeZone(tzOf(auth))),
        },
        tzOf(auth),
        app.services,
        `/api/events/member/events/${num(event.event_id)}/image`,
      );
    },
  });

  // The event's image for the member area: of an event the member may open (published), by the event's id.
  for (const size of ['variant', 'thumbnail'] as const)
    app.get(`/api/events/member/events/:id/image${size === 'thumbnail' ? '/thumbnail' : ''}`, {
      config: { permission: 'member-area', scoped: true, ownRows: false },
      schema: {
        tags: ['events'],
        summary: `The image of a published event (its ${size === 'thumbnail' ? 'thumbnail' : 'crop applied'}), for the member area`,
        params: z.object({ id }),
      },
      handler: async (req, reply) => {
        const { tx, auth } = scope(req);
        const event = await repo.findEvent(tx, auth.tenantId, req.params.id);
        if (!event || event.is_deleted || event.status !== 'published') throw notFound();
        return sendEventImage(reply, tx, auth.tenantId, event, size, 'private');
      },
    });

  // A member's registration takes the staff route's batch (decision 0190): it is not scoped, waits for its
  // occurrence's batch holding no connection, and its own contact is read in the batch's transaction.
  app.post('/api/events/member/register', {
    config: { permission: 'member-area', ownRows: true, queued: true },
    schema: {
      tags: ['events'],
      summary: 'Registers the member (and any guests they name) for an occurrence',
      body: registerBodySchema,
      response: { 200: registerAnswerSchema, 409: message },
    },
    handler: async (req, reply) => {
      const auth = requireAuth(req.auth);
      const full = refusedAsFull(auth.tenantId, req.body.EventDetailId, 'member');
      if (full) return sendRefusal(reply, full);
      const guests = (req.body.Attendees ?? []).map((a) => ({
        Name: a.Name,
        Email: a.Email,
        Answers: a.Answers,
      }));
      const result = await batcher.submit(auth.tenantId, req.body.EventDetailId, {
        channel: 'member',
        resolve: async (tx) => {
          const contactId = await ownContactIn(req, tx);
          return {
            registrant: {
              channel: 'member',
              contactId,
              isMember: await service.isMemberContact(tx, auth.tenantId, contactId),
            },
            input: {
              eventDetailId: req.body.EventDetailId,
              registrationTypeId: req.body.RegistrationTypeId,
              attendees: guests.length > 0 ? [{ ContactId: contactId }, ...guests] : [],
              answers: { all: req.body.Answers, each: [undefined, ...guests.map((g) => g.Answers)] },
            },
            today: todayIn(resolveTimeZone(tzOf(auth))),
          };
        },
      });
      if ('refused' in result) return sendRefusal(reply, result.refused);
      if ('error' in result) throw result.error;
      send(auth.tenantId, result.outgoing);
      return result.answer;
    },
  });

  app.get('/api/events/member/registrations', {
    config: { permission: 'member-area', scoped: true, ownRows: true },
    schema: {
      tags: ['events'],
      summary: "The member's own registrations",
      response: { 200: z.array(myRegistrationSchema) },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.myRegistrations(tx, auth.tenantId, await ownContactId(req));
    },
  });

  app.post('/api/events/member/registrations/:id/cancel', {
    config: { permission: 'member-area', scoped: true, ownRows: true },
    schema: {
      tags: ['events'],
      summary: "Cancels one of the member's registrations (refund by the association's rule)",
      params: z.object({ id }),
      response: { 200: cancelAnswerSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const outgoing: service.Outgoing[] = [];
      const { contactId: _c, ...answer } = await service.cancelAttendee(
        tx,
        auth.tenantId,
        req.params.id,
        await ownContactId(req),
        outgoing,
        app.services,
      );
      send(auth.tenantId, outgoing);
      return answer;
    },
  });

  app.post('/api/events/member/registrations/:id/accept', {
    config: { permission: 'member-area', scoped: true, ownRows: true },
    schema: {
      tags: ['events'],
      summary: 'Takes the seat offered from the waitlist',
      params: z.object({ id }),
      response: {
        200: z.object({ AttendeeId: z.number(), EventAttendeeStatusId: z.number(), message: z.string() }),
      },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.acceptOffer(tx, auth.tenantId, req.params.id, await ownContactId(req));
    },
  });

  app.post('/api/events/member/registrations/:id/pay', {
    config: { permission: 'member-area', scoped: true, ownRows: true },
    schema: {
      tags: ['events'],
      summary: "Pays a registration's invoice with the member's saved card (through billing)",
      params: z.object({ id }),
      body: z.object({ idempotencyKey: z.string().min(8).max(100) }),
      response: { 200: z.object({ ok: z.boolean(), message: z.string() }) },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const contactId = await ownContactId(req);
      const row = await one<{ invoice_id: unknown }>(
        tx,
        q`select a.invoice_id from event_attendees a
          join event_registrations r on r.tenant_id = a.tenant_id and r.registration_id = a.registration_id
          where a.tenant_id = ${auth.tenantId} and a.attendee_id = ${req.params.id}
            and (a.contact_id = ${contactId} or r.contact_id = ${contactId})`,
      );
      if (!row) throw notFound();
      if (row.invoice_id === null) throw new HttpError(409, 'There is nothing to pay for this registration.');
      const result = await billingApi.chargeSavedCard(tx, app.services, auth.tenantId, {
        invoiceId: num(row.invoice_id),
        idempotencyKey: `event-pay-${req.body.idempotencyKey}`,
      });
      return {
        ok: result.ok,
        message: result.ok
          ? 'Paid: your registration is confirmed.'
          : (result.message ?? 'The payment did not go through.'),
      };
    },
  });

  // The public page by hashed id: published public events only; another tenant's or a draft answers 404.
  const publicEvent = async (tx: Tx, tenantId: string, hashedId: string) => {
    const event = await repo.findEventByHash(tx, tenantId, hashedId);
    if (!event || event.is_deleted || event.status !== 'published' || event.visibility !== 'public')
      throw notFound();
    return event;
  };

  app.get('/api/events/public/:tenantId/:hash', {
    config: { permission: 'public' },
    schema: {
      tags: ['events'],
      summary: 'A published public event by its hashed id (no session needed)',
      params: z.object({ tenantId: tenantParam, hash }),
      response: { 200: eventPageSchema },
    },
    handler: (req) =>
      withTenantTx(app.database.db, { tenantId: req.params.tenantId }, async (tx) => {
        const event = await publicEvent(tx, req.params.tenantId, req.params.hash);
        const tz = await tenantTimezone(tx, req.params.tenantId);
        return service.eventPage(
          tx,
          req.params.tenantId,
          event,
          { isMember: false, today: todayIn(tz) },
          tz,
          app.services,
          `/api/events/public/${req.params.tenantId}/${req.params.hash}/image`,
        );
      }),
  });

  // The image of a public event's page, by the same unguessable address (no session needed).
  for (const size of ['variant', 'thumbnail'] as const)
    app.get(`/api/events/public/:tenantId/:hash/image${size === 'thumbnail' ? '/thumbnail' : ''}`, {
      config: { permission: 'public' },
      schema: {
        tags: ['events'],
        summary: `The image of a published public event (its ${size === 'thumbnail' ? 'thumbnail' : 'crop applied'}) by its hashed id`,
        params: z.object({ tenantId: tenantParam, hash }),
      },
      handler: (req, reply) =>
        withTenantTx(app.database.db, { tenantId: req.params.tenantId }, async (tx) => {
          const event = await publicEvent(tx, req.params.tenantId, req.params.hash);
          return sendEventImage(reply, tx, req.params.tenantId, event, size, 'public');
        }),
    });

  app.post('/api/events/public/:tenantId/:hash/register', {
    config: { permission: 'public' },
    schema: {
      tags: ['events'],
      summary: 'Registers without an account: the contact is matched by email, or created',
      params: z.object({ tenantId: tenantParam, hash }),
      body: publicRegisterBodySchema,
      response: { 200: registerAnswerSchema, 409: message },
    },
    handler: async (req) => {
      const tenantId = req.params.tenantId;
      const outgoing: service.Outgoing[] = [];
      const answer = await withTenantTx(app.database.db, { tenantId }, async (tx) => {
        const event = await publicEvent(tx, tenantId, req.params.hash);
        const detail = await one<{ event_id: unknown }>(
          tx,
          q`select event_id from event_details where tenant_id = ${tenantId} and event_detail_id = ${req.body.EventDetailId}`,
        );
        if (!detail || num(detail.event_id) !== num(event.event_id)) throw notFound();
        const contactId = await matchOrCreateContact(tx, tenantId, req.body);
        const tz = await tenantTimezone(tx, tenantId);
        const guests = (req.body.Guests ?? []).map((g) => ({ Name: g.Name, Email: g.Email }));
        return service.register(
          tx,
          tenantId,
          { channel: 'public', contactId, isMember: await service.isMemberContact(tx, tenantId, contactId) },
          {
            eventDetailId: req.body.EventDetailId,
            registrationTypeId: req.body.RegistrationTypeId,
            attendees: guests.length > 0 ? [{ ContactId: contactId }, ...guests] : [],
            answers: { all: req.body.Answers },
          },
          todayIn(tz),
          outgoing,
          app.services,
        );
      });
      send(tenantId, outgoing);
      return answer;
    },
  });

  // iCalendar: one .ics per event (public events by hashed id), and the tenant's feed of public events.
  const sendIcs = (
    req: FastifyRequest,
    reply: FastifyReply,
    text: string,
    fileName: string,
    cache: 'public' | 'private' = 'public',
  ) => {
    const etag = etagOf(text);
    reply
      .header('Content-Type', 'text/calendar; charset=utf-8')
      .header('Content-Disposition', `inline; filename="${fileName}"`)
      .header('Cache-Control', `${cache}, max-age=300`)
      .header('ETag', etag);
    if (req.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.send(text);
  };

  app.get('/api/events/ics/:tenantId/:hash', {
    config: { permission: 'public' },
    schema: {
      tags: ['events'],
      summary: 'One public event as an .ics file (every occurrence)',
      params: z.object({ tenantId: tenantParam, hash: z.string().regex(/^[0-9a-f]{32}(\.ics)?$/) }),
    },
    handler: async (req, reply) => {
      const hashed = req.params.hash.replace(/\.ics$/, '');
      const { text, name } = await withTenantTx(
        app.database.db,
        { tenantId: req.params.tenantId },
        async (tx) => {
          const event = await publicEvent(tx, req.params.tenantId, hashed);
          const tz = await tenantTimezone(tx, req.params.tenantId);
          const occurrences = await feedOccurrences(
            tx,
            req.params.tenantId,
            q`d.event_id = ${num(event.event_id)}`,
            tz,
          );
          return { text: await icsOf(event.name, host, occurrences), name: event.name };
        },
      );
      return sendIcs(req, reply, text, `${fileNameOf(name)}.ics`);
    },
  });

  app.get('/api/events/feed/:tenantId', {
    config: { permission: 'public' },
    schema: {
      tags: ['events'],
      summary: "The association's subscribable feed of published public events (iCalendar)",
      params: z.object({ tenantId: z.string().regex(/^[0-9a-f-]{36}(\.ics)?$/) }),
    },
    handler: async (req, reply) => {
      const tenantId = req.params.tenantId.replace(/\.ics$/, '');
      const text = await withTenantTx(app.database.db, { tenantId }, async (tx) => {
        const tz = await tenantTimezone(tx, tenantId);
        const occurrences = await feedOccurrences(
          tx,
          tenantId,
          q`e.status = 'published' and e.visibility = 'public'`,
          tz,
        );
        const named = await one<{ name: string }>(tx, q`select name from tenants where id = ${tenantId}`);
        if (!named) throw notFound();
        return await icsOf(`${named.name} events`, host, occurrences);
      });
      return sendIcs(req, reply, text, 'events.ics');
    },
  });

  app.get('/api/events/details/:id/ics', {
    config: { permission: 'authenticated', scoped: true },
    schema: {
      tags: ['events'],
      summary: 'One occurrence as an .ics file (staff: any; members: published events)',
      params: z.object({ id }),
    },
    handler: async (req, reply) => {
      const { tx, auth } = scope(req);
      const occurrences = await feedOccurrences(
        tx,
        auth.tenantId,
        isStaff(auth)
          ? q`d.event_detail_id = ${req.params.id}`
          : q`d.event_detail_id = ${req.params.id} and e.status = 'published'`,
        resolveTimeZone(tzOf(auth)),
      );
      if (occurrences.length === 0) throw notFound();
      return sendIcs(
        req,
        reply,
        await icsOf(occurrences[0]?.title ?? 'Event', host, occurrences),
        'event.ics',
      );
    },
  });

  // The member's certification programmes: the open ones and their own registrations with progress (decision 0142).
  app.get('/api/events/member/certifications', {
    config: { permission: 'member-area', scoped: true, ownRows: true },
    schema: {
      tags: ['events'],
      summary:
        "Certification programmes open to members, with the member's own progress in those they registered in",
      response: { 200: z.array(memberCertificationSchema) },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return memberCertifications(tx, auth.tenantId, await ownContactId(req));
    },
  });

  app.post('/api/events/member/certifications/:id/register', {
    config: { permission: 'member-area', scoped: true, ownRows: true },
    schema: {
      tags: ['events'],
      summary: 'The member registers in a certification programme open to members',
      params: z.object({ id }),
      response: { 200: z.object({ CertificationRegistrationId: z.number(), message: z.string() }) },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return memberRegisterCertification(tx, auth.tenantId, await ownContactId(req), req.params.id);
    },
  });

  // The member's own feed: its secret address (made or reset from the member area), and the feed behind it.
  app.get('/api/events/member/feed', {
    config: { permission: 'member-area', scoped: true, ownRows: true },
    schema: {
      tags: ['events'],
      summary: "The address of the member's calendar feed of their registrations (null until made)",
      response: { 200: memberFeedSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return memberFeed(tx, auth.tenantId, await ownContactId(req), app.config.publicUrl);
    },
  });

  app.post('/api/events/member/feed/reset', {
    config: { permission: 'member-area', scoped: true, ownRows: true },
    schema: {
      tags: ['events'],
      summary: "Makes the member's feed address, or a new one in place of the old (which then answers 404)",
      response: { 200: memberFeedSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return resetMemberFeed(tx, auth.tenantId, await ownContactId(req), app.config.publicUrl);
    },
  });

  app.get('/api/events/my-feed/:tenantId/:token', {
    config: { permission: 'public' },
    schema: {
      tags: ['events'],
      summary: "A member's registrations as a subscribable iCalendar feed, by the secret address's token",
      params: z.object({ tenantId: tenantParam, token: z.string().regex(/^[\w-]{43}(\.ics)?$/) }),
    },
    handler: async (req, reply) => {
      const tenantId = req.params.tenantId;
      const token = req.params.token.replace(/\.ics$/, '');
      const text = await withTenantTx(app.database.db, { tenantId }, async (tx) => {
        const contact = await contactOfFeedToken(tx, tenantId, token);
        if (!contact) throw notFound();
        const tz = await tenantTimezone(tx, tenantId);
        const occurrences = await memberFeedOccurrences(tx, tenantId, num(contact.contact_id), tz);
        const named = await one<{ name: string }>(tx, q`select name from tenants where id = ${tenantId}`);
        return await icsOf(`My events${named ? ` at ${named.name}` : ''}`, host, occurrences);
      });
      // Personal: kept by the subscriber only, never by a shared cache.
      return sendIcs(req, reply, text, 'my-events.ics', 'private');
    },
  });
};

/** A file name from an event's name. */
const fileNameOf = (name: string) =>
  name
    .replace(/[^\w -]+/g, '')
    .slice(0, 60)
    .trim() || 'event';

/** The public registrant's contact: matched by email among live contacts, or created as a prospect. */
async function matchOrCreateContact(
  tx: Tx,
  tenantId: string,
  person: { FirstName: string; LastName: string; Email: string },
): Promise<number> {
  const found = await one<{ contact_id: unknown }>(
    tx,
    q`select contact_id from contacts where tenant_id = ${tenantId} and lower(email) = lower(${person.Email})
        and not is_deleted order by contact_id limit 1`,
  );
  if (found) return num(found.contact_id);
  const created = await one<{ contact_id: unknown }>(
    tx,
    q`insert into contacts (tenant_id, contact_type, first_name, last_name, display_name, status, email)
      values (${tenantId}, 'individual', ${person.FirstName}, ${person.LastName},
        ${`${person.LastName}, ${person.FirstName}`}, 'prospect', ${person.Email})
      returning contact_id`,
  );
  return num(created?.contact_id);
}
