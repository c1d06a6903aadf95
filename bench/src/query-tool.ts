/**
 * The query tool's CSV download (issue 20: a CSV of 1,000,000 rows streams at >= 50,000 rows/s with flat memory;
 * P5: peak server memory for 1M rows at most 1.2x that for 100k rows): a server in a child process (embedded PGlite,
 * or PostgreSQL with `--query-tool-db <url>`), signed in as the demo administrator, saves two queries of 5 columns
 * (generated, so no table has to be loaded first), one of N rows and one of N/10, and downloads them through
 * `POST /a/dev/QuerytoolDownload`, read as a stream: N rows once after the start (`first`, information: it also
 * measures what the start left to collect), then N/10 and N on the warmed server, the same way. The server's
 * resident memory (its process and its children: the query parser's process) is sampled every 10 ms.
 * Judged as the bars define it: the peak during N rows at most 1.2x the peak during N/10 (P5), and flat during the
 * N rows (the median of the last third of the samples within 10% of the first third's). The growth over the level
 * just before each download is kept as information.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { serverArgs } from './server-process.ts';

const MB = 1024 * 1024;

function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0; // ended meanwhile
  }
}

/** The process and its descendants (the server starts the query parser's process). */
function treeOf(pid: number): number[] {
  const out = [pid];
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(/\s+/) : []) out.push(...treeOf(Number(child)));
    }
  } catch {
    // ended meanwhile
  }
  return out;
}

const memoryOf = (pid: number) => treeOf(pid).reduce((sum, p) => sum + rssOf(p), 0);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
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
    /** Saves a query of `count` rows and answers its name in the tool's list. */
    const saveQuery = async (count: number) => {
      const title = `Bench ${count} rows ${Date.now()}`;
      const saved = await fetch(`${base}/api/dev/queries/querySave`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({
          Title: title,
          GroupName: 'Bench',
          Sql: `select g as "Id", 'Member ' || g as "Name", 'member' || g || '@example.org' as "Email",
          (g % 97) * 1.25 as "Amount", case when g % 3 = 0 then '=formula' else 'plain, text' end as "Note"
          from generate_series(1, ${count}) g`,
        }),
      });
      if (!saved.ok) throw new Error(`saving the query answered ${saved.status} ${await saved.text()}`);
      const list = (await (
        await fetch(`${base}/api/query-tool/queries`, { headers: { cookie } })
      ).json()) as {
        name: string;
        title: string;
      }[];
      return list.find((q) => q.title === title)?.name ?? '';
    };
    const smallRows = Math.max(1, Math.round(rows / 10));
    const name = await saveQuery(rows);
    const smallName = await saveQuery(smallRows);
    const pid = child.pid ?? 0;
    /** One download, read as a stream, with the server's resident memory sampled every 10 ms against its level just before. */
    const once = async (queryName: string, expected: number) => {
      const loadBefore = loadavg()[0] ?? 0;
      const before = memoryOf(pid);
      const samples: number[] = [];
      const timer = setInterval(() => samples.push(memoryOf(pid)), 10);
      const t = performance.now();
      const res = await fetch(`${base}/a/dev/QuerytoolDownload`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin: base },
        body: new URLSearchParams({ QueryName: queryName }).toString(),
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
      const peak = Math.max(before, ...samples);
      const third = Math.floor(samples.length / 3);
      const firstThird = median(samples.slice(0, third));
      const lastThird = median(samples.slice(samples.length - third));
      const dataRows = lines - 1;
      if (dataRows !== expected) throw new Error(`the CSV had ${dataRows} rows, not ${expected}`);
      return {
        rows: dataRows,
        megabytes: +(bytes / MB).toFixed(1),
        seconds: +seconds.toFixed(2),
        rowsPerSecond: Math.round(dataRows / seconds),
        firstByteMs: Math.round(firstByte),
        serverMemoryBeforeMB: +(before / MB).toFixed(1),
        serverMemoryPeakMB: +(peak / MB).toFixed(1),
        serverMemoryGrowthMB: +((peak - before) / MB).toFixed(1),
        /** Medians of the first and last thirds of the samples during the download (flatness). */
        serverMemoryFirstThirdMB: +(firstThird / MB).toFixed(1),
        serverMemoryLastThirdMB: +(lastThird / MB).toFixed(1),
        samples: samples.length,
        loadAverage: { before: +loadBefore.toFixed(1), after: +(loadavg()[0] ?? 0).toFixed(1) },
      };
    };
    // The first download after the start also measures the start's own garbage being collected and reused (its
    // baseline holds hundreds of MB the start left); it is written as information. The two downloads judged are
    // made the same way on the warmed server, the smaller first.
    const first = await once(name, rows);
    const small = await once(smallName, smallRows);
    const large = await once(name, rows);
    const peakRatio = +(large.serverMemoryPeakMB / small.serverMemoryPeakMB).toFixed(3);
    const flatness = +(
      Math.abs(large.serverMemoryLastThirdMB - large.serverMemoryFirstThirdMB) /
      large.serverMemoryFirstThirdMB
    ).toFixed(3);
    return {
      database: databaseUrl ? 'postgres' : 'pglite',
      ...large,
      memory: {
        /** P5: the peak during N rows over the peak during N/10, both on the warmed server (at most 1.2). */
        peakRatio,
        peakRatioPass: peakRatio <= 1.2,
        /** |last third's median - first third's| / first third's, during the N rows (at most 0.10). */
        flatness,
        flatnessPass: flatness <= 0.1,
      },
      small,
      first,
    };
  } finally {
    child.kill();
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dataDir, { recursive: true, force: true });
  }
}
