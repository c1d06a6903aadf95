/**
 * Sign-up: from the setup wizard's form to a usable association, on real PostgreSQL. Each of `count` sign-ups (each
 * with a link of its own, stored as BeginSignup stores it) is timed from sending CompleteSignup to the
 * administrator's identity answered and the back-office home page served with the session the answer set
 * (`POST /api/Signup/CompleteSignup`, `GET /api/auth/me`, `GET /a`), over HTTP to a running app. Then 50 parallel
 * CompleteSignup calls of distinct associations (all must succeed) and 10 parallel calls with one link (exactly one
 * association). The database is created as `signup_bench_<pid>` and dropped at the end.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, openDatabase, rowsOf, signupRequests } from '@guildhall/db';
import { buildApp } from '@guildhall/server';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../packages/server/src/platform/config.ts';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return +(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0).toFixed(1);
};

/** A distinct client address per sign-up (the same one for the same label). */
function addressOf(label: string): string {
  let n = 0;
  for (const c of label) n = (n * 31 + c.charCodeAt(0)) % 65_536;
  return `10.${n >> 8}.${n & 255}.1`;
}

async function link(database: Database, email: string): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await database.db.insert(signupRequests).values({
    tokenHash: createHash('sha256').update(token).digest('hex'),
    email,
    firstName: 'Bench',
    lastName: 'Founder',
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  return token;
}

export async function measureSignup(count = 20) {
  const dbName = `signup_bench_${process.pid}`;
  execFileSync('createdb', ['-h', '127.0.0.1', '-U', 'postgres', dbName]);
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-signup-'));
  let database: Database | null = null;
  try {
    database = await openDatabase({
      databaseUrl: `postgres://postgres@127.0.0.1:5432/${dbName}`,
      poolSize: 10,
    });
    await database.migrate();
    // Trusting the loopback proxy lets each sign-up come from an address of its own, as real founders do (rate limits are per address).
    const config = {
      ...loadConfig({}),
      dataDir,
      publicUrl: 'http://bench.local',
      smtpUrl: undefined,
      trustProxy: ['127.0.0.1'],
    };
    const app = await buildApp({ database, config });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const complete = (token: string, i: string) =>
      fetch(`${origin}/api/Signup/CompleteSignup`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-forwarded-for': addressOf(i),
        },
        body: JSON.stringify({
          Token: token,
          AssociationName: `Bench Association ${i}`,
          Name: 'Bench Founder',
          Email: `founder.${i}@example.org`,
          NewUsername: `bench.${process.pid}.${i}`,
          NewPassword: 'a long quiet passphrase',
          browserTimeZone: 'Europe/Paris',
        }),
      });
    try {
      const times: number[] = [];
      for (let i = 0; i < count; i += 1) {
        const token = await link(database, `founder.s${i}@example.org`);
        const started = performance.now();
        const res = await complete(token, `s${i}`);
        if (!res.ok) throw new Error(`CompleteSignup answered ${res.status} ${await res.text()}`);
        const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
        const me = await fetch(`${origin}/api/auth/me`, { headers: { cookie } });
        if (!me.ok) throw new Error(`identity answered ${me.status}`);
        await me.json();
        const home = await fetch(`${origin}/a`, { headers: { cookie } });
        await home.text();
        times.push(performance.now() - started);
      }
      const tokens = await Promise.all(
        Array.from({ length: 50 }, (_, i) => link(database!, `founder.p${i}@example.org`)),
      );
      const parallelStarted = performance.now();
      const parallel = await Promise.all(tokens.map((t, i) => complete(t, `p${i}`)));
      const parallelMs = performance.now() - parallelStarted;
      const parallelOk = parallel.filter((r) => r.ok).length;
      const one = await link(database, 'founder.same@example.org');
      const same = await Promise.all(Array.from({ length: 10 }, () => complete(one, 'same')));
      const made = rowsOf<{ n: number }>(
        await database.db.execute(
          sql`select count(*)::int as n from signup_requests where email = 'founder.same@example.org' and provisioned_tenant_id is not null`,
        ),
      )[0]?.n;
      return {
        signups: count,
        p50Ms: pct(times, 50),
        p95Ms: pct(times, 95),
        maxMs: pct(times, 100),
        parallel: { calls: 50, succeeded: parallelOk, totalMs: +parallelMs.toFixed(0) },
        sameLink: { calls: 10, succeeded: same.filter((r) => r.ok).length, associationsMade: made },
      };
    } finally {
      await app.close();
    }
  } finally {
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
    execFileSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--if-exists', dbName]);
  }
}
