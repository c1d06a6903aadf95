/**
 * The events bench's client in a process of its own, as any real client is (bench/src/events.ts forks it): it gets
 * the server's address, the session cookie and the requests over IPC and answers each one's status, JSON and time
 * from send to answer. The server's event loop then does the server's work only.
 *
 * It speaks HTTP through the bench's minimal keep-alive client (raw-http.ts: one socket per caller, each request
 * written as one buffer, each answer read by its length), as the list benches do: the 500 callers are 500 browsers
 * on 500 machines, and node:http's client objects (request, response, agent, streams) for 500 callers in one
 * process on the server's two cores cost about as much as the server's own HTTP layer, in the figures and in the
 * processor the server shares (decision 0200).
 *
 * Jobs:
 *   - a race with `warm` (the bar's): the callers are users already on the event's registration page. Their
 *     browsers hold a keep-alive connection to the server, over which the page loaded its data. So the client first
 *     opens one connection per caller by making the page's read on each, all at once, keeps them open, and then
 *     sends the registrations at once over them (each over a connection of its own, already open).
 *   - a race without `warm` (cold): one new connection per request, opened by the call itself.
 *   - `calendar`: one caller asks for the same range in turn over one keep-alive connection, untimed while warming
 *     up, then `runs` times, each from the call to the parsed answer.
 */
import { type RawAnswer, RawHttpClient } from './raw-http.ts';

interface Call {
  method: string;
  path: string;
  body: unknown;
}

interface RaceJob {
  origin: string;
  cookie: string;
  path: string;
  bodies: unknown[];
  /** The page's read made once per caller before the race, opening the connections the race is sent over. */
  warm?: Call;
}

interface CalendarJob {
  origin: string;
  cookie: string;
  /** Untimed runs first: at least `warmupRuns` of them and for at least `warmupMs`; then `runs` timed. */
  calendar: { path: string; warmupRuns: number; warmupMs: number; runs: number };
}

export interface ClientAnswer {
  status: number;
  json: Record<string, unknown> | null;
  ms: number;
  /** When its bytes were written to its connection, from the call. */
  writtenMs: number;
  /** Whether it went over a connection already open (kept alive from an earlier request). */
  reused: boolean;
}

export interface ClientResult {
  answers: ClientAnswer[];
  cpuMs: number;
  /** The warm-up, when there was one: its statuses and how long opening the connections took. */
  warm: { statuses: Record<string, number>; ms: number; sockets: number } | null;
}

export interface CalendarResult {
  /** Each warm-up run's time. */
  warmupMs: number[];
  /** Each timed run's time from the call to the parsed answer. */
  ms: number[];
  /** How many occurrences the last answer held (-1 when it was not a list). */
  shown: number;
  status: number;
}

const parse = (a: RawAnswer): Record<string, unknown> | null => {
  try {
    return JSON.parse(a.text) as Record<string, unknown>;
  } catch {
    return null;
  }
};

async function send(client: RawHttpClient, origin: string, cookie: string, { method, path, body }: Call) {
  const reused = client.isOpen();
  const started = performance.now();
  const answer = client.send(
    method,
    path,
    { cookie, origin, 'content-type': 'application/json' },
    JSON.stringify(body),
  );
  // Over an open connection the request is written in the call's own turn; a new one is written once connected.
  const writtenMs = reused ? performance.now() - started : Number.NaN;
  const a = await answer;
  const ms = performance.now() - started;
  return {
    status: a.status,
    json: parse(a),
    ms,
    writtenMs: reused ? writtenMs : client.writtenAt - started,
    reused,
  } satisfies ClientAnswer;
}

async function race(job: RaceJob): Promise<ClientResult> {
  const clients = job.bodies.map(() => new RawHttpClient(job.origin));
  let warm: ClientResult['warm'] = null;
  if (job.warm) {
    const started = performance.now();
    const read = job.warm;
    const answers = await Promise.all(clients.map((c) => send(c, job.origin, job.cookie, read)));
    const statuses: Record<string, number> = {};
    for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    warm = {
      statuses,
      ms: +(performance.now() - started).toFixed(1),
      sockets: clients.filter((c) => c.isOpen()).length,
    };
    // The bench starts its count of the server's processor time at the race, not at the warm-up.
    const go = new Promise((r) => process.once('message', r));
    process.send?.('warmed');
    await go;
  }
  const cpu = process.cpuUsage();
  const answers = await Promise.all(
    job.bodies.map((body, i) =>
      send(clients[i] as RawHttpClient, job.origin, job.cookie, { method: 'POST', path: job.path, body }),
    ),
  );
  const used = process.cpuUsage(cpu);
  for (const c of clients) c.close();
  return { answers, cpuMs: (used.user + used.system) / 1000, warm };
}

async function calendar(job: CalendarJob): Promise<CalendarResult> {
  const client = new RawHttpClient(job.origin);
  const { path, warmupRuns, warmupMs, runs } = job.calendar;
  const warmup: number[] = [];
  const ms: number[] = [];
  let shown = -1;
  let status = 0;
  const began = performance.now();
  while (ms.length < runs) {
    const started = performance.now();
    const a = await client.send('GET', path, { cookie: job.cookie, origin: job.origin });
    const json = parse(a) as unknown;
    const took = performance.now() - started;
    if (warmup.length < warmupRuns || started - began < warmupMs) warmup.push(took);
    else ms.push(took);
    shown = Array.isArray(json) ? json.length : -1;
    status = a.status;
  }
  client.close();
  return { warmupMs: warmup, ms, shown, status };
}

process.once('message', async (job: RaceJob | CalendarJob) => {
  const result = 'calendar' in job ? await calendar(job) : await race(job);
  process.send?.(result, () => process.exit(0));
});
process.send?.('ready');
