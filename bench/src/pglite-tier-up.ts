/**
 * PGlite's query speed and its process's resident peak under V8 flag sets (decision 0198): the embedded engine's
 * WebAssembly tiers up from Liftoff to the optimizing compiler as it runs, and its grammar function's recompilation
 * holds ~600 MB for seconds. Each flag set runs in a process of its own (V8 flags are the process's), the sets in
 * turns (A B C A B C …) so that the shared machine's load moves all of them alike.
 *
 * `node bench/src/pglite-tier-up.ts [--rows 100000] [--rounds 2] [--set name=--flag,--flag …]`; without `--set`,
 * the candidates below. A process: 100,000 rows loaded by one INSERT … SELECT with three indexes, then list-shaped
 * queries (a page of 50 under two sorts at skip 0 and 10,000, an equality filter, a search that reads
 * every row, a count, one update in a transaction), each asked 230 times with its literals varied so that every call
 * is parsed; the first 200 (`--warm`) are the warm-up (the tier-ups happen there) and the last 30 are timed. Writes one line a
 * set: resident peak (sampled every 100 ms), per-query p50 of the timed calls, their sum, the warm-up's total, and
 * the process's CPU time in the warm-up and in the timed calls (less moved by the machine's load than wall time).
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({
  options: {
    child: { type: 'boolean', default: false },
    rows: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '2' },
    warm: { type: 'string', default: '200' },
    set: { type: 'string', multiple: true },
  },
});

const rssMiB = (pid: number) =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);

async function child(rows: number, warm: number): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create();
  const started = performance.now();
  await db.exec(`
    create table contact (id int primary key, display_name text not null, city text not null, email text not null,
      created date not null);
    insert into contact select g, 'Name ' || md5(g::text), 'City ' || (g % 500), 'user' || g || '@example.org',
      date '2020-01-01' + (g % 2000) from generate_series(1, ${rows}) g;
    create index contact_name on contact (display_name, id);
    create index contact_city on contact (city, display_name, id);
    create index contact_created on contact (created);
    analyze contact;`);
  const loadMs = performance.now() - started;
  const cols = 'id, display_name, city, email, created';
  const queries: Record<string, (i: number) => Promise<unknown>> = {
    byName0: (i) =>
      db.query(`select ${cols} from contact order by display_name, id limit 50 offset ${i % 3}`),
    byName10000: (i) =>
      db.query(`select ${cols} from contact order by display_name, id limit 50 offset ${10_000 + (i % 3)}`),
    cityDesc: (i) => db.query(`select ${cols} from contact order by city desc, id limit 50 offset ${i % 3}`),
    cityFilter: (i) =>
      db.query(`select ${cols} from contact where city = $1 order by display_name, id limit 50`, [
        `City ${i}`,
      ]),
    search: (i) =>
      db.query(`select ${cols} from contact where display_name ilike $1 order by id limit 50`, [
        `%${i % 10}ab%`,
      ]),
    count: (i) => db.query(`select count(*) from contact where created >= date '2021-01-01' + ${i}`),
    update: (i) =>
      db.transaction(async (tx) => {
        await tx.query('update contact set email = $1 where id = $2', [
          `u${i}@example.org`,
          (i * 7919) % rows,
        ]);
      }),
  };
  const times: Record<string, number[]> = {};
  const warmStarted = performance.now();
  let warmMs = 0;
  // CPU time of the whole process (compiler threads included) moves less with the machine's load than wall time.
  let cpu = process.cpuUsage();
  let warmCpuMs = 0;
  for (let i = 0; i < warm + 30; i++) {
    if (i === warm) {
      warmMs = performance.now() - warmStarted;
      const used = process.cpuUsage(cpu);
      warmCpuMs = (used.user + used.system) / 1000;
      cpu = process.cpuUsage();
    }
    for (const [name, run] of Object.entries(queries)) {
      const t = performance.now();
      await run(i);
      if (i >= warm) {
        const taken = performance.now() - t;
        times[name] = [...(times[name] ?? []), taken];
      }
    }
  }
  const timedUsage = process.cpuUsage(cpu);
  const timedCpuMs = Math.round((timedUsage.user + timedUsage.system) / 1000);
  const p50 = Object.fromEntries(
    Object.entries(times).map(([name, t]) => [name, +(t.sort((a, b) => a - b)[15] as number).toFixed(2)]),
  );
  const sumP50 = +Object.values(p50)
    .reduce((a, b) => a + b, 0)
    .toFixed(1);
  await db.close();
  process.stdout.write(
    `${JSON.stringify({ loadMs: Math.round(loadMs), warmMs: Math.round(warmMs), warmCpuMs: Math.round(warmCpuMs), timedCpuMs, sumP50, p50 })}\n`,
  );
}

const candidates: Record<string, string[]> = {
  default: [],
  'no-turboshaft-loop-unrolling': ['--no-turboshaft-loop-unrolling'],
  'no-wasm-tier-up': ['--no-wasm-tier-up'],
  'budget-x10': ['--wasm-tiering-budget=130000000'],
  'budget-x100': ['--wasm-tiering-budget=1300000000'],
};

if (args.child) {
  await child(Number(args.rows), Number(args.warm));
} else {
  const sets = args.set
    ? Object.fromEntries(
        args.set.map((s) => {
          const at = s.indexOf('=');
          return [
            at < 0 ? s : s.slice(0, at),
            at < 0
              ? []
              : s
                  .slice(at + 1)
                  .split(',')
                  .filter(Boolean),
          ];
        }),
      )
    : candidates;
  const self = new URL(import.meta.url).pathname;
  for (let round = 0; round < Number(args.rounds); round++) {
    for (const [name, flags] of Object.entries(sets)) {
      const load = loadavg().map((n) => +n.toFixed(1));
      const out = await new Promise<string>((resolve, reject) => {
        const p = spawn(
          process.execPath,
          [...flags, self, '--child', '--rows', String(args.rows), '--warm', String(args.warm)],
          {
            stdio: ['ignore', 'pipe', 'inherit'],
          },
        );
        // The child's event loop is held by the engine's synchronous calls: its resident set is read from here.
        let peakMiB = 0;
        const sample = setInterval(() => {
          try {
            peakMiB = Math.max(peakMiB, rssMiB(p.pid as number));
          } catch {
            // gone
          }
        }, 100);
        let text = '';
        p.stdout.on('data', (d) => {
          text += d;
        });
        p.on('exit', (code) => {
          clearInterval(sample);
          if (code === 0) resolve(`${text.trim().slice(0, -1)},"peakMiB":${peakMiB}}`);
          else reject(new Error(`${name} exited ${code}`));
        });
      });
      // The last line is the child's figures; lines before it are V8's traces when a set asks for them.
      const lines = out.split('\n');
      for (const line of lines.slice(0, -1)) console.error(line);
      console.log(
        JSON.stringify({ round, set: name, flags, loadBefore: load, ...JSON.parse(lines.at(-1) as string) }),
      );
    }
  }
  console.log(
    JSON.stringify({ commit: execFileSync('git', ['rev-parse', '--short', 'HEAD']).toString().trim() }),
  );
}
