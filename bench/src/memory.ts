/**
 * Resident memory of a started server at rest: `npm start`'s entry on a data folder, the demo staff signed in,
 * the contacts list's first pages, a sort and a search asked for once (caches filled as a user would fill them),
 * then the process left idle (10 s, or `idleMs`). Reads the whole process's resident set (the database's worker
 * thread included) every 200 ms; `nodeFlags` go before the start script's own (a candidate flag set, decision 0198).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverArgs } from './server-process.ts';

const rssOf = (pid: number) =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

export async function idleMemory(
  root: string,
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
  options: { nodeFlags?: readonly string[]; idleMs?: number } = {},
): Promise<{ afterStartMiB: number; idleMiB: number; peakMiB: number; startMs: number; peakAtS: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), ...serverArgs(root)], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: 'ignore',
  });
  const pid = child.pid as number;
  let peak = 0;
  let peakAt = 0;
  const sample = setInterval(() => {
    try {
      const rss = rssOf(pid);
      if (rss > peak) {
        peak = rss;
        peakAt = performance.now() - started;
      }
    } catch {
      // not started yet or gone
    }
  }, 200);
  try {
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (i > 1200) throw new Error('the server did not start within 120 s');
      const res = await fetch(`${base}/sign-in`).catch(() => null);
      if (res?.ok) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const startMs = Math.round(performance.now() - started);
    const afterStartMiB = rssOf(pid);
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ username: 'demo.staff', password: 'demo-staff-pass-2026' }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', origin: base },
        body: JSON.stringify(body),
      }).then((r) => r.text());
    for (const skip of [0, 50, 100, 5000])
      await post(`/api/contacts/contacts/contactData?$top=50&$skip=${skip}`, {});
    await post('/api/contacts/contacts/contactData?$top=50&$orderby=City%20desc', {});
    await fetch(`${base}/api/search/global/backoffice/smi?v=2`, { headers: { cookie } }).then((r) =>
      r.text(),
    );
    await new Promise((r) => setTimeout(r, options.idleMs ?? 10_000));
    const idleMiB = rssOf(pid);
    return {
      afterStartMiB,
      idleMiB,
      peakMiB: Math.max(peak, idleMiB),
      startMs,
      peakAtS: Math.round(peakAt / 1000),
    };
  } finally {
    clearInterval(sample);
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}
