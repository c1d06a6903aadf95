/** The system messages of events (decision 0154): confirmations, the waitlist and seat offers, reworded in Communications. */
import { defineSystemTemplate } from '../platform/system-templates.ts';

const attendee = { Name: 'Attendee.Name', Description: 'Name of the attendee', Sample: 'Ada Lovelace' };
const event = { Name: 'Event.Name', Description: 'Name of the event', Sample: 'Annual conference' };
const starts = {
  Name: 'Event.StartsAt',
  Description: 'When the occurrence starts',
  Sample: '2026-12-04 18:00',
};

export const eventConfirmationMail = defineSystemTemplate({
  Key: 'events.registrationConfirmation',
  Title: 'Event registration confirmation',
  Description: 'Sent to each attendee registered for an event (with the event attached for the calendar).',
  Group: 'Events',
  Subject: 'You are registered: {{Event.Name}}',
  BodyHtml:
    '<p>Hello {{Attendee.Name}},</p><p>You are registered for {{Event.Name}}, starting {{Event.StartsAt}}. Your check-in code is {{Attendee.CheckInCode}}; show it at the door. The event is attached to add to your calendar.</p><p>{{Association.Name}}</p>',
  Fields: [
    attendee,
    event,
    starts,
    { Name: 'Attendee.CheckInCode', Description: 'Check-in code to show at the door', Sample: 'K7Q2M9' },
  ],
});

export const eventSeatHeldMail = defineSystemTemplate({
  Key: 'events.seatHeld',
  Title: 'Event seat held until payment',
  Description: 'Sent when a paid registration holds a seat until its invoice is paid.',
  Group: 'Events',
  Subject: 'Your seat is held: {{Event.Name}}',
  BodyHtml:
    '<p>Hello {{Attendee.Name}},</p><p>Your seat at {{Event.Name}}, starting {{Event.StartsAt}}, is held until the invoice is paid. Your check-in code is {{Attendee.CheckInCode}}; show it at the door. The event is attached to add to your calendar.</p><p>{{Association.Name}}</p>',
  Fields: [
    attendee,
    event,
    starts,
    { Name: 'Attendee.CheckInCode', Description: 'Check-in code to show at the door', Sample: 'K7Q2M9' },
  ],
});

export const eventWaitlistMail = defineSystemTemplate({
  Key: 'events.waitlisted',
  Title: 'Event waitlist',
  Description: 'Sent when an event is full and the attendee joins its waitlist.',
  Group: 'Events',
  Subject: 'You are on the waitlist: {{Event.Name}}',
  BodyHtml:
    '<p>Hello {{Attendee.Name}},</p><p>{{Event.Name}} is full; you are on its waitlist. We will write to you when a seat frees.</p><p>{{Association.Name}}</p>',
  Fields: [attendee, event, starts],
});

export const eventSeatOfferMail = defineSystemTemplate({
  Key: 'events.waitlistOffer',
  Title: 'Event waitlist offer',
  Description: 'Sent to the next person on the waitlist when a seat frees; the seat is held for a few hours.',
  Group: 'Events',
  Subject: 'A seat is free for you: {{Event.Name}}',
  BodyHtml:
    '<p>Hello {{Attendee.Name}},</p><p>A seat has freed up at {{Event.Name}} ({{Event.StartsAt}}). It is held for you for {{Offer.Hours}} hours: accept it from "My events" in the member area, or with your code {{Attendee.CheckInCode}}. After that it goes to the next person on the waitlist.</p><p>{{Association.Name}}</p>',
  Fields: [
    attendee,
    event,
    starts,
    { Name: 'Attendee.CheckInCode', Description: 'Code of the attendee', Sample: 'K7Q2M9' },
    { Name: 'Offer.Hours', Description: 'Hours the seat is held', Sample: '24' },
  ],
});
