/**
 * iCalendar for events: one .ics per event and the subscribable feeds. Times are written as zoned date-times in
 * each event's own timezone (TZID plus its VTIMEZONE block): ical-generator given plain Date objects would write the
 * server's local time under the event's TZID.
 */
import { createHash } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';

export interface FeedOccurrence {
  eventDetailId: number;
  eventId: number;
  title: string;
  start: string;
  end: string;
  timezone: string;
  location: string | null;
  url: string | null;
  description: string | null;
  cancelled: boolean;
  /** Held but not confirmed (a seat awaiting payment, or offered from the waitlist): TENTATIVE. */
  tentative?: boolean;
}

/** Strips tags from a rich-text description for the feed's plain DESCRIPTION. */
function plainText(html: string | null): string | null {
  if (!html) return null;
  return html
    .replace(/<(br|\/p|\/li|\/h\d)>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * The feed of occurrences as iCalendar text, with a VTIMEZONE for every timezone used. ical-generator and the
 * timezone definitions are loaded with the first feed, not at start (decision 0086).
 */
export async function icsOf(
  name: string,
  host: string,
  occurrences: readonly FeedOccurrence[],
): Promise<string> {
  const [{ default: ical, ICalCalendarMethod, ICalEventStatus }, { getVtimezoneComponent }] =
    await Promise.all([import('ical-generator'), import('@touch4it/ical-timezones')]);
  const calendar = ical({ name, prodId: { company: 'Guildhall', product: 'Events', language: 'EN' } });
  calendar.method(ICalCalendarMethod.PUBLISH);
  calendar.ttl(60 * 15);
  const first = occurrences[0];
  calendar.timezone({ name: first?.timezone ?? null, generator: getVtimezoneComponent });
  for (const o of occurrences) {
    const zoned = (at: string) => Temporal.Instant.from(at).toZonedDateTimeISO(o.timezone);
    calendar.createEvent({
      id: `event-${o.eventId}-${o.eventDetailId}@${host}`,
      start: zoned(o.start),
      end: zoned(o.end),
      timezone: o.timezone,
      summary: o.title,
      location: o.location,
      url: o.url,
      description: plainText(o.description),
      status: o.cancelled
        ? ICalEventStatus.CANCELLED
        : o.tentative
          ? ICalEventStatus.TENTATIVE
          : ICalEventStatus.CONFIRMED,
      stamp: zoned(o.start).toInstant().toZonedDateTimeISO('UTC'),
    });
  }
  return calendar.toString();
}

/** A strong ETag of the feed's text. */
export function etagOf(text: string): string {
  return `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
}
