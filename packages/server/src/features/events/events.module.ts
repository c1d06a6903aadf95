/**
 * The events feature: occurrences from repeat rules, registration with capacity and waitlists, check-in, the
 * calendars' range feed, the public page and the iCalendar feeds (routes), and the server hooks of its resources.
 */
import {
  eventConfirmationMail,
  eventSeatHeldMail,
  eventSeatOfferMail,
  eventWaitlistMail,
  invoiceEventSchema,
} from '@guildhall/shared';
import { defineFeature } from '../../platform/feature-module.ts';
import { eventsHooks } from './events.hooks.ts';
import { refreshEventSearch } from './events.repo.ts';
import { eventsRoutes } from './events.routes.ts';
import { REGISTRATION_SOURCE, registrationPaid, registrationVoided } from './events.service.ts';

export const eventsModule = defineFeature({
  name: 'events',
  routes: eventsRoutes,
  resourceHooks: eventsHooks,
  searchDocuments: { Event: refreshEventSearch },
  mailTemplates: [eventConfirmationMail, eventSeatHeldMail, eventWaitlistMail, eventSeatOfferMail],
  subscribes: {
    // A registration's invoice paid: its seats awaiting payment are confirmed.
    'invoice.paid': (services) => async (tx, tenantId, payload) => {
      const event = invoiceEventSchema.parse(payload);
      if (event.sourceKind !== REGISTRATION_SOURCE || event.sourceId === null) return;
      await registrationPaid(tx, tenantId, event.sourceId, event.invoiceId, services);
    },
    // Voided unpaid: the held seats go back to the waitlist.
    'invoice.voided': (services) => async (tx, tenantId, payload) => {
      const event = invoiceEventSchema.parse(payload);
      if (event.sourceKind !== REGISTRATION_SOURCE || event.sourceId === null) return;
      await registrationVoided(tx, tenantId, event.sourceId, services);
    },
  },
});
