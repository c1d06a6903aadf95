/**
 * The registrations' client in a process of its own, as any real client is (bench/src/events.ts forks it): it gets
 * the server's address, the session cookie and the requests over IPC, sends every request at once, and answers each
 * one's status, JSON and time from send to answer. The server's event loop then does the server's work only.
 *
 * Two ways in (decision 0195):
 *   - warm (the job names a `warm` request): the callers are users already on the event's registration page. Their
 *     browsers hold a keep-alive connection to the server, over which the page loaded its data. So the client first
 *     opens one connection per caller by making the page's read on each, all at once, keeps them alive, and then
 *     sends the registrations at once over them (each over a connection of its own, already open).
 *   - cold (no `warm`): one new connection per request, opened by the call itself.
 */
import { Agent, request } from 'node:http';

interface Call {
  method: string;
  path: string;
  body: unknown;
}

interface Job {
  origin: string;
  cookie: string;
  path: string;
  bodies: unknown[];
  /** The page's read made once per caller before the race, opening the connections the race is sent over. */
  warm?: Call;
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

// Every connection kept open while idle (the default keeps 256 free).
const agent = new Agent({
  keepAlive: true,
  maxSockets: Number.POSITIVE_INFINITY,
  maxFreeSockets: Number.POSITIVE_INFINITY,
});

function send(origin: string, cookie: string, { method, path, body }: Call): Promise<ClientAnswer> {
  const payload = Buffer.from(JSON.stringify(body));
  const started = performance.now();
  let writtenMs = Number.NaN;
  return new Promise((resolve, reject) => {
    const req = request(
      `${origin}${path}`,
      {
        method,
        agent,
        headers: {
          cookie,
          origin,
          'content-type': 'application/json',
          'content-length': payload.length,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const ms = performance.now() - started;
          let json: Record<string, unknown> | null = null;
          try {
            json = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
          } catch {
            json = null;
          }
          resolve({ status: res.statusCode ?? 0, json, ms, writtenMs, reused: req.reusedSocket });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.on('finish', () => {
      writtenMs = performance.now() - started;
    });
    req.end(payload);
  });
}

const openSockets = () => Object.values(agent.freeSockets).reduce((n, s) => n + (s?.length ?? 0), 0);

process.once('message', async (job: Job) => {
  let warm: ClientResult['warm'] = null;
  if (job.warm) {
    const started = performance.now();
    const read = job.warm;
    const answers = await Promise.all(job.bodies.map(() => send(job.origin, job.cookie, read)));
    const statuses: Record<string, number> = {};
    for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
    // The answers have ended; each connection goes back to the agent's free ones on the next turn.
    await new Promise((r) => setImmediate(r));
    warm = { statuses, ms: +(performance.now() - started).toFixed(1), sockets: openSockets() };
    // The bench starts its count of the server's processor time at the race, not at the warm-up.
    const go = new Promise((r) => process.once('message', r));
    process.send?.('warmed');
    await go;
  }
  const cpu = process.cpuUsage();
  const answers = await Promise.all(
    job.bodies.map((body) => send(job.origin, job.cookie, { method: 'POST', path: job.path, body })),
  );
  const used = process.cpuUsage(cpu);
  agent.destroy();
  const result: ClientResult = { answers, cpuMs: (used.user + used.system) / 1000, warm };
  process.send?.(result, () => process.exit(0));
});
process.send?.('ready');
