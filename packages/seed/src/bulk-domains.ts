/**
 * Loads an association's business at scale over contacts already loaded by `bulkSeedContacts`: memberships (one
 * per contact, every status), invoices (one per contact, every status), events with one occurrence each, and their
 * attendees, so the lists of every domain can be measured as the contacts list is (issue 22, decision 0100).
 * Set-based: each table is one INSERT … SELECT over `generate_series` and the tenant's contacts, with ids reserved
 * from the tenant's own sequences (decision 0071), then VACUUM ANALYZE so lists read by index-only scans at once.
 */
import type { BulkTarget } from './bulk.ts';

export interface DomainCounts {
  memberships: number;
  invoices: number;
  events: number;
  attendees: number;
}

export interface DomainSeedResult extends DomainCounts {
  ms: Record<keyof DomainCounts | 'vacuum', number>;
}

const DOMAIN_TABLES = ['memberships', 'invoices', 'events', 'event_details', 'event_attendees'] as const;

/** Loads the domains' rows for a tenant whose contacts are loaded; answers what it loaded and how long each took. */
export async function bulkSeedDomains(
  target: BulkTarget,
  options: { tenantId: string; counts: DomainCounts; log?: (msg: string) => void },
): Promise<DomainSeedResult> {
  const { tenantId, counts } = options;
  const log = options.log ?? (() => undefined);
  const ms = { memberships: 0, invoices: 0, events: 0, attendees: 0, vacuum: 0 };
  const reserve = async (table: string, n: number) => {
    if (n <= 0) return 0;
    const [r] = await target.query<{ first: string }>('SELECT gh_reserve_ids($1::uuid, $2, $3) AS first', [
      tenantId,
      table,
      n,
    ]);
    return Number(r?.first);
  };
  const [contactCount] = await target.query<{ n: string }>(
    'SELECT count(*) AS n FROM contacts WHERE tenant_id = $1',
    [tenantId],
  );
  const contacts = Number(contactCount?.n ?? 0);
  if (contacts === 0) throw new Error('bulk domains: load the contacts first');
  // The tenant's contacts numbered 1..n, so each generated row picks the contact g % n + 1.
  const numbered = `(SELECT contact_id, display_name, row_number() OVER (ORDER BY contact_id) AS k
                       FROM contacts WHERE tenant_id = $1)`;
  // An empty table's secondary indexes are dropped for the load and built again after it in one pass each (tens
  // of list indexes per table: kept up to date row by row, 1,000,000 memberships took six minutes).
  const withoutIndexes = async (tables: readonly string[], load: () => Promise<unknown>) => {
    const defs: { indexname: string; indexdef: string }[] = [];
    for (const table of tables) {
      const [empty] = await target.query<{ empty: boolean }>(
        `SELECT NOT EXISTS (SELECT 1 FROM ${table}) AS empty`,
      );
      if (!empty?.empty) continue;
      defs.push(
        ...(await target.query<{ indexname: string; indexdef: string }>(
          `SELECT i.indexname, i.indexdef FROM pg_indexes i
            WHERE i.schemaname = 'public' AND i.tablename = $1
              AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
          [table],
        )),
      );
    }
    for (const d of defs) await target.query(`DROP INDEX ${d.indexname}`);
    await load();
    for (const d of defs) await target.query(d.indexdef);
  };
  const timed = async (name: keyof DomainCounts, run: () => Promise<unknown>) => {
    const t = performance.now();
    const tables = {
      memberships: ['memberships'],
      invoices: ['invoices'],
      events: ['events', 'event_details'],
      attendees: ['event_registrations', 'event_attendees'],
    }[name];
    await withoutIndexes(tables, run);
    ms[name] = Math.round(performance.now() - t);
    log(`${name}: ${counts[name]} in ${ms[name]} ms`);
  };

  await timed('memberships', async () => {
    if (counts.memberships <= 0) return;
    const typeId = await reserve('membership_types', 3);
    const levelId = await reserve('membership_levels', 2);
    await target.query(
      `INSERT INTO membership_types (tenant_id, membership_type_id, name, is_organization)
       VALUES ($1, $2, 'Individual', false), ($1, $2 + 1, 'Student', false), ($1, $2 + 2, 'Organisation', true)`,
      [tenantId, typeId],
    );
    await target.query(
      `INSERT INTO membership_levels (tenant_id, membership_level_id, membership_type_id, name, sort_order)
       VALUES ($1, $2, $3, 'Standard', 1), ($1, $2 + 1, $3, 'Fellow', 2)`,
      [tenantId, levelId, typeId],
    );
    const first = await reserve('memberships', counts.memberships);
    await target.query(
      `INSERT INTO memberships (tenant_id, membership_id, contact_id, contact_name, name, membership_type_id,
                                membership_level_id, status, status_date, join_date, term_start, term_end,
                                bill_frequency_type_id, term_total, auto_pay)
       SELECT $1, $2 + g - 1, c.contact_id, c.display_name,
              (ARRAY['Individual - Standard', 'Individual - Fellow', 'Student', 'Organisation'])[g % 4 + 1],
              $3 + g % 3, CASE WHEN g % 3 = 0 THEN $4 + g % 2 END,
              (ARRAY['active', 'active', 'active', 'active', 'grace', 'lapsed', 'pending', 'dropped'])[g % 8 + 1],
              d - 5, d - 400 - g % 3000, d - 365 + g % 300, d + g % 300, 12,
              (ARRAY[9500, 4500, 17500, 60000])[g % 4 + 1], g % 5 = 0
         FROM generate_series(1, $5::int) g
         CROSS JOIN LATERAL (SELECT date '2026-06-01' + (g % 200) AS d) dd
         JOIN ${numbered} c ON c.k = (g - 1) % $6 + 1`,
      [tenantId, first, typeId, levelId, counts.memberships, contacts],
    );
  });

  await timed('invoices', async () => {
    if (counts.invoices <= 0) return;
    const first = await reserve('invoices', counts.invoices);
    await target.query(
      `INSERT INTO invoices (tenant_id, invoice_id, number, contact_id, contact_name, status, issue_date, due_date,
                             subtotal_cents, total_cents, applied_cents, written_off_cents, balance_cents,
                             source_kind, currency)
       SELECT $1, $2 + g - 1, CASE WHEN s <> 'draft' THEN 'INV-' || lpad(g::text, 7, '0') END,
              c.contact_id, c.display_name, s, d, d + 30, t, t,
              CASE s WHEN 'paid' THEN t WHEN 'partially_paid' THEN t / 2 ELSE 0 END,
              CASE s WHEN 'written_off' THEN t ELSE 0 END,
              CASE s WHEN 'open' THEN t WHEN 'draft' THEN t WHEN 'partially_paid' THEN t - t / 2 ELSE 0 END,
              (ARRAY['membership', 'event', 'manual'])[g % 3 + 1],
              -- The currency an invoice is issued in (decision 0125): the association's, as migration 0095 reads it.
              (SELECT CASE WHEN upper(trim(settings->>'currency')) ~ '^[A-Z]{3}$'
                        THEN upper(trim(settings->>'currency')) ELSE 'USD' END FROM tenants WHERE id = $1)
         FROM generate_series(1, $3::int) g
         CROSS JOIN LATERAL (SELECT
           (ARRAY['paid', 'paid', 'paid', 'open', 'partially_paid', 'void', 'written_off', 'draft'])[g % 8 + 1] AS s,
           date '2024-01-01' + (g % 1000) AS d,
           (1000 + (g::bigint * 7919) % 90000)::bigint AS t) x
         JOIN ${numbered} c ON c.k = (g - 1) % $4 + 1`,
      [tenantId, first, counts.invoices, contacts],
    );
  });

  await timed('events', async () => {
    if (counts.events <= 0) return;
    const first = await reserve('events', counts.events);
    const firstDetail = await reserve('event_details', counts.events);
    await target.query(
      `INSERT INTO events (tenant_id, event_id, name, status, visibility, starts_at, ends_at, repeats, location,
                           capacity)
       SELECT $1, $2 + g - 1,
              (ARRAY['Chapter meeting', 'Annual conference', 'Webinar', 'Workshop', 'Networking breakfast',
                     'Board retreat', 'Certification exam', 'Volunteer day'])[g % 8 + 1] || ' ' || g,
              (ARRAY['published', 'published', 'published', 'draft', 'cancelled'])[g % 5 + 1],
              CASE WHEN g % 4 = 0 THEN 'members' ELSE 'public' END,
              s, s + interval '2 hours', CASE WHEN g % 10 = 0 THEN 'weekly' ELSE 'none' END,
              (ARRAY['Houston', 'Austin', 'Online', 'Dallas', 'Chicago', 'Denver'])[g % 6 + 1],
              50 + g % 200
         FROM generate_series(1, $3::int) g
         CROSS JOIN LATERAL (SELECT timestamptz '2020-01-06 15:00Z' + (g % 3650) * interval '1 day'
                                    + (g % 7) * interval '1 hour' AS s) x`,
      [tenantId, first, counts.events],
    );
    await target.query(
      `INSERT INTO event_details (tenant_id, event_detail_id, event_id, starts_at, ends_at, capacity, status)
       SELECT tenant_id, $2 + (event_id - $3), event_id, starts_at, ends_at, capacity, 'scheduled'
         FROM events WHERE tenant_id = $1 AND event_id >= $3`,
      [tenantId, firstDetail, first],
    );
  });

  await timed('attendees', async () => {
    if (counts.attendees <= 0 || counts.events <= 0) return;
    const [range] = await target.query<{ lo: string; n: string }>(
      'SELECT min(event_detail_id) AS lo, count(*) AS n FROM event_details WHERE tenant_id = $1',
      [tenantId],
    );
    const lo = Number(range?.lo);
    const n = Number(range?.n);
    const firstRegistration = await reserve('event_registrations', counts.attendees);
    const first = await reserve('event_attendees', counts.attendees);
    await target.query(
      `INSERT INTO event_registrations (tenant_id, registration_id, event_id, event_detail_id, contact_id, channel)
       SELECT $1, $2 + g - 1, d.event_id, d.event_detail_id, c.contact_id, 'backoffice'
         FROM generate_series(1, $3::int) g
         JOIN event_details d ON d.tenant_id = $1 AND d.event_detail_id = $4 + (g::bigint * 7919) % $5
         JOIN ${numbered} c ON c.k = (g - 1) % $6 + 1`,
      [tenantId, firstRegistration, counts.attendees, lo, n, contacts],
    );
    await target.query(
      `INSERT INTO event_attendees (tenant_id, attendee_id, event_id, event_detail_id, registration_id, contact_id,
                                    attendee_name, event_attendee_status_id, created_at, check_in_code)
       SELECT $1, $2 + (r.registration_id - $3), r.event_id, r.event_detail_id, r.registration_id, r.contact_id,
              c.display_name, (ARRAY[4, 4, 4, 5, 5, 6, 1, 3])[r.registration_id % 8 + 1],
              timestamptz '2024-01-01' + (r.registration_id % 700000) * interval '1 minute',
              -- Numbered codes: a million random 10-character ones collide (the unique index refuses them).
              'B' || lpad(upper(to_hex(r.registration_id)), 9, '0')
         FROM event_registrations r
         JOIN contacts c ON c.tenant_id = $1 AND c.contact_id = r.contact_id
        WHERE r.tenant_id = $1 AND r.registration_id >= $3`,
      [tenantId, first, firstRegistration],
    );
  });

  // The load's replica mode skips the counted tables' triggers: their counts are made from the rows (decision 0103).
  for (const table of ['memberships', 'invoices', 'events', 'event_attendees'])
    await target.query('SELECT gh_list_recount($1::regclass, $2::uuid)', [table, tenantId]);
  const t = performance.now();
  for (const table of [...DOMAIN_TABLES, 'event_registrations', 'membership_types', 'membership_levels'])
    await target.query(`VACUUM (ANALYZE) ${table}`);
  ms.vacuum = Math.round(performance.now() - t);
  return { ...counts, ms };
}
