/** The events feature's SQL beyond the generic engine: occurrences, seats, attendees, the calendar range. */
import { type Fragment, q, raw, runFragment, type Tx } from '@guildhall/db';
import { foldSearchText, searchTextOf } from '@guildhall/shared';

/** An instant column as ISO text in UTC, the same on node-postgres and PGlite. */
export const iso = (column: string) =>
  raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

export type Row = Record<string, unknown>;
export const num = (v: unknown): number => Number(v);
export const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
export const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export async function rows<T = Row>(tx: Tx, f: Fragment): Promise<T[]> {
  return runFragment<T>(tx, f);
}

export async function one<T = Row>(tx: Tx, f: Fragment): Promise<T | undefined> {
  const [row] = await runFragment<T>(tx, f);
  return row;
}

export interface EventRow {
  event_id: unknown;
  name: string;
  status: string;
  visibility: string;
  starts_at: string;
  ends_at: string;
  timezone_id: string | null;
  repeats: string;
  repeat_until: string | null;
  recurrence_rule: string | null;
  location: string | null;
  online_url: string | null;
  capacity: unknown;
  waitlist_enabled: boolean;
  registration_open: boolean;
  full_refund_days: unknown;
  late_refund_percent: unknown;
  credit_hours: unknown;
  description: string | null;
  /** The event's image: a library file's id (an `image` field). */
  image_file_id: unknown;
  hashed_event_id: string;
  is_deleted: boolean;
  category: string | null;
  color: string | null;
}

const eventColumns = q`e.event_id, e.name, e.status, e.visibility, ${iso('e.starts_at')} as starts_at,
  ${iso('e.ends_at')} as ends_at, e.timezone_id, e.repeats, e.repeat_until::text as repeat_until, e.recurrence_rule,
  e.location, e.online_url, e.capacity, e.waitlist_enabled, e.registration_open,
  e.full_refund_days, e.late_refund_percent, e.credit_hours, e.description, e.image_file_id, e.hashed_event_id, e.is_deleted,
  c.name as category, c.color`;

export function findEvent(tx: Tx, tenantId: string, eventId: number): Promise<EventRow | undefined> {
  return one<EventRow>(
    tx,
    q`select ${eventColumns} from events e
      left join event_categories c on c.tenant_id = e.tenant_id and c.category_id = e.category_id
      where e.tenant_id = ${tenantId} and e.event_id = ${eventId}`,
  );
}

export function findEventByHash(tx: Tx, tenantId: string, hash: string): Promise<EventRow | undefined> {
  return one<EventRow>(
    tx,
    q`select ${eventColumns} from events e
      left join event_categories c on c.tenant_id = e.tenant_id and c.category_id = e.category_id
      where e.tenant_id = ${tenantId} and e.hashed_event_id = ${hash}`,
  );
}

export interface StoredDetailRow {
  event_detail_id: unknown;
  original_starts_at: string | null;
  is_exception: boolean;
  has_attendees: boolean;
}

export function storedOccurrences(tx: Tx, tenantId: string, eventId: number): Promise<StoredDetailRow[]> {
  return rows<StoredDetailRow>(
    tx,
    q`select d.event_detail_id, ${iso('d.original_starts_at')} as original_starts_at, d.is_exception,
        exists (select 1 from event_attendees a where a.tenant_id = d.tenant_id
                and a.event_detail_id = d.event_detail_id) as has_attendees
      from event_details d
      where d.tenant_id = ${tenantId} and d.event_id = ${eventId} and not d.is_deleted
        and d.original_starts_at is not null`,
  );
}

export async function applyOccurrencePlan(
  tx: Tx,
  tenantId: string,
  eventId: number,
  plan: {
    insert: { originalStartsAt: string; startsAt: string; endsAt: string }[];
    update: { id: number; startsAt: string; endsAt: string }[];
    remove: number[];
    cancel: number[];
  },
): Promise<void> {
  if (plan.insert.length > 0)
    await rows(
      tx,
      q`insert into event_details (tenant_id, event_id, starts_at, ends_at, original_starts_at)
        select ${tenantId}, ${eventId}, r.s, r.e, r.o
        from jsonb_to_recordset(${JSON.stringify(
          plan.insert.map((o) => ({ s: o.startsAt, e: o.endsAt, o: o.originalStartsAt })),
        )}::jsonb) as r(s timestamptz, e timestamptz, o timestamptz)`,
    );
  if (plan.update.length > 0)
    await rows(
      tx,
      q`update event_details d set starts_at = r.s, ends_at = r.e, updated_at = now()
        from jsonb_to_recordset(${JSON.stringify(
          plan.update.map((u) => ({ id: u.id, s: u.startsAt, e: u.endsAt })),
        )}::jsonb) as r(id bigint, s timestamptz, e timestamptz)
        where d.tenant_id = ${tenantId} and d.event_detail_id = r.id
          and (d.starts_at <> r.s or d.ends_at <> r.e)`,
    );
  if (plan.remove.length > 0)
    await rows(
      tx,
      q`update event_details set is_deleted = true, updated_at = now()
        where tenant_id = ${tenantId} and event_detail_id in (select (jsonb_array_elements_text(${JSON.stringify(plan.remove)}::jsonb))::bigint)`,
    );
  if (plan.cancel.length > 0)
    await rows(
      tx,
      q`update event_details set status = 'cancelled', is_exception = true, updated_at = now()
        where tenant_id = ${tenantId} and event_detail_id in (select (jsonb_array_elements_text(${JSON.stringify(plan.cancel)}::jsonb))::bigint)`,
    );
}

/** The longest an occurrence may last: the calendar's range query looks this far back for what overlaps. */
export const MAX_OCCURRENCE_DAYS = 62;

/**
 * The same occurrences as the calendar's JSON answer (`calendarOccurrenceSchema`'s shape), built by the database in
 * the statement that finds them: a month of a busy association is a thousand occurrences or more, and building and
 * checking that many objects in the server cost more than finding them.
 */
export async function calendarRangeJson(
  tx: Tx,
  tenantId: string,
  range: {
    start: string;
    end: string;
    audience: 'staff' | 'member' | 'public';
    categoryId?: number | undefined;
    tenantTimezone: string;
  },
): Promise<string> {
  const audience =
    range.audience === 'staff'
      ? q``
      : range.audience === 'member'
        ? q` and e.status = 'published'`
        : q` and e.status = 'published' and e.visibility = 'public'`;
  const category = range.categoryId === undefined ? q`` : q` and e.category_id = ${range.categoryId}`;
  const row = await one<{ body: string }>(
    tx,
    q`select coalesce(json_agg(json_build_object(
          'id', o.event_detail_id::text, 'EventId', o.event_id, 'EventDetailId', o.event_detail_id,
          'HashedEventId', o.hashed_event_id, 'title', o.name, 'start', o.starts_at, 'end', o.ends_at,
          'status', o.status, 'eventStatus', o.event_status, 'color', o.color, 'location', o.location,
          'capacity', o.capacity,
          'seatsLeft', case when o.capacity is null then null else greatest(0, o.capacity - o.seats_taken) end,
          'timezone', coalesce(o.timezone_id, ${range.tenantTimezone}), 'ImageFileId', o.image_file_id
        ) order by o.sort_at, o.event_detail_id), '[]')::text as body
      from (
        select d.event_detail_id, d.event_id, e.name, d.starts_at as sort_at,
          ${iso('d.starts_at')} as starts_at, ${iso('d.ends_at')} as ends_at,
          d.status, e.status as event_status, c.color, coalesce(d.location, e.location) as location,
          coalesce(d.capacity, e.capacity) as capacity, d.seats_taken, e.hashed_event_id, e.timezone_id,
          e.image_file_id
        from event_details d
        join events e on e.tenant_id = d.tenant_id and e.event_id = d.event_id
        left join event_categories c on c.tenant_id = e.tenant_id and c.category_id = e.category_id
        where d.tenant_id = ${tenantId} and not d.is_deleted and not e.is_deleted
          and d.starts_at >= ${range.start}::timestamptz - interval '${raw(String(MAX_OCCURRENCE_DAYS))} days'
          and d.starts_at < ${range.end}::timestamptz and d.ends_at > ${range.start}::timestamptz${audience}${category}
        order by d.starts_at, d.event_detail_id
        limit 5000) o`,
  );
  return row?.body ?? '[]';
}

/** A whole number of hours as SQL text for an interval literal. */
export const rawHours = (hours: number) => raw(String(Math.trunc(hours)));

/**
 * Rewrites an event's global search documents: staff find every event that is not deleted (drafts included),
 * members the published ones (public or members-only). The hit opens EventsDetail.General or EventDetail.General
 * through getEventId. Facets: the status, the category (RelatedTo) and the place (City).
 */
export function refreshEventSearch(tx: Tx, tenantId: string, eventId: number): Promise<void> {
  return refreshEventsSearch(tx, tenantId, q`e.event_id = ${eventId}`);
}

/**
 * The same for every event matching `where` (on `e` events), in three statements whatever their number: a renamed
 * category rewrites the documents of all its events.
 */
export async function refreshEventsSearch(tx: Tx, tenantId: string, where: Fragment): Promise<void> {
  const found = await rows<{
    event_id: unknown;
    name: string;
    status: string;
    is_deleted: boolean;
    location: string | null;
    online_url: string | null;
    category: string | null;
  }>(
    tx,
    q`select e.event_id, e.name, e.status, e.is_deleted, e.location, e.online_url, c.name as category
      from events e
      left join event_categories c on c.tenant_id = e.tenant_id and c.category_id = e.category_id
      where e.tenant_id = ${tenantId} and ${where}`,
  );
  if (found.length === 0) return;
  const ids = found.map((e) => String(e.event_id));
  await rows(
    tx,
    q`delete from search_documents where tenant_id = ${tenantId} and entity_type = 'Event'
      and entity_id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`,
  );
  const docs = found
    .filter((e) => !e.is_deleted)
    .flatMap((e) => {
      const place = e.location ?? (e.online_url ? 'Online' : null);
      const doc = (audience: 'staff' | 'member') => ({
        a: audience,
        id: String(e.event_id),
        t: e.name,
        k: foldSearchText(e.name),
        s: searchTextOf([e.name, e.category, e.location]),
        f: { Status: e.status, RelatedTo: e.category, City: place },
      });
      return e.status === 'published' ? [doc('staff'), doc('member')] : [doc('staff')];
    });
  if (docs.length === 0) return;
  await rows(
    tx,
    q`insert into search_documents (tenant_id, audience, entity_type, entity_id, title, title_key, search_text, facets,
        updated_at)
      select ${tenantId}, r.a, 'Event', r.id, r.t, r.k, r.s, r.f, now()
      from jsonb_to_recordset(${JSON.stringify(docs)}::jsonb) as r(a text, id text, t text, k text, s text, f jsonb)`,
  );
}
