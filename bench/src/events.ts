/**
 * Events bars, on real PostgreSQL over HTTP to a running app (database `events_bench_<pid>`, dropped at the end):
 *   - `registrations` concurrent registrations for `seats` seats of one occurrence (no waitlist): exactly `seats`
 *     registered, the rest refused with the message, never one more; p50/p95 of each registration's answer.
 *   - the calendar month of a tenant with `events` events (a tenth of them repeating weekly or monthly, expanded into
 *     occurrences): the range endpoint for one month, `calendarRuns` times, p50/p95.
 * The feed round-trip bar (ical.js, three timezones across DST) is an API test: events.test.ts.
 * `EVENTS_BENCH_PROFILE=<file>` writes a V8 CPU profile of the server's process during the race (sampled every 100 us).
 */
import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, openDatabase, rowsOf, withTenantTx } from '@guildhall/db';
import { createTenant, createUser } from '@guildhall/db/seed/factories';
import { buildApp } from '@guildhall/server';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../packages/server/src/platform/config.ts';
import type { ClientAnswer } from './events-client.ts';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return +(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0).toFixed(1);
};

/** The requests sent at once by the client process (events-client.ts); each answer with its time. */
async function raceFromClient(
  origin: string,
  cookie: string,
  path: string,
  bodies: unknown[],
): Promise<{ answers: ClientAnswer[]; cpuMs: number; serverCpuMs: number }> {
  const child = fork(join(import.meta.dirname, 'events-client.ts'), [], { execArgv: [] });
  const profile = process.env.EVENTS_BENCH_PROFILE;
  const session = profile ? new Session() : null;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
  }
  try {
    let serverCpu = process.cpuUsage();
    const done = await new Promise<{ answers: ClientAnswer[]; cpuMs: number }>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`The bench client stopped (${code}).`)));
      child.on('message', (message) => {
        if (message === 'ready') {
          if (session) void session.post('Profiler.start');
          serverCpu = process.cpuUsage();
          child.send({ origin, cookie, path, bodies });
        } else resolve(message as { answers: ClientAnswer[]; cpuMs: number });
      });
    });
    const used = process.cpuUsage(serverCpu);
    if (session && profile) {
      const { profile: taken } = await session.post('Profiler.stop');
      writeFileSync(profile, JSON.stringify(taken));
      session.disconnect();
    }
    return { ...done, serverCpuMs: Math.round((used.user + used.system) / 1000) };
  } finally {
    child.kill();
  }
}

export async function measureEvents(options: {
  registrations: number;
  seats: number;
  events: number;
  calendarRuns: number;
}) {
  const dbName = `events_bench_${process.pid}`;
  execFileSync('createdb', ['-h', '127.0.0.1', '-U', 'postgres', dbName]);
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-events-'));
  let database: Database | null = null;
  try {
    database = await openDatabase({
      databaseUrl: `postgres://postgres@127.0.0.1:5432/${dbName}`,
      poolSize: 20,
    });
    await database.migrate();
    const config = { ...loadConfig({}), dataDir, publicUrl: 'http://bench.local', smtpUrl: undefined };
    const app = await buildApp({ database, config });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const tenant = await createTenant(database.db, { name: 'Bench events' });
    await createUser(database.db, {
      tenantId: tenant.id,
      username: 'bench.events',
      password: 'bench-events-pass-2026',
      role: 'admin',
    });
    const login = await fetch(`${origin}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench.events', password: 'bench-events-pass-2026' }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const call = async (method: string, path: string, body?: unknown) => {
      const started = performance.now();
      const res = await fetch(`${origin}${path}`, {
        method,
        headers: { cookie, origin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const json = (await res.json().catch(() => null)) as Record<string, unknown> | null;
      return { status: res.status, json, ms: performance.now() - started };
    };

    // 1. Registrations racing for the seats of one occurrence.
    const starts = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const ends = new Date(Date.now() + 30 * 86_400_000 + 7_200_000).toISOString();
    const saved = await call('POST', '/api/events/events/eventSave', {
      Name: 'Race',
      Status: 'published',
      Visibility: 'public',
      StartsAt: starts,
      EndsAt: ends,
      Capacity: options.seats,
      WaitlistEnabled: false,
      RegistrationOpen: true,
    });
    const eventId = ((saved.json?.Data ?? {}) as Record<string, unknown>).EventId;
    const id = await call('GET', `/api/events/getEventId/${eventId}`);
    const detailId = id.json?.EventDetailId;
    // Sent at once by a client in a process of its own (its own event loop and keep-alive connections, as any real
    // client has), each timed there from send to answer.
    const race = await raceFromClient(
      origin,
      cookie,
      '/api/events/registrations',
      Array.from({ length: options.registrations }, (_, i) => ({
        EventDetailId: detailId,
        Attendees: [{ Name: `Racer ${i}` }],
      })),
    );
    const answers = race.answers;
    const registered = answers.filter((a) => a.status === 200 && a.json?.outcome === 'registered').length;
    const refused = answers.filter((a) => a.status === 409).length;
    const messages = [
      ...new Set(answers.filter((a) => a.status === 409).map((a) => String(a.json?.message))),
    ];
    const other = answers.length - registered - refused;
    const [stored] = rowsOf<{ n: number; seats: number }>(
      await withTenantTx(database.db, { tenantId: tenant.id }, (tx) =>
        tx.execute(sql`select (select count(*)::int from event_attendees where tenant_id = ${tenant.id}
            and event_detail_id = ${detailId} and event_attendee_status_id = 4) as n,
          (select seats_taken from event_details where tenant_id = ${tenant.id} and event_detail_id = ${detailId}) as seats`),
      ),
    );
    const registrationMs = answers.map((a) => a.ms);

    // 2. A tenant with many events, a tenth repeating; one month of its calendar.
    await withTenantTx(database.db, { tenantId: tenant.id }, async (tx) => {
      await tx.execute(sql`insert into events (tenant_id, name, status, visibility, starts_at, ends_at, timezone_id, repeats)
        select ${tenant.id}, 'Event ' || g, 'published', 'public',
          date_trunc('day', now()) + (g % 365) * interval '1 day' + (8 + g % 10) * interval '1 hour',
          date_trunc('day', now()) + (g % 365) * interval '1 day' + (9 + g % 10) * interval '1 hour',
          'America/Chicago', case when g % 10 = 0 then (case when g % 20 = 0 then 'weekly' else 'monthlyDate' end) else 'none' end
        from generate_series(1, ${options.events}) g`);
      // Occurrences as the events module expands them: one per single event, a year of weekly or monthly dates for
      // the repeating tenth.
      await tx.execute(sql`insert into event_details (tenant_id, event_id, starts_at, ends_at, original_starts_at)
        select e.tenant_id, e.event_id, e.starts_at + s.step, e.ends_at + s.step, e.starts_at + s.step
        from events e
        cross join lateral (
          select case e.repeats when 'weekly' then k * interval '7 days' when 'monthlyDate' then k * interval '1 month'
            else interval '0' end as step
          from generate_series(0, case e.repeats when 'weekly' then 51 when 'monthlyDate' then 11 else 0 end) k) s
        where e.tenant_id = ${tenant.id} and e.name <> 'Race'`);
    });
    await database.db.execute(sql`analyze event_details; analyze events`);
    const [counts] = rowsOf<{ events: number; details: number }>(
      await withTenantTx(database.db, { tenantId: tenant.id }, (tx) =>
        tx.execute(sql`select (select count(*)::int from events where tenant_id = ${tenant.id}) as events,
          (select count(*)::int from event_details where tenant_id = ${tenant.id}) as details`),
      ),
    );
    const month = new Date(Date.now() + 60 * 86_400_000);
    const start = `${month.toISOString().slice(0, 7)}-01T00:00:00`;
    const next = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1))
      .toISOString()
      .slice(0, 10);
    const path = `/api/events/calendar?start=${start}&end=${next}T00:00:00&timeZone=America/Chicago`;
    await call('GET', path);
    const calendarMs: number[] = [];
    let shown = 0;
    for (let i = 0; i < options.calendarRuns; i++) {
      const r = await call('GET', path);
      calendarMs.push(r.ms);
      shown = Array.isArray(r.json) ? r.json.length : -1;
    }
    await app.close();
    return {
      registrations: {
        concurrent: options.registrations,
        seats: options.seats,
        registered,
        refused,
        other,
        refusedMessages: messages,
        storedRegistered: stored?.n ?? null,
        storedSeatsTaken: stored?.seats ?? null,
        p50ms: pct(registrationMs, 50),
        p95ms: pct(registrationMs, 95),
        // The processor time each side spent on the race (milliseconds of CPU, whatever the machine's load): the
        // server's process (the app; the client's child process is apart) and the client's.
        serverCpuMs: race.serverCpuMs,
        clientCpuMs: Math.round(race.cpuMs),
        bar: 'exactly the seats registered, never one more; p95 <= 150 ms',
      },
      calendarMonth: {
        events: counts?.events ?? null,
        occurrences: counts?.details ?? null,
        occurrencesInMonth: shown,
        runs: options.calendarRuns,
        p50ms: pct(calendarMs, 50),
        p95ms: pct(calendarMs, 95),
        bar: 'p95 <= 50 ms',
      },
    };
  } finally {
    await database?.close();
    execFileSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--if-exists', dbName]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
