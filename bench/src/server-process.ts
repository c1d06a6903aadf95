/**
 * The server's process as `npm start` starts it: the Node flags of the `start` script in package.json (memory
 * settings, decision 0086; the compiled modules' condition, decision 0191) before its entry, the compiled server
 * (`dist/`, built once per bench run by `npm run build:server`), so that what the benches measure is what a user runs.
 */
import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { type Database, rowsOf } from '@guildhall/db';
import { sql } from 'drizzle-orm';

let built = false;

export function serverArgs(root: string): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const match = /\bnode((?:\s+--\S+)*)\s+(packages\/server\/dist\/main\.js)/.exec(pkg.scripts.start);
  if (!match) throw new Error('the start script does not run packages/server/dist/main.js with node');
  if (!built) {
    execSync('npm run build:server', { cwd: root, stdio: 'ignore' });
    built = true;
  }
  return [...(match[1] ?? '').trim().split(/\s+/).filter(Boolean), join(root, match[2] as string)];
}

/** A free local port for a server. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  origin: string;
  process: ChildProcess;
  /** Its resident memory (bytes), read from /proc. */
  rss(): number;
  /** SIGTERM, then waits for its exit. */
  stop(): Promise<void>;
}

/**
 * Starts the server as `npm start` runs it (serverArgs) on a free local port with `env` added to the bench's own
 * (DATABASE_URL, DATA_DIR, SEED_DEMO…), and answers once it answers HTTP (`/api/auth/me` below 500).
 */
export async function startServerProcess(
  root: string,
  env: Record<string, string>,
  /** Node flags added to the start script's (a profiler's, say). */
  nodeFlags: string[] = [],
): Promise<ServerProcess> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const args = serverArgs(root);
  const child = spawn(process.execPath, [...args.slice(0, -1), ...nodeFlags, ...args.slice(-1)], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: 'ignore',
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  const started = performance.now();
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server stopped (${child.exitCode})`);
      if (performance.now() - started > 300_000) throw new Error('the server did not start within 300 s');
      try {
        if ((await fetch(`${origin}/api/auth/me`)).status < 500) break;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const rss = () => {
    const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
    return Number(line?.[1] ?? 0) * 1024;
  };
  return { origin, process: child, rss, stop };
}

/**
 * Waits until the server's work of its start is over: its daily check (a second after the start, decision 0181)
 * and the jobs it queued, which ran during the first timed requests of the benches (the lists matrix's first
 * combinations at 1,000,000, the events calendar's first months). Over when, for one second, no other statement
 * runs on this database and no job is due, queued or running; 60 s at most.
 */
export async function startWorkDone(database: Database): Promise<void> {
  await new Promise((r) => setTimeout(r, 1500));
  const until = performance.now() + 60_000;
  let quiet = 0;
  while (quiet < 5) {
    if (performance.now() > until) {
      console.warn('the server was still busy 60 s after its start: timing anyway');
      return;
    }
    const [busy] = rowsOf<{ n: number }>(
      await database.ownerDb.execute(
        sql`select (select count(*) from jobs where status in ('queued', 'running') and run_after <= now())::int
              + (select count(*) from pg_stat_activity where datname = current_database() and state = 'active'
                   and pid <> pg_backend_pid())::int as n`,
      ),
    );
    quiet = (busy?.n ?? 0) === 0 ? quiet + 1 : 0;
    await new Promise((r) => setTimeout(r, 200));
  }
}
