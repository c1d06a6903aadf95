/**
 * Mail bar (P13, issue 18), on real PostgreSQL (database `mail_bench_<pid>`, dropped at the end): the server runs
 * as `npm start` runs it (a child process, SMTP_URL pointing at a sink this bench starts with smtp-server, which
 * counts the copies each recipient receives and checks each one's merged first name).
 *   1. A mailing to `recipients` contacts (10,000) with a per-recipient merge field: messages a second from the send
 *      to the last message received, and the server's resident memory before the send and sampled during it (flat:
 *      the last third of the samples not above the first third's by more than 10%).
 *   2. For each kill signal (SIGTERM: the server shuts down as a service manager stops it; SIGKILL: it dies at once),
 *      another mailing to the same people, the server killed once the sink has about half of it, then started
 *      again: every recipient counted once, none twice, none skipped. After SIGKILL the messages that were with
 *      the mail server when it died are `unknown` (never sent again); the sink says whether each arrived.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, openDatabase, rowsOf, withTenantTx } from '@guildhall/db';
import { createTenant, createUser } from '@guildhall/db/seed/factories';
import { mergeChipHtml, mergeFieldByName } from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { serverArgs } from './server-process.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The sink: copies per mailing and recipient, when the first and last arrived, and merge checks. */
function startSink() {
  const copies = new Map<string, Map<string, number>>();
  const times = new Map<string, { first: number; last: number }>();
  let wrongMerge = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const data = Buffer.concat(chunks)
          .toString('utf8')
          .replace(/=\r?\n/g, '');
        const mailing = /^X-Guildhall-Mailing: (\d+)/im.exec(data)?.[1] ?? '?';
        const perMailing = copies.get(mailing) ?? new Map<string, number>();
        copies.set(mailing, perMailing);
        for (const r of session.envelope.rcptTo) {
          const to = r.address.toLowerCase();
          perMailing.set(to, (perMailing.get(to) ?? 0) + 1);
          // r123.tag@bench.test was mailed as "Hello M123,".
          const n = /^r(\d+)\./.exec(to)?.[1];
          if (n && !data.includes(`Hello M${n},`)) wrongMerge++;
        }
        const now = performance.now();
        const t = times.get(mailing);
        if (t) t.last = now;
        else times.set(mailing, { first: now, last: now });
        callback();
      });
    },
  });
  return {
    listen: () =>
      new Promise<number>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve((server.server.address() as { port: number }).port)),
      ),
    received: (mailing: number) => {
      let n = 0;
      for (const c of copies.get(String(mailing))?.values() ?? []) n += c;
      return n;
    },
    copiesOf: (mailing: number) => copies.get(String(mailing)) ?? new Map<string, number>(),
    timesOf: (mailing: number) => times.get(String(mailing)),
    wrongMerge: () => wrongMerge,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? +(Number(m[1]) / 1024).toFixed(1) : 0;
  } catch {
    return 0;
  }
}

const medianOf = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/**
 * The server's resident memory sampled every 500 ms while the messages go out: flat when the median of the last
 * third of the samples is within 10% of the first third's (memory that grows with the messages sent is not flat;
 * one collection's swing is not growth).
 */
export function memoryDuring(samples: readonly number[]) {
  const third = Math.max(1, Math.floor(samples.length / 3));
  const firstThird = medianOf(samples.slice(0, third));
  const lastThird = medianOf(samples.slice(-third));
  return {
    samples: samples.length,
    min: samples.length ? Math.min(...samples) : 0,
    median: medianOf(samples),
    peak: samples.length ? Math.max(...samples) : 0,
    atEnd: samples[samples.length - 1] ?? 0,
    firstThirdMedian: firstThird,
    lastThirdMedian: lastThird,
    growthMiB: +(lastThird - firstThird).toFixed(1),
    flat: samples.length >= 3 && lastThird <= firstThird * 1.1,
  };
}

/** CPU seconds the process has used (user + system), from /proc. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

export async function measureMail(root: string, options: { recipients: number; kills: string[] }) {
  const dbName = `mail_bench_${process.pid}`;
  const url = `postgres://postgres@127.0.0.1:5432/${dbName}`;
  execFileSync('createdb', ['-h', '127.0.0.1', '-U', 'postgres', dbName]);
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-mail-'));
  const sink = startSink();
  const smtpPort = await sink.listen();
  const port = 3900 + (process.pid % 90);
  const origin = `http://127.0.0.1:${port}`;
  let database: Database | null = null;
  let child: ChildProcess | null = null;

  const start = async () => {
    const started = performance.now();
    const c = spawn(process.execPath, serverArgs(root), {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: url,
        DATA_DIR: dataDir,
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        MAIL_FROM: 'Bench <news@bench.test>',
        PUBLIC_URL: 'http://bench.test',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    for (;;) {
      if (c.exitCode !== null) throw new Error(`the server exited with ${c.exitCode}`);
      if (performance.now() - started > 180_000) throw new Error('the server did not start within 180 s');
      try {
        await fetch(`${origin}/api/auth/me`);
        return c;
      } catch {
        await sleep(200);
      }
    }
  };
  const stop = async (c: ChildProcess, signal: NodeJS.Signals) => {
    if (c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill(signal);
    await exited;
  };

  try {
    database = await openDatabase({ databaseUrl: url, poolSize: 4 });
    await database.migrate();
    const tenant = await createTenant(database.db, { name: 'Bench mail' });
    const username = 'bench.mail';
    const password = 'bench-mail-pass-2026';
    await createUser(database.db, { tenantId: tenant.id, username, password, role: 'admin' });
    const tag = process.pid.toString(36);
    await withTenantTx(database.db, { tenantId: tenant.id }, (tx) =>
      tx.execute(sql`insert into contacts (tenant_id, contact_type, first_name, last_name, display_name, email, status)
        select ${tenant.id}, 'individual', 'M' || g, 'Reader', 'Reader, M' || g, 'r' || g || '.' || ${tag} || '@bench.test', 'active'
        from generate_series(1, ${options.recipients}) g`),
    );
    await database.ownerDb.execute(sql`analyze contacts`);

    child = await start();
    let cookie = '';
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${origin}${path}`, {
        method,
        headers: { cookie, origin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${path}: ${res.status} ${text}`);
      return { json: JSON.parse(text) as Record<string, unknown>, res };
    };
    const login = await call('POST', '/api/auth/login', { username, password });
    cookie = (login.res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const field = mergeFieldByName('Contact.FirstName');
    if (!field) throw new Error('no Contact.FirstName merge field');
    const chip = mergeChipHtml(field, { Default: 'Friend' });
    const mailing = async (name: string) => {
      const made = await call('POST', '/api/communication/mailings', {
        Name: name,
        Subject: name,
        BodyHtml: `<h2>${name}</h2><p>Hello ${chip},</p><p>Our spring programme is out: talks, visits and the annual dinner. Read it on the website and register for what you like.</p><p>With best wishes,<br>The committee</p>`,
        Audience: { Kind: 'filter', FilterId: 0 },
      });
      return Number(made.json.MailingId);
    };
    const statusCounts = async (mailingId: number) =>
      Object.fromEntries(
        rowsOf<{ status: string; n: number }>(
          await withTenantTx(database!.db, { tenantId: tenant.id }, (tx) =>
            tx.execute(sql`select status, count(*)::int as n from mailing_recipients
              where tenant_id = ${tenant.id} and mailing_id = ${mailingId} group by status`),
          ),
        ).map((r) => [r.status, Number(r.n)]),
      ) as Record<string, number>;
    const waitSent = async (mailingId: number, timeoutMs: number) => {
      const until = performance.now() + timeoutMs;
      for (;;) {
        const m = await call('GET', `/api/communication/mailings/${mailingId}`);
        if (m.json.Status === 'sent') return;
        if (performance.now() > until)
          throw new Error(`mailing ${mailingId} not sent within ${timeoutMs} ms`);
        await sleep(500);
      }
    };
    const tally = (mailingId: number) => {
      const copies = sink.copiesOf(mailingId);
      let twice = 0;
      for (const c of copies.values()) if (c > 1) twice++;
      return { recipientsReached: copies.size, copies: sink.received(mailingId), receivedTwice: twice };
    };

    // 1. Throughput and memory.
    const first = await mailing('Spring programme');
    // Before the send (what seeding and the mailing's creation left) and during it, apart: "flat" is judged on the
    // samples taken while the messages go out.
    const beforeSend = rssMiB(child.pid ?? 0);
    const memory: number[] = [];
    const cpuBefore = cpuSeconds(child.pid ?? 0);
    const sinkCpuBefore = process.cpuUsage();
    const sendAt = performance.now();
    await call('POST', `/api/communication/mailings/${first}/send`, {});
    const sampler = setInterval(() => memory.push(rssMiB(child?.pid ?? 0)), 500);
    try {
      while (sink.received(first) < options.recipients) {
        if (performance.now() - sendAt > 600_000) throw new Error('the mailing took over 10 minutes');
        await sleep(100);
      }
      await waitSent(first, 60_000);
    } finally {
      clearInterval(sampler);
    }
    const serverCpu = cpuSeconds(child.pid ?? 0) - cpuBefore;
    const sinkCpu = process.cpuUsage(sinkCpuBefore);
    const times = sink.timesOf(first);
    const lastAt = times?.last ?? performance.now();
    const throughput = {
      recipients: options.recipients,
      ...tally(first),
      wrongMerge: sink.wrongMerge(),
      statuses: await statusCounts(first),
      sendToLastMs: Math.round(lastAt - sendAt),
      messagesPerSecond: +(options.recipients / ((lastAt - sendAt) / 1000)).toFixed(1),
      firstToLastMessagesPerSecond: times
        ? +(options.recipients / ((times.last - times.first) / 1000)).toFixed(1)
        : 0,
      // What the send cost the server in CPU, whatever else the machine runs: messages a second one core could do.
      serverCpuSeconds: +serverCpu.toFixed(2),
      serverCpuMsPerMessage: +((serverCpu * 1000) / options.recipients).toFixed(2),
      benchAndSinkCpuSeconds: +((sinkCpu.user + sinkCpu.system) / 1e6).toFixed(2),
      serverRssMiB: { beforeSend, duringSend: memoryDuring(memory) },
    };
    console.error(`mail: ${JSON.stringify(throughput)}`);

    // 2. Killed halfway and restarted.
    const killed: Record<string, unknown>[] = [];
    for (const signal of options.kills as NodeJS.Signals[]) {
      const id = await mailing(`Killed by ${signal}`);
      const sentAt = performance.now();
      await call('POST', `/api/communication/mailings/${id}/send`, {});
      while (sink.received(id) < options.recipients / 2) {
        if (performance.now() - sentAt > 600_000) throw new Error('the mailing took over 10 minutes');
        await sleep(20);
      }
      await stop(child, signal);
      const receivedAtKill = sink.received(id);
      const atKill = await statusCounts(id);
      const restartAt = performance.now();
      child = await start();
      // After SIGKILL the job is still marked running: it is taken again when its lease ends (JOB_LEASE_MS).
      await waitSent(id, 600_000);
      const after = await statusCounts(id);
      const reached = tally(id);
      const unknownReceived = rowsOf<{ email: string }>(
        await withTenantTx(database.db, { tenantId: tenant.id }, (tx) =>
          tx.execute(sql`select email from mailing_recipients
            where tenant_id = ${tenant.id} and mailing_id = ${id} and status = 'unknown'`),
        ),
      ).filter((r) => (sink.copiesOf(id).get(r.email) ?? 0) > 0).length;
      const run = {
        signal,
        receivedAtKill,
        statusesAtKill: atKill,
        restartToDoneMs: Math.round(performance.now() - restartAt),
        statusesAfter: after,
        ...reached,
        skipped: options.recipients - reached.recipientsReached,
        unknownThatArrived: unknownReceived,
        exactlyOnce: reached.recipientsReached === options.recipients && reached.receivedTwice === 0,
      };
      console.error(`mail killed: ${JSON.stringify(run)}`);
      killed.push(run);
    }
    return {
      bar: "P13: 10,000 merged messages delivered to a local SMTP server at >= 200 messages/s with the server's memory flat; killed halfway and restarted, no recipient gets two copies and none is skipped",
      database: 'postgres',
      throughput,
      killedAndRestarted: killed,
      pass:
        throughput.recipients >= 10_000 &&
        throughput.messagesPerSecond >= 200 &&
        throughput.serverRssMiB.duringSend.flat &&
        throughput.receivedTwice === 0 &&
        throughput.wrongMerge === 0 &&
        killed.every((k) => k.receivedTwice === 0) &&
        killed.filter((k) => k.signal === 'SIGTERM').every((k) => k.exactlyOnce === true),
    };
  } finally {
    if (child) await stop(child, 'SIGTERM').catch(() => undefined);
    await sink.close().catch(() => undefined);
    await database?.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    try {
      execFileSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--if-exists', '--force', dbName]);
    } catch {
      // left for the next run's clean-up
    }
  }
}
