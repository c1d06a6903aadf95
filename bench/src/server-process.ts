/**
 * The server's process as `npm start` starts it: the Node flags of the `start` script in package.json (memory
 * settings, decision 0086; the compiled modules' condition, decision 0191) before its entry, the compiled server
 * (`dist/`, built once per bench run by `npm run build:server`), so that what the benches measure is what a user runs.
 */
import { type ChildProcess, execSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

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
export async function startServerProcess(root: string, env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, serverArgs(root), {
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
