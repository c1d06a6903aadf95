/**
 * The contacts import under load: a 20,000-row CSV committed through the API (upload, commit, the job), timed
 * from the commit to the job's end, while another signed-in user keeps asking for their session and a list page
 * (one request after the other). Bars (issue 11): 20,000 rows commit in <= 10 s on PostgreSQL; the other
 * requests answer with p95 <= 100 ms on both databases while the import commits.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, openDatabase } from '@guildhall/db';
import { createTenant, createUser } from '@guildhall/db/seed/factories';
import { buildApp } from '@guildhall/server';
import { loadConfig } from '../../packages/server/src/platform/config.ts';
import { RawHttpClient } from './raw-http.ts';

function percentile(samples: number[], q: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return +(s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0).toFixed(1);
}

/** A file of `rows` new contacts, one in twenty of them invalid (so the default import leaves some out). */
function csvOf(rows: number): string {
  const lines = ['First name,Last name,Email,Phone,City,Postal code,Status'];
  for (let i = 1; i <= rows; i++) {
    const email = i % 20 === 0 ? `not-an-email-${i}` : `member.${i}@bench-import.example.org`;
    lines.push(
      `Given${i},Family${i % 997},${email},(415) 555-${String(i % 10000).padStart(4, '0')},City ${i % 50},${10000 + (i % 900)},active`,
    );
  }
  return `${lines.join('\n')}\n`;
}

export interface ImportBench {
  kind: 'postgres' | 'pglite';
  rows: number;
  commitMs: number;
  created: number;
  rejected: number;
  /** The other user's requests while the import committed (from the commit to the job's end). */
  others: { n: number; p50Ms: number; p95Ms: number; maxMs: number };
  /** The same requests just before the import, with nothing else running: what the machine gives them. */
  alone: { n: number; p50Ms: number; p95Ms: number };
}

export async function measureImport(kind: 'postgres' | 'pglite', rows = 20_000): Promise<ImportBench> {
  const dbName = `embedded_bench_import_${process.pid}`;
  if (kind === 'postgres') execFileSync('createdb', ['-h', '127.0.0.1', '-U', 'postgres', dbName]);
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-import-'));
  let database: Database | null = null;
  try {
    database =
      kind === 'postgres'
        ? await openDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:5432/${dbName}`, poolSize: 10 })
        : await openDatabase({ dataDir: join(dataDir, 'db') });
    await database.migrate();
    const tenant = await createTenant(database.db, { name: 'Import Bench', slug: `import-${process.pid}` });
    const users = await Promise.all(
      ['importer', 'reader'].map((name) =>
        createUser(database!.db, {
          tenantId: tenant.id,
          username: `${name}.${process.pid}`,
          password: 'bench-password-2026',
          role: 'admin',
        }),
      ),
    );
    const config = { ...loadConfig({}), dataDir, publicUrl: 'http://bench.local', smtpUrl: undefined };
    const app = await buildApp({ database, config });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const signIn = async (client: RawHttpClient, user: { username: string; password: string }) => {
      const res = await client.send(
        'POST',
        '/api/auth/login',
        { 'content-type': 'application/json' },
        JSON.stringify({ username: user.username, password: user.password }),
      );
      const cookie =
        String((res.headers['set-cookie'] as string[] | undefined)?.[0] ?? '').split(';')[0] ?? '';
      if (!cookie) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
      return cookie;
    };
    const importer = new RawHttpClient(origin);
    const reader = new RawHttpClient(origin);
    const importerCookie = await signIn(importer, users[0] as { username: string; password: string });
    const readerCookie = await signIn(reader, users[1] as { username: string; password: string });

    const form = new FormData();
    form.append('file', new Blob([csvOf(rows)], { type: 'text/csv' }), 'bench.csv');
    const uploaded = await fetch(`${origin}/api/contacts/import/upload`, {
      method: 'POST',
      headers: { cookie: importerCookie, origin },
      body: form,
    });
    if (!uploaded.ok) throw new Error(`upload: ${uploaded.status} ${await uploaded.text()}`);
    const u = (await uploaded.json()) as { ImportId: string; Mapping: Record<string, string> };
    const post = (client: RawHttpClient, cookie: string, path: string, body: unknown) =>
      client.send('POST', path, { cookie, 'content-type': 'application/json', origin }, JSON.stringify(body));

    // The reader's requests, one after the other: first alone (the figure to compare with), then until the import
    // has ended.
    const read = async (latencies: number[], going: () => boolean) => {
      let i = 0;
      while (going()) {
        const t = performance.now();
        const res =
          i++ % 2 === 0
            ? await reader.send('GET', '/api/auth/me', { cookie: readerCookie })
            : await post(reader, readerCookie, '/api/contacts/contacts/contactData?$top=50', {});
        if (res.status !== 200) throw new Error(`reader: ${res.status} ${res.text}`);
        latencies.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    const alone: number[] = [];
    await read(alone, () => alone.length < 60);
    let importing = true;
    const latencies: number[] = [];
    const reading = read(latencies, () => importing);
    const started = performance.now();
    const commit = await post(importer, importerCookie, '/api/contacts/import/commit', {
      ImportId: u.ImportId,
      Mapping: u.Mapping,
    });
    if (commit.status !== 202) throw new Error(`commit: ${commit.status} ${commit.text}`);
    let status: { Status: string; Created: number; Rejected: number; Error: string | null };
    for (;;) {
      const res = await importer.send('GET', `/api/contacts/import/${u.ImportId}`, {
        cookie: importerCookie,
      });
      status = JSON.parse(res.text);
      if (status.Status === 'done' || status.Status === 'failed') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const commitMs = Math.round(performance.now() - started);
    importing = false;
    await reading;
    if (status.Status !== 'done') throw new Error(`the import failed: ${status.Error}`);
    importer.close();
    reader.close();
    await app.close();
    return {
      kind,
      rows,
      commitMs,
      created: status.Created,
      rejected: status.Rejected,
      others: {
        n: latencies.length,
        p50Ms: percentile(latencies, 0.5),
        p95Ms: percentile(latencies, 0.95),
        maxMs: percentile(latencies, 1),
      },
      alone: { n: alone.length, p50Ms: percentile(alone, 0.5), p95Ms: percentile(alone, 0.95) },
    };
  } finally {
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (kind === 'postgres') execFileSync('dropdb', ['-h', '127.0.0.1', '-U', 'postgres', '--force', dbName]);
  }
}
