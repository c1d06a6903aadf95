/**
 * Events bars, on real PostgreSQL over HTTP to the server as `npm start` runs it (database `events_bench_<pid>`,
 * dropped at the end): the compiled server in a process of its own with the start script's Node flags and its
 * logger (server-process.ts), the bench's own connection seeding the association and reading the counts.
 *   - `registrations` concurrent registrations for `seats` seats of one occurrence (no waitlist): exactly `seats`
 *     registered, the rest refused with the message, never one more; p50/p95 of each registration's answer, timed
 *     from the client's call (the bar's figure) and from the moment its bytes were written to its connection. The
 *     callers are on the event's page: each first reads the occurrences over a keep-alive connection of its own and
 *     registers over it (decision 0195). Before it, the new process's first race (`firstOfTheProcess`, over new
 *     connections, while V8 compiles the path); after it, the same race over new connections (`coldConnections`);
 *     the seats are given back between them (decision 0200).
 *   - the calendar month of a tenant with `events` events (a tenth of them repeating weekly or monthly, expanded into
 *     occurrences): the range endpoint for one month, asked by the client process, `calendarRuns` times after at
 *     least 20 untimed and 3 s, p50/p95.
 * The feed round-trip bar (ical.js, three timezones across DST) is an API test: events.test.ts.
 * `EVENTS_BENCH_PROFILE=<file>` writes a V8 CPU profile of the server's process (`--cpu-prof`, sampled every 100 us,
 * its whole life) and, beside it, `<file>.window.json`: the warm race's start and end on the profile's clock.
 * `node bench/src/cpu-profile-window.ts <file> <file>.window.json` sums the race's samples by function and package.
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, openDatabase, rowsOf, withTenantTx } from '@guildhall/db';
import { createTenant, createUser } from '@guildhall/db/seed/factories';
import { sql } from 'drizzle-orm';
import type { CalendarResult, ClientResult } from './events-client.ts';
import { type ServerProcess, startServerProcess, startWorkDone } from './server-process.ts';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return +(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0).toFixed(1);
};

/** Processor time of a process, all its threads (ms), from the scheduler's nanosecond counters. */
function cpuMsOf(pid: number): number {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // a thread that ended meanwhile
    }
  }
  return ns / 1e6;
}

/** Calendar months asked of the new server process before the timed ones: at least so many, for at least so long. */
const CALENDAR_WARMUP = 20;
/**
 * Right after the bench's bulk load of the events' 41,001 occurrences (one statement, then VACUUM ANALYZE), the
 * calendar's statement took 150-250 ms in PostgreSQL itself (log_min_duration_statement) in about one run of three
 * for one to two seconds, then 11-15 ms every time; a calendar in use never follows a load of that size by a second.
 */
const CALENDAR_WARMUP_MS = 3000;

const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * The requests sent at once by the client process (events-client.ts); each answer with its times. With `warm`, the
 * client first opens its connections by that read (one per request) and the server's processor time is counted from
 * the race, not from the warm-up.
 */
async function raceFromClient(
  server: ChildProcess,
  origin: string,
  cookie: string,
  path: string,
  bodies: unknown[],
  warm?: { method: string; path: string; body: unknown },
): Promise<ClientResult & { serverCpuMs: number; window: [number, number] }> {
  const child = fork(join(import.meta.dirname, 'events-client.ts'), [], { execArgv: [] });
  const pid = server.pid ?? 0;
  try {
    let serverCpu = 0;
    // The race's window on the monotonic clock, in microseconds (the clock of a V8 CPU profile's samples).
    const window: [number, number] = [0, 0];
    const done = await new Promise<ClientResult>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`The bench client stopped (${code}).`)));
      child.on('message', (message) => {
        if (message === 'ready') {
          serverCpu = cpuMsOf(pid);
          window[0] = monotonicUs();
          child.send({ origin, cookie, path, bodies, ...(warm ? { warm } : {}) });
        } else if (message === 'warmed') {
          serverCpu = cpuMsOf(pid);
          window[0] = monotonicUs();
          child.send('go');
        } else {
          window[1] = monotonicUs();
          resolve(message as ClientResult);
        }
      });
    });
    return { ...done, serverCpuMs: Math.round(cpuMsOf(pid) - serverCpu), window };
  } finally {
    child.kill();
  }
}

/** The same range asked in turn by the client process (events-client.ts): warm-up, then timed runs. */
async function calendarFromClient(
  origin: string,
  cookie: string,
  path: string,
  calendar: { warmupRuns: number; warmupMs: number; runs: number },
): Promise<CalendarResult> {
  const child = fork(join(import.meta.dirname, 'events-client.ts'), [], { execArgv: [] });
  try {
    return await new Promise<CalendarResult>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`The bench client stopped (${code}).`)));
      child.on('message', (message) => {
        if (message === 'ready') child.send({ origin, cookie, calendar: { path, ...calendar } });
        else resolve(message as CalendarResult);
      });
    });
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
  const root = join(import.meta.dirname, '../..');
  const databaseUrl = `postgres://postgres@127.0.0.1:5432/${dbName}`;
  let database: Database | null = null;
  let server: ServerProcess | null = null;
  const profile = process.env.EVENTS_BENCH_PROFILE;
  let raceWindow: [number, number] | null = null;
  try {
    database = await openDatabase({ databaseUrl });
    await database.migrate();
    // The server as `npm start` runs it (its flags, the compiled modules, its logger at its default level), on this
    // database, without the demo association; timed once the work of its start is over.
    const profileDir = join(dataDir, 'profile');
    server = await startServerProcess(
      root,
      {
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        SEED_DEMO: 'false',
        PUBLIC_URL: 'http://bench.local',
        SMTP_URL: '',
      },
      profile ? ['--cpu-prof', '--cpu-prof-interval=100', `--cpu-prof-dir=${profileDir}`] : [],
    );
    const origin = server.origin;
    await startWorkDone(database);
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
    const bodies = Array.from({ length: options.registrations }, (_, i) => ({
      EventDetailId: detailId,
      Attendees: [{ Name: `Racer ${i}` }],
    }));
    // What the callers hold, what was sent and what came of it.
    const db = database.db;
    const outcome = async (race: ClientResult & { serverCpuMs: number; window: [number, number] }) => {
      const answers = race.answers;
      const [stored] = rowsOf<{ n: number; seats: number }>(
        await withTenantTx(db, { tenantId: tenant.id }, (tx) =>
          tx.execute(sql`select (select count(*)::int from event_attendees where tenant_id = ${tenant.id}
              and event_detail_id = ${detailId} and event_attendee_status_id = 4) as n,
            (select seats_taken from event_details where tenant_id = ${tenant.id} and event_detail_id = ${detailId}) as seats`),
        ),
      );
      // From the moment each request's bytes were written to its connection: the client's own time to open its
      // connections (when cold) and write (one process for every caller) left out.
      const fromWrittenMs = answers.map((a) => a.ms - a.writtenMs);
      const writtenMs = answers.map((a) => a.writtenMs);
      return {
        registered: answers.filter((a) => a.status === 200 && a.json?.outcome === 'registered').length,
        refused: answers.filter((a) => a.status === 409).length,
        other: answers.filter(
          (a) => !(a.status === 409 || (a.status === 200 && a.json?.outcome === 'registered')),
        ).length,
        refusedMessages: [
          ...new Set(answers.filter((a) => a.status === 409).map((a) => String(a.json?.message))),
        ],
        storedRegistered: stored?.n ?? null,
        storedSeatsTaken: stored?.seats ?? null,
        // Sent over a connection already open (kept alive since the page's read).
        overOpenConnections: answers.filter((a) => a.reused).length,
        p50ms: pct(
          answers.map((a) => a.ms),
          50,
        ),
        p95ms: pct(
          answers.map((a) => a.ms),
          95,
        ),
        // When the client had written the requests (from its call), and each answer's time from then.
        writtenFirstMs: pct(writtenMs, 0),
        writtenLastMs: pct(writtenMs, 100),
        fromWrittenP50ms: pct(fromWrittenMs, 50),
        fromWrittenP95ms: pct(fromWrittenMs, 95),
        // The processor time each side spent on the race (milliseconds of CPU, whatever the machine's load): the
        // server's process (every thread) and the client's.
        serverCpuMs: race.serverCpuMs,
        clientCpuMs: Math.round(race.cpuMs),
      };
    };
    // Sent at once by a client in a process of its own (its own event loop and keep-alive connections, as any real
    // client has), each timed there from its call to its answer. The callers are on the event's registration page
    // (decision 0195): each browser holds the keep-alive connection over which the page read the event's occurrences
    // (the Register dialog's read, event-record-actions.tsx), and registers over it. The server keeps an idle
    // connection 72 s (Fastify's keepAliveTimeout, the server's default).
    const pageRead = {
      method: 'POST',
      path: '/api/events/details/detailData?$top=100',
      body: { Id: 9999, Criteria: [{ PropertyName: 'EventId', Operator: 'eq', Value: eventId }] },
    };
    // The seats given back: the occurrence's registrations removed and its count of seats reset by the bench's own
    // connection, then a wait longer than the server's memory of a full occurrence (1 s, events.full.ts), as for seats
    // another process frees.
    const giveSeatsBack = async () => {
      await withTenantTx(database?.db as Database['db'], { tenantId: tenant.id }, async (tx) => {
        await tx.execute(
          sql`delete from event_attendees where tenant_id = ${tenant.id} and event_detail_id = ${detailId}`,
        );
        await tx.execute(
          sql`delete from event_registrations where tenant_id = ${tenant.id} and event_detail_id = ${detailId}`,
        );
        await tx.execute(
          sql`update event_details set seats_taken = 0 where tenant_id = ${tenant.id} and event_detail_id = ${detailId}`,
        );
      });
      await new Promise((r) => setTimeout(r, 1500));
    };
    // The process's first registrations: the same race once before the bar's, over new connections, reported as
    // `firstOfTheProcess`. A server serves registrations all day; the first ones of a new process run while V8
    // compiles the path (the route, its validation, the batch, the refusals), as the calendar's first months do.
    const firstOfTheProcess = await outcome(
      await raceFromClient(server.process, origin, cookie, '/api/events/registrations', bodies),
    );
    await giveSeatsBack();
    const warmRace = await raceFromClient(
      server.process,
      origin,
      cookie,
      '/api/events/registrations',
      bodies,
      pageRead,
    );
    raceWindow = warmRace.window;
    const warm = { ...(await outcome(warmRace)), pageReads: warmRace.warm };
    // The same race over new connections, each opened by its call, after the seats are given back.
    await giveSeatsBack();
    const coldConnections = await outcome(
      await raceFromClient(server.process, origin, cookie, '/api/events/registrations', bodies),
    );

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
    await database.db.execute(sql`vacuum (analyze) event_details, events`);
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
    // A new process serves its first months slowly while V8 compiles the path (a quarter of the first 20 took 110-125
    // ms against 14-16 after): the bar is the month's cost once warm, and the first ones are reported beside it.
    // Asked by the client process (events-client.ts), as a browser in a machine of its own asks, over one keep-alive
    // connection: the bench's own process (its pool, the seeded rows, the race's answers) times nothing.
    const months = await calendarFromClient(origin, cookie, path, {
      warmupRuns: CALENDAR_WARMUP,
      warmupMs: CALENDAR_WARMUP_MS,
      runs: options.calendarRuns,
    });
    const firstMs = months.warmupMs;
    const calendarMs = months.ms;
    const shown = months.status === 200 ? months.shown : -1;
    return {
      registrations: {
        concurrent: options.registrations,
        seats: options.seats,
        // The bar's race: over the connections the callers' page opened (p50ms/p95ms are the bar's figures).
        ...warm,
        bar: 'exactly the seats registered, never one more; p95 <= 150 ms',
        // The same race over new connections, measured in the same run after the seats were given back.
        coldConnections,
        // The new process's first race (new connections, the path not yet compiled), before the bar's.
        firstOfTheProcess,
      },
      calendarMonth: {
        events: counts?.events ?? null,
        occurrences: counts?.details ?? null,
        occurrencesInMonth: shown,
        runs: options.calendarRuns,
        p50ms: pct(calendarMs, 50),
        p95ms: pct(calendarMs, 95),
        warmup: { runs: firstMs.length, p50ms: pct(firstMs, 50), maxMs: pct(firstMs, 100) },
        bar: 'p95 <= 50 ms',
      },
    };
  } finally {
    await server?.stop();
    if (profile) {
      const taken = readdirSync(join(dataDir, 'profile')).find((f) => f.endsWith('.cpuprofile'));
      if (taken) copyFileSync(join(dataDir, 'profile', taken), profile);
      // The warm race's window in the profile's clock: bench/src/cpu-profile-window.ts reads the samples in it.
      if (raceWindow)
        writeFileSync(
          `${profile}.window.json`,
          JSON.stringify({ startUs: raceWindow[0], endUs: raceWindow[1] }),
        );
    }
    await database?.close();
    execFileSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--if-exists', dbName]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
