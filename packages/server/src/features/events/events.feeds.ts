/**
 * The occurrences the iCalendar files and feeds carry: the association's public ones, one event's, one occurrence
 * (the .ics attached to a confirmation), and a member's own registrations behind the secret address of their feed.
 */
import { randomBytes } from 'node:crypto';
import { type Fragment, q, type Tx } from '@guildhall/db';
import { EVENT_ATTENDEE_STATUSES, type MemberFeed, resolveTimeZone } from '@guildhall/shared';
import type { FeedOccurrence } from './events.ical.ts';
import { iso, num, one, rows } from './events.repo.ts';

const S = EVENT_ATTENDEE_STATUSES;

/** Occurrences of live events matching `where` (on `d` event_details and `e` events), from 90 days back. */
export async function feedOccurrences(
  tx: Tx,
  tenantId: string,
  where: Fragment,
  tz: string,
): Promise<FeedOccurrence[]> {
  const found = await rows<Record<string, unknown>>(
    tx,
    q`select d.event_detail_id, d.event_id, e.name, ${iso('d.starts_at')} as starts_at, ${iso('d.ends_at')} as ends_at,
        e.timezone_id, coalesce(d.location, e.location) as location, coalesce(d.online_url, e.online_url) as online_url,
        e.description, d.status
      from event_details d join events e on e.tenant_id = d.tenant_id and e.event_id = d.event_id
      where d.tenant_id = ${tenantId} and not d.is_deleted and not e.is_deleted and ${where}
        and d.ends_at >= now() - interval '90 days'
      order by d.starts_at limit 2000`,
  );
  return found.map(toFeedOccurrence(tz));
}

const toFeedOccurrence =
  (tz: string) =>
  (r: Record<string, unknown>): FeedOccurrence => ({
    eventDetailId: num(r.event_detail_id),
    eventId: num(r.event_id),
    title: String(r.name),
    start: String(r.starts_at),
    end: String(r.ends_at),
    timezone: resolveTimeZone((r.timezone_id as string | null) ?? tz),
    location: (r.location as string | null) ?? null,
    url: (r.online_url as string | null) ?? null,
    description: (r.description as string | null) ?? null,
    cancelled: r.status === 'cancelled' || r.attendance === 'cancelled',
    tentative: r.attendance === 'tentative',
  });

/**
 * A member's registrations as feed occurrences: every occurrence where the contact attends or registered the
 * party, once each. A seat held or attended is confirmed; awaiting payment or offered from the waitlist, tentative;
 * cancelled (the occurrence, or every seat of theirs at it), cancelled, so subscribed calendars drop it. Waitlisted
 * places are left out (no seat yet).
 */
export async function memberFeedOccurrences(
  tx: Tx,
  tenantId: string,
  contactId: number,
  tz: string,
): Promise<FeedOccurrence[]> {
  const found = await rows<Record<string, unknown>>(
    tx,
    q`select d.event_detail_id, d.event_id, e.name, ${iso('d.starts_at')} as starts_at, ${iso('d.ends_at')} as ends_at,
        e.timezone_id, coalesce(d.location, e.location) as location, coalesce(d.online_url, e.online_url) as online_url,
        e.description, d.status,
        case when bool_or(a.event_attendee_status_id in (${S.Registered}, ${S.Attended}, ${S.NoShow})) then 'confirmed'
             when bool_or(a.event_attendee_status_id in (${S.PendingPayment}, ${S.Offered})) then 'tentative'
             else 'cancelled' end as attendance
      from event_attendees a
      join event_registrations r on r.tenant_id = a.tenant_id and r.registration_id = a.registration_id
      join event_details d on d.tenant_id = a.tenant_id and d.event_detail_id = a.event_detail_id
      join events e on e.tenant_id = d.tenant_id and e.event_id = d.event_id
      where a.tenant_id = ${tenantId} and not a.is_deleted and not d.is_deleted and not e.is_deleted
        and (a.contact_id = ${contactId} or r.contact_id = ${contactId})
        and a.event_attendee_status_id <> ${S.Waitlisted}
        and d.ends_at >= now() - interval '90 days'
      group by d.event_detail_id, d.event_id, e.name, d.starts_at, d.ends_at, e.timezone_id, d.location, e.location,
        d.online_url, e.online_url, e.description, d.status
      order by d.starts_at limit 2000`,
  );
  return found.map(toFeedOccurrence(tz));
}

/** The address of a member's feed. */
export const memberFeedUrl = (publicUrl: string, tenantId: string, token: string) =>
  `${publicUrl.replace(/\/$/, '')}/api/events/my-feed/${tenantId}/${token}.ics`;

/** The member's feed as the member area shows it (no address until they make one). */
export async function memberFeed(
  tx: Tx,
  tenantId: string,
  contactId: number,
  publicUrl: string,
): Promise<MemberFeed> {
  const row = await one<{ token: string; created_at: string }>(
    tx,
    q`select token, ${iso('created_at')} as created_at from event_member_feeds
      where tenant_id = ${tenantId} and contact_id = ${contactId}`,
  );
  return row
    ? { FeedUrl: memberFeedUrl(publicUrl, tenantId, row.token), CreatedAt: row.created_at }
    : { FeedUrl: null, CreatedAt: null };
}

/** Makes the member's feed address, or a new one in place of the old (which then answers 404). */
export async function resetMemberFeed(
  tx: Tx,
  tenantId: string,
  contactId: number,
  publicUrl: string,
): Promise<MemberFeed> {
  // 256 random bits: the address is the only key to the feed.
  const token = randomBytes(32).toString('base64url');
  await rows(
    tx,
    q`insert into event_member_feeds (tenant_id, contact_id, token) values (${tenantId}, ${contactId}, ${token})
      on conflict (tenant_id, contact_id) do update set token = excluded.token, created_at = now()`,
  );
  return memberFeed(tx, tenantId, contactId, publicUrl);
}

/** The live contact a feed token belongs to, with their name; undefined for a reset or unknown token. */
export function contactOfFeedToken(
  tx: Tx,
  tenantId: string,
  token: string,
): Promise<{ contact_id: unknown; display_name: string } | undefined> {
  return one(
    tx,
    q`select c.contact_id, c.display_name from event_member_feeds f
      join contacts c on c.tenant_id = f.tenant_id and c.contact_id = f.contact_id and not c.is_deleted
      where f.tenant_id = ${tenantId} and f.token = ${token}`,
  );
}
