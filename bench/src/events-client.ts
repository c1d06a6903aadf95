/**
 * The registrations' client in a process of its own, as any real client is (bench/src/events.ts forks it): it gets
 * the server's address, the session cookie and the requests over IPC, opens its own keep-alive connections (one per
 * request in flight, as many browsers would), sends every request at once, and answers each one's status, JSON and
 * time from send to answer. The server's event loop then does the server's work only.
 */
import { Agent, request } from 'node:http';

interface Job {
  origin: string;
  cookie: string;
  path: string;
  bodies: unknown[];
}

export interface ClientAnswer {
  status: number;
  json: Record<string, unknown> | null;
  ms: number;
  /** When its bytes were written to its connection, from the call. */
  writtenMs: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

function post(origin: string, cookie: string, path: string, body: unknown): Promise<ClientAnswer> {
  const payload = Buffer.from(JSON.stringify(body));
  const started = performance.now();
  let writtenMs = Number.NaN;
  return new Promise((resolve, reject) => {
    const req = request(
      `${origin}${path}`,
      {
        method: 'POST',
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
          resolve({ status: res.statusCode ?? 0, json, ms, writtenMs });
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

process.on('message', async (job: Job) => {
  const cpu = process.cpuUsage();
  const answers = await Promise.all(job.bodies.map((b) => post(job.origin, job.cookie, job.path, b)));
  const used = process.cpuUsage(cpu);
  agent.destroy();
  process.send?.({ answers, cpuMs: (used.user + used.system) / 1000 }, () => process.exit(0));
});
process.send?.('ready');
