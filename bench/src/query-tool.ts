/**
 * The query tool's CSV download (issue 20: a CSV of 1,000,000 rows streams at >= 50,000 rows/s with flat memory):
 * a server in a child process (embedded PGlite, or PostgreSQL with `--query-tool-db <url>`), signed in as the demo
 * administrator, saves a query of N rows x 5 columns (generated, so no table has to be loaded first) and downloads
 * it through `POST /a/dev/QuerytoolDownload` twice, read as a stream: the first download after the start (`first`)
 * and the same again on the warmed server (the figures at the top); the server's resident memory is sampled every
 * 10 ms against its level just before each.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverArgs } from './server-process.ts';

const MB = 1024 * 1024;

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

export async function measureQueryToolCsv(root: string, rows: number, databaseUrl?: string, port = 3992) {
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-query-tool-'));
  const child = spawn(process.execPath, serverArgs(root), {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    },
    stdio: 'ignore',
  });
  const base = `http://127.0.0.1:${port}`;
  try {
    const started = performance.now();
    for (;;) {
      // A first start migrates and seeds the demo: minutes on a loaded machine.
      if (performance.now() - started > 600_000) throw new Error('the server did not start within 600 s');
      try {
        // Any answer means it listens (without the web's build the page itself is a 404).
        if ((await fetch(`${base}/sign-in`)).status < 500) break;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'demo.staff', password: 'demo-staff-pass-2026' }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    if (!login.ok || !cookie) throw new Error(`sign-in failed: ${login.status}`);
    const json = { cookie, 'content-type': 'application/json', origin: base };
    const title = `Bench ${rows} rows ${Date.now()}`;
    const saved = await fetch(`${base}/api/dev/queries/querySave`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        Title: title,
        GroupName: 'Bench',
        Sql: `select g as "Id", 'Member ' || g as "Name", 'member' || g || '@example.org' as "Email",
          (g % 97) * 1.25 as "Amount", case when g % 3 = 0 then '=formula' else 'plain, text' end as "Note"
          from generate_series(1, ${rows}) g`,
      }),
    });
    if (!saved.ok) throw new Error(`saving the query answered ${saved.status} ${await saved.text()}`);
    const list = (await (await fetch(`${base}/api/query-tool/queries`, { headers: { cookie } })).json()) as {
      name: string;
      title: string;
    }[];
    const name = list.find((q) => q.title === title)?.name ?? '';
    const pid = child.pid ?? 0;
    /** One download, read as a stream, with the server's resident memory sampled every 10 ms against its level just before. */
    const once = async () => {
      const loadBefore = loadavg()[0] ?? 0;
      const before = rssOf(pid);
      let peak = before;
      const timer = setInterval(() => {
        peak = Math.max(peak, rssOf(pid));
      }, 10);
      const t = performance.now();
      const res = await fetch(`${base}/a/dev/QuerytoolDownload`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: base },
        body: new URLSearchParams({ QueryName: name }).toString(),
      });
      if (!res.ok || !res.body) throw new Error(`download answered ${res.status} ${await res.text()}`);
      let lines = 0;
      let bytes = 0;
      const firstByte = performance.now() - t;
      for await (const chunk of res.body) {
        bytes += chunk.length;
        for (const b of chunk) if (b === 10) lines++;
      }
      const seconds = (performance.now() - t) / 1000;
      clearInterval(timer);
      peak = Math.max(peak, rssOf(pid));
      const dataRows = lines - 1;
      if (dataRows !== rows) throw new Error(`the CSV had ${dataRows} rows, not ${rows}`);
      return {
        rows: dataRows,
        megabytes: +(bytes / MB).toFixed(1),
        seconds: +seconds.toFixed(2),
        rowsPerSecond: Math.round(dataRows / seconds),
        firstByteMs: Math.round(firstByte),
        serverMemoryBeforeMB: +(before / MB).toFixed(1),
        serverMemoryGrowthMB: +((peak - before) / MB).toFixed(1),
        loadAverage: { before: +loadBefore.toFixed(1), after: +(loadavg()[0] ?? 0).toFixed(1) },
      };
    };
    // The first download after the start also measures the start's own garbage being collected and reused (its
    // baseline holds hundreds of MB the start left: 779 MB before a first download of 300,000 rows, 284 MB before the
    // same download again); the same download again, on the warmed server, is the one that tells whether memory
    // grows with the rows. Both are written.
    const first = await once();
    const again = await once();
    return { database: databaseUrl ? 'postgres' : 'pglite', ...again, first };
  } finally {
    child.kill();
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
