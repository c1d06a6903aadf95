/**
 * `npm run bench`: measures the quality bars that exist so far and writes bench/results/*.json with the machine's
 * core count and the commit. Bars measured here:
 *   P6 (part): initial JavaScript of the web build, gzipped (entry chunk and its static imports).
 *   P7: first `npm start`-equivalent on a new embedded database to a served sign-in page, and a restart.
 * The list, search and export bars (P1-P5) join when the contacts list exists.
 */
import { execSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = join(import.meta.dirname, '../..');
const results = join(root, 'bench/results');
const commit = execSync('git rev-parse --short HEAD', { cwd: root }).toString().trim();
const machine = { cores: cpus().length, node: process.version, commit, at: new Date().toISOString() };

function write(name: string, data: unknown): void {
  writeFileSync(
    join(results, `${name}.json`),
    `${JSON.stringify({ ...machine, ...(data as object) }, null, 2)}\n`,
  );
  console.log(name, JSON.stringify(data));
}

// P6: initial JavaScript, gzipped.
execSync('npm run build -w @guildhall/web', { cwd: root, stdio: 'ignore' });
const dist = join(root, 'packages/web/dist');
// What the browser loads before any route: the entry script and the modules index.html preloads.
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const initial = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1] as string);
const initialBytes = initial.reduce((sum, file) => sum + gzipSync(readFileSync(join(dist, file))).length, 0);
write('p6-initial-js', {
  bar: 'P6 initial JS gzipped <= 300 KiB',
  initialJsGzipKiB: +(initialBytes / 1024).toFixed(1),
  files: initial,
  pass: initialBytes <= 300 * 1024,
});

// P7: first start and restart on the embedded database.
async function timeToSignIn(dataDir: string, port: number): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, ['packages/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (performance.now() - started > 120_000) throw new Error('the server did not start within 120 s');
      try {
        const res = await fetch(`http://127.0.0.1:${port}/sign-in`);
        if (res.ok) return performance.now() - started;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}
const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-'));
const first = await timeToSignIn(dataDir, 3990);
const restarts: number[] = [];
for (let i = 0; i < 3; i++) restarts.push(await timeToSignIn(dataDir, 3990));
rmSync(dataDir, { recursive: true, force: true });
restarts.sort((a, b) => a - b);
const restartMedian = restarts[1] ?? 0;
write('p7-startup', {
  bar: 'P7 first start <= 60 s, restart <= 5 s (embedded PGlite; the web build is measured apart above)',
  firstStartMs: Math.round(first),
  restartMedianMs: Math.round(restartMedian),
  restartsMs: restarts.map(Math.round),
  pass: first <= 60_000 && restartMedian <= 5_000,
});
