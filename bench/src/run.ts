/**
 * `npm run bench`: measures the quality bars that exist so far and writes bench/results/*.json with the machine's
 * core count and the commit. Bars measured here:
 *   P6 (part): initial JavaScript of the web build, gzipped (entry chunk and its static imports).
 *   P7: first `npm start`-equivalent on a new embedded database to a served sign-in page, and a restart.
 *   P1-P5 on real PostgreSQL at 1,000,000 contacts and on embedded PGlite at 100,000 (bench/src/lists.ts), and
 *   P8 (the COPY load those runs start with).
 *   P6 on contacts: the contacts list in infinite-scroll mode over 100,000 contacts in Chromium (bench/src/web.ts).
 *   The contacts import (bench/src/import.ts): 20,000 rows committed, and other requests while it commits.
 *   Events (bench/src/events.ts): concurrent registrations for a few seats, and a calendar month of many events.
 *   P9: a 20 MB photo's upload and variants, its memory, 20 parallel 5 MB uploads (bench/src/images.ts).
 * `npm run bench -- --only lists --pg 1000000 --pglite 100000` runs part of it (sizes adjustable for a quick try);
 * `--only lists-domains` the same list matrix over memberships, invoices, events and attendees (as many of each as
 * contacts, a tenth as many events); `--domains invoices,attendees` loads and measures those lists only (written as
 * lists-<db>-domains-attendees-invoices.json); `BENCH_SLOW_MS=35` writes each timed list request slower than that to
 * stderr with its start time (for matching a stall with `node --trace-gc` or the database's log);
 * `--only web` runs the web bars alone: P6 on contacts (`--web-contacts` sets its size), initial JS, P7;
 * `--only import` the import alone (`--import-rows` sets its size, `--import-db pglite` measures one database); `--only p7` start-up and memory alone;
 * `--only images` P9 alone; `--only signup` the sign-up bar alone (`--signups` sets how many are timed);
 * `--only query-tool` the query tool's CSV download (`--query-tool-rows`, and `--query-tool-db <url>` for
 * PostgreSQL besides PGlite; bench/src/query-tool.ts).
 * `--only billing` the billing bars (bench/src/billing.ts): 1,000 invoice PDFs (`--billing-pdfs`) and the receivables
 * aging over 200,000 open invoices (`--billing-open-invoices`) and "Create invoices from file" with 10,000 rows
 * (`--billing-import-rows`) on PostgreSQL; `--only billing-pdfs`, `--only billing-aging` or `--only billing-import`
 * one of them alone.
 * `--only memberships` the memberships bars (bench/src/memberships.ts): the renewal run (`--memberships-renewals`,
 * 100,000; killed and restarted over `--memberships-resume`, 20,000) and the list (`--memberships-list`, 500,000).
 * `--only reports` the grouped report bar (P15) on PostgreSQL (`--report-contacts` sets its size; bench/src/reports.ts).
 * `--only p15` every report bar in one command: the grouped report at 1,000,000 contacts, the query tool's CSV of
 * 1,000,000 rows on PGlite and on a PostgreSQL database of its own (made and dropped; `--query-tool-db` names
 * another), and the custom-field list bar (`--cf-contacts`); each result file keeps the load average it ran at.
 * `--only mail` the mail bar (bench/src/mail.ts): a mailing to `--mail-recipients` (10,000) contacts delivered by the
 * server (as `npm start` runs it, on PostgreSQL) to a local SMTP sink, messages a second and memory; then killed
 * halfway with each of `--mail-kills` (SIGTERM,SIGKILL) and restarted: copies per recipient; written as
 * bench/results/mail-delivery.json (memory before the send and during it apart).
 * `--only custom-fields` the custom-fields list bar alone through the HTTP API (`--cf-contacts` sets its size,
 * 100,000 by default; `--cf-database <name>` seeds that database once, keeps it and measures it again as it is on
 * later runs), written as the `customFields` entry of lists-postgres.json.
 */
import { execSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { measureBilling } from './billing.ts';
import { measureCustomFields } from './custom-fields.ts';
import { measureEvents } from './events.ts';
import { measureImages } from './images.ts';
import { measureImport } from './import.ts';
import { measureLists } from './lists.ts';
import { measureMail } from './mail.ts';
import { measureMemberships } from './memberships.ts';
import { idleMemory } from './memory.ts';
import { measureQueryToolCsv } from './query-tool.ts';
import { measureReports } from './reports.ts';
import { serverArgs } from './server-process.ts';
import { measureSignup } from './signup.ts';
import { measureContactsScroll } from './web.ts';

const root = join(import.meta.dirname, '../..');
const results = join(root, 'bench/results');
const commit = execSync('git rev-parse --short HEAD', { cwd: root }).toString().trim();
const machine = { cores: cpus().length, node: process.version, commit, at: new Date().toISOString() };

function write(name: string, data: unknown): void {
  // The host's load when the figures were written: other work on a shared machine moves every absolute figure.
  const loadAverage = loadavg().map((n) => +n.toFixed(1));
  writeFileSync(
    join(results, `${name}.json`),
    `${JSON.stringify({ ...machine, loadAverage, ...(data as object) }, null, 2)}\n`,
  );
  console.log(name, JSON.stringify(data));
}

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    pg: { type: 'string', default: '1000000' },
    pglite: { type: 'string', default: '100000' },
    'web-contacts': { type: 'string', default: '100000' },
    'import-rows': { type: 'string', default: '20000' },
    /** The databases the import is measured on (`postgres,pglite`, or one of them). */
    'import-db': { type: 'string', default: 'postgres,pglite' },
    /** Rows of the query tool's CSV download; `--query-tool-db <url>` measures on that PostgreSQL database too. */
    'query-tool-rows': { type: 'string', default: '1000000' },
    /** Contacts of the grouped-report bench (PostgreSQL). */
    'report-contacts': { type: 'string', default: '1000000' },
    'query-tool-db': { type: 'string' },
    'memory-contacts': { type: 'string', default: '100000' },
    signups: { type: 'string', default: '20' },
    'event-registrations': { type: 'string', default: '500' },
    'event-seats': { type: 'string', default: '100' },
    'event-count': { type: 'string', default: '10000' },
    /** Memberships due of the renewal-run bar, of its killed-and-restarted run, and of the list bar. */
    'memberships-renewals': { type: 'string', default: '100000' },
    'memberships-resume': { type: 'string', default: '20000' },
    'memberships-list': { type: 'string', default: '500000' },
    /** Recipients of the mail bar's mailings, and the signals its kill-and-restart runs use. */
    'mail-recipients': { type: 'string', default: '10000' },
    'mail-kills': { type: 'string', default: 'SIGTERM,SIGKILL' },
    /** Contacts of the custom-fields bar (10 custom fields each). */
    'cf-contacts': { type: 'string', default: '100000' },
    /** A database the custom-fields bar seeds once and keeps: measured again as it is on later runs. */
    'cf-database': { type: 'string' },
    /** Invoice PDFs of the billing bench, and the open invoices of its aging report (PostgreSQL). */
    'billing-pdfs': { type: 'string', default: '1000' },
    'billing-open-invoices': { type: 'string', default: '200000' },
    /** Rows of the billing bench's "Create invoices from file" (PostgreSQL). */
    'billing-import-rows': { type: 'string', default: '10000' },
    /** Name of the PostgreSQL database the lists part creates and drops (default gh_bench_<pid>). */
    'pg-database': { type: 'string' },
    /** An existing database seeded with `npm run seed -- --tenant bench`: measured as it is, not loaded or dropped. */
    reuse: { type: 'string' },
    /** The lists `--only lists-domains` loads and measures (`invoices,attendees`); all four when absent. */
    domains: { type: 'string' },
  },
});

/**
 * The rows of each domain list for `--only lists-domains` over `count` contacts: as many memberships, invoices and
 * attendees as contacts, a tenth as many events (attendees need their events: they are loaded whenever attendees
 * are, and measured only when asked for). `only` names the lists measured (comma-separated); the others get none.
 */
function domainCounts(count: number, only?: string) {
  const all = { memberships: count, invoices: count, events: count / 10, attendees: count };
  if (only === undefined) return { domains: all };
  const names = only.split(',').map((n) => n.trim());
  const unknown = names.filter((n) => !(n in all));
  if (unknown.length > 0)
    throw new Error(`--domains: unknown list ${unknown.join(', ')} (${Object.keys(all).join(', ')})`);
  return {
    domains: {
      memberships: names.includes('memberships') ? all.memberships : 0,
      invoices: names.includes('invoices') ? all.invoices : 0,
      events: names.includes('events') || names.includes('attendees') ? all.events : 0,
      attendees: names.includes('attendees') ? all.attendees : 0,
    },
    measuredDomains: names as (keyof typeof all)[],
  };
}

if (args.only === undefined || args.only === 'lists' || args.only === 'lists-matrix') {
  for (const [kind, count] of [
    ['postgres', Number(args.pg)],
    ['pglite', Number(args.pglite)],
  ] as const) {
    if (count <= 0) continue;
    const matrixOnly = args.only === 'lists-matrix';
    const r = await measureLists(kind, count, {
      ...(args['pg-database'] ? { databaseName: args['pg-database'] } : {}),
      ...(args.reuse ? { reuse: args.reuse } : {}),
      matrixOnly,
    });
    if (matrixOnly) {
      write(`lists-${kind}-matrix`, r);
      continue;
    }
    const bars = {
      P1: 'list of 50, a sort, one filter, total included: p95 <= 50 ms at $skip 0 and 100,000 (HTTP), for every sort, direction, named filter and the search box (p1Matrix: the worst beside the median)',
      P2: 'search typeahead p95 <= 100 ms, >= 10x an unindexed ILIKE',
      P3: 'HTTP list p50 <= 1.5x the same SQL directly on the same pool',
      P4: 'row-level security on <= 1.2x off with an explicit tenant filter',
      P5: 'export: first byte <= 1 s, >= 50,000 rows/s, peak memory all <= 1.2x a tenth',
      P8: '1,000,000 contacts with entries loaded by COPY in <= 120 s (PostgreSQL)',
    };
    write(`lists-${kind}`, { bars, ...r });
  }
}
if (args.only === undefined || args.only === 'lists-domains') {
  // Every other domain's list (memberships, invoices, events, attendees) with the contacts' matrix (issue 22).
  for (const [kind, count] of [
    ['postgres', Number(args.pg)],
    ['pglite', Number(args.pglite)],
  ] as const) {
    if (count <= 0) continue;
    const r = await measureLists(kind, count, {
      ...(args.reuse ? { reuse: args.reuse } : {}),
      matrixOnly: true,
      ...domainCounts(count, args.domains),
    });
    // A run of some of the lists is written beside the whole matrix's file, never over it.
    const part = args.domains ? `-${args.domains.split(',').sort().join('-')}` : '';
    write(`lists-${kind}-domains${part}`, {
      bar: 'P1 for every list: every sort, direction, named filter and the search box p95 <= 50 ms at $skip 0 and deep',
      ...r,
    });
  }
}
if (args.only === undefined || args.only === 'custom-fields' || args.only === 'p15') {
  // Beside the lists' figures on PostgreSQL: lists-postgres.json keeps them, with a `customFields` entry of its own.
  const customFields = {
    ...machine,
    loadAverage: loadavg().map((n) => +n.toFixed(1)),
    ...(await measureCustomFields(Number(args['cf-contacts']), {
      ...(args['cf-database'] ? { reuse: args['cf-database'] } : {}),
    })),
  };
  const file = join(results, 'lists-postgres.json');
  const lists = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, `${JSON.stringify({ ...lists, customFields }, null, 2)}\n`);
  console.log('customFields', JSON.stringify(customFields));
}
if (args.only === undefined || args.only === 'import') {
  const rows = Number(args['import-rows']);
  const runs = [];
  for (const kind of args['import-db'].split(',') as ('postgres' | 'pglite')[])
    runs.push(await measureImport(kind, rows));
  const pg = runs.find((r) => r.kind === 'postgres');
  write('import', {
    bar: 'contacts import: 20,000 rows commit in <= 10 s on PostgreSQL; other requests p95 <= 100 ms while it commits, on both databases',
    runs,
    pass: (pg?.commitMs ?? Number.POSITIVE_INFINITY) <= 10_000 && runs.every((r) => r.others.p95Ms <= 100),
  });
}
if (args.only === undefined || args.only === 'web') {
  const r = await measureContactsScroll(root, Number(args['web-contacts']));
  write('p6-contacts-scroll', {
    bar: 'P6 contacts list, infinite scroll over 100,000 contacts: max DOM nodes <= 1,400, list LCP < 1 s',
    ...r,
  });
}
if (args.only === undefined || args.only === 'images') {
  const r = await measureImages(root);
  write('p9-images', {
    bar: "P9 a 20 MB photo's variants in <= 2 s (the whole upload request, transfer included), the server's memory growing by <= 150 MB; 20 parallel 5 MB uploads, none failing, memory bounded (<= 300 MB for all twenty)",
    ...r,
  });
}
if (args.only === undefined || args.only === 'signup') {
  const r = await measureSignup(Number(args['signups']));
  write('signup', {
    bar: 'sign-up to a usable association (CompleteSignup answered, identity and home page served with its session) <= 2 s on PostgreSQL over 20 sign-ups; 50 parallel sign-ups of distinct associations all succeed; one link sent in parallel makes exactly one',
    ...r,
    pass: r.maxMs <= 2000 && r.parallel.succeeded === 50 && r.sameLink.associationsMade === 1,
  });
}
if (args.only === undefined || args.only === 'query-tool' || args.only === 'p15') {
  const rows = Number(args['query-tool-rows']);
  const runs = [await measureQueryToolCsv(root, rows)];
  if (args['query-tool-db']) runs.push(await measureQueryToolCsv(root, rows, args['query-tool-db']));
  else if (args.only === 'p15') {
    // PostgreSQL too, on a database of its own (the server migrates it and seeds the demo association).
    const name = `query_tool_bench_${process.pid}`;
    execSync(`createdb -h 127.0.0.1 -U postgres ${name}`);
    try {
      runs.push(await measureQueryToolCsv(root, rows, `postgres://postgres@127.0.0.1:5432/${name}`));
    } finally {
      execSync(`dropdb -h 127.0.0.1 -U postgres --if-exists --force ${name}`);
    }
  }
  write('query-tool', {
    bar: 'a query-tool CSV of 1,000,000 rows streams at >= 50,000 rows/s with flat memory (P5: peak server memory for 1M rows at most 1.2x that for 100k rows, both on the warmed server; flat: the last third of the download within 10% of the first third)',
    runs,
    pass: runs.every(
      (r) =>
        r.rows >= 1_000_000 && r.rowsPerSecond >= 50_000 && r.memory.peakRatioPass && r.memory.flatnessPass,
    ),
  });
}
if (args.only === undefined || args.only === 'reports' || args.only === 'p15') {
  const r = await measureReports(Number(args['report-contacts']));
  write('reports', {
    bar: 'P15: a grouped report over 1,000,000 contacts (count by status and state) p95 <= 500 ms on PostgreSQL, through POST /api/reportExecution/run/{ReportId}',
    ...r,
  });
}
const billingParts: Record<string, readonly string[]> = {
  billing: ['pdfs', 'aging', 'import'],
  'billing-pdfs': ['pdfs'],
  'billing-aging': ['aging'],
  'billing-import': ['import'],
};
if (args.only === undefined || (args.only && billingParts[args.only])) {
  const parts = billingParts[args.only ?? 'billing'] ?? [];
  const r = await measureBilling({
    pdfCount: parts.includes('pdfs') ? Number(args['billing-pdfs']) : 0,
    agingInvoices: parts.includes('aging') ? Number(args['billing-open-invoices']) : 0,
    agingRuns: 50,
    importRows: parts.includes('import') ? Number(args['billing-import-rows']) : 0,
  });
  if (r.pdfs) write('billing-pdfs', r.pdfs);
  if (r.import) write('billing-import', r.import);
  if (r.aging) write('billing-aging', r.aging);
}
if (args.only === undefined || args.only === 'events') {
  const r = await measureEvents({
    registrations: Number(args['event-registrations']),
    seats: Number(args['event-seats']),
    events: Number(args['event-count']),
    calendarRuns: 50,
  });
  write('events-registrations', r.registrations);
  write('events-calendar', r.calendarMonth);
}
if (args.only === undefined || args.only === 'memberships') {
  const r = await measureMemberships({
    renewals: Number(args['memberships-renewals']),
    resume: Number(args['memberships-resume']),
    list: Number(args['memberships-list']),
    runs: 50,
  });
  write('memberships-renewals', r.renewals);
  write('memberships-list', r.list);
}
if (args.only === undefined || args.only === 'mail') {
  const r = await measureMail(root, {
    recipients: Number(args['mail-recipients']),
    kills: args['mail-kills'].split(',').filter(Boolean),
  });
  // bench/results/mail-delivery.json (issue 18's bench/results/mail-*.json).
  write('mail-delivery', r);
}
if (args.only !== undefined && args.only !== 'web' && args.only !== 'p7') process.exit(0);

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
  const child = spawn(process.execPath, serverArgs(root), {
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
// Memory at rest: the demo as `npm start` makes it (250 contacts), then with 100,000 contacts seeded into it.
const memoryDemo = await idleMemory(root, dataDir, 3990);
execSync(`node packages/seed/src/cli.ts --tenant demo --contacts ${Number(args['memory-contacts'])}`, {
  cwd: root,
  env: { ...process.env, DATA_DIR: dataDir },
  stdio: 'ignore',
});
const memoryLarge = await idleMemory(root, dataDir, 3990);
rmSync(dataDir, { recursive: true, force: true });
restarts.sort((a, b) => a - b);
const restartMedian = restarts[1] ?? 0;
write('p7-startup', {
  bar: 'P7 first start <= 60 s, restart <= 5 s (embedded PGlite; the web build is measured apart above)',
  firstStartMs: Math.round(first),
  restartMedianMs: Math.round(restartMedian),
  restartsMs: restarts.map(Math.round),
  memoryBar: 'resident memory of an idle server at 100,000 contacts < 400 MiB (embedded PGlite)',
  memory: {
    demo: { contacts: 250, ...memoryDemo },
    large: { contacts: 250 + Number(args['memory-contacts']), ...memoryLarge },
  },
  pass: first <= 60_000 && restartMedian <= 5_000 && memoryLarge.idleMiB < 400,
});
