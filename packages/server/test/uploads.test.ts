/**
 * R7 for the one upload of the product, the contacts CSV import (`POST /api/contacts/import/upload`), with hostile
 * files made here: the size limit holds while the body streams (413 before the rest is read, on a real socket),
 * the type is decided from the bytes, client file names never reach a path, and concurrent oversize or garbage
 * uploads leave the server up with its memory bounded. There is no image upload yet, so no image-bomb case.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join, relative } from 'node:path';
import { rowsOf, withTenantTx } from '@guildhall/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMPORT_MAX_BYTES } from '../src/platform/csv-import.ts';
import {
  FILE_PART_TAIL,
  filePartHead,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
  UPLOAD_BOUNDARY,
  UPLOAD_CONTENT_TYPE,
  uploadFile,
} from './helpers.ts';

const URL_UPLOAD = '/api/contacts/import/upload';
const CSV = 'Name,Email\nAda Lovelace,ada@example.org\nAlan Turing,alan@example.org\n';

let ctx: TestContext;
let t: TenantWithUsers;
let cookie: string;
let dataDir: string;
let port: number;
/** The server's side of each connection, by the client's port. */
const serverSockets = new Map<number, Socket>();

function upload(bytes: Buffer | string, fileName = 'contacts.csv', type = 'text/csv') {
  return uploadFile(ctx.app, cookie, URL_UPLOAD, bytes, fileName, type);
}

interface Streamed {
  status: number;
  body: string;
  connection: string | undefined;
  /** Bytes of the body the client had written when the answer came. */
  sentAtAnswer: number;
  /**
   * Bytes the server had read from the request's connection when the answer came (its headers included). Unlike
   * `sentAtAnswer` it does not count what the loopback's socket buffers held (up to tens of MiB here).
   */
  readByServerAtAnswer: number;
  /** For a body that never ends: when the server cut the connection, after its answer. */
  closedAfterMs?: number;
}

/**
 * A raw request on a real socket that streams a file part of `chunk`s (every `everyMs`, or as fast as the socket
 * takes them with 0) and never ends it unless `totalBytes` is given; resolves with the answer.
 */
function streamUpload(options: {
  chunk: Buffer;
  first?: Buffer;
  everyMs: number;
  totalBytes?: number;
  contentLength?: number;
}): Promise<Streamed> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered: Streamed | null = null;
    let stopped = false;
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: URL_UPLOAD,
      headers: {
        cookie,
        'content-type': UPLOAD_CONTENT_TYPE,
        ...(options.contentLength ? { 'content-length': String(options.contentLength) } : {}),
      },
    });
    // What the server had read from this connection before this request (a kept-alive one may be reused).
    const readByServer = () => (req.socket && serverSockets.get(req.socket.localPort ?? 0)?.bytesRead) ?? 0;
    let readBefore = 0;
    req.on('socket', (socket) => {
      if (!socket.connecting) readBefore = readByServer();
    });
    const guard = setTimeout(() => {
      stopped = true;
      req.destroy();
      reject(new Error(`no answer after ${sent} bytes`));
    }, 30_000);
    const write = () => {
      if (stopped) return;
      if (options.totalBytes !== undefined && sent >= options.totalBytes) {
        req.end(FILE_PART_TAIL);
        return;
      }
      const chunk = sent === 0 && options.first ? options.first : options.chunk;
      sent += chunk.length;
      const more = req.write(chunk);
      // Paced or not, the client waits while the socket takes no more, as a real client's upload does.
      if (!more)
        req.once('drain', () => (options.everyMs > 0 ? setTimeout(write, options.everyMs) : write()));
      else if (options.everyMs > 0) setTimeout(write, options.everyMs);
      else setImmediate(write);
    };
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      answered = {
        status: res.statusCode ?? 0,
        body: '',
        connection: res.headers.connection,
        sentAtAnswer: sent,
        readByServerAtAnswer: readByServer() - readBefore,
      };
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const done = { ...(answered as Streamed), body: Buffer.concat(chunks).toString('utf8') };
        if (options.totalBytes !== undefined) {
          stopped = true;
          clearTimeout(guard);
          req.destroy();
          resolve(done);
          return;
        }
        // A body that never ends: keep sending and wait for the server to cut the connection.
        const answeredAt = Date.now();
        req.socket?.once('close', () => {
          stopped = true;
          clearTimeout(guard);
          resolve({ ...done, closedAfterMs: Date.now() - answeredAt });
        });
      });
    });
    req.on('error', (err) => {
      // The server cutting the socket of a refused upload is expected once it has answered.
      if (answered) return;
      stopped = true;
      clearTimeout(guard);
      reject(err);
    });
    req.write(filePartHead('contacts.csv'));
    write();
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dataDir, join(e.parentPath, e.name)));
}

/** This test's association's files (on PostgreSQL the storage is shared with the other test files' apps). */
function ownFiles(): string[] {
  return filesUnder(dataDir).filter((f) => f.includes(t.tenant.id));
}

/**
 * A key the server made: an import's upload or an export, either whole or being written (`.partial`), a library
 * file or image of an association (`files/t/<tenant>/<kind>/<random>`), or an upload being checked in the spool.
 */
const SERVER_KEY =
  /^(?:files\/(?:(?:imports\/[0-9a-f-]{36}\/[0-9a-f-]{36}|[0-9a-f-]{36}\/exports\/[0-9a-f-]{36})\.csv|t\/[0-9a-f-]{36}\/[a-z-]+\/[0-9a-f-]{36}(?:\.[a-z0-9]{1,5})?)(?:\.[0-9a-f]{12}\.partial)?|spool\/upload-[0-9a-f]{24})$/;

beforeAll(async () => {
  ctx = await testApp();
  dataDir = ctx.config.dataDir;
  t = await seedTenant(ctx.database);
  cookie = (await signIn(ctx.app, t.staff)).cookie;
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  port = (ctx.app.server.address() as AddressInfo).port;
  ctx.app.server.on('connection', (socket: Socket) => {
    // Kept after it closes: the server may cut a refused upload's connection before the client reads the answer.
    serverSockets.set(socket.remotePort ?? 0, socket);
  });
});
afterAll(() => ctx.close());

describe('R7: the size limit holds while the upload streams', () => {
  it('answers 413 to a body that never ends, then cuts the connection instead of reading on', async () => {
    const res = await streamUpload({ chunk: Buffer.alloc(64 * 1024, 'a'), everyMs: 1 });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).message).toMatch(/larger than 5 MB/);
    // The client is told the connection ends here, so it never sends its next request on it.
    expect(res.connection).toBe('close');
    // The server cuts it (after a short linger so the client reads the answer); the guard would fail at 30 s.
    expect(res.closedAfterMs).toEqual(expect.any(Number));
    // Answered soon after the limit: the server did not wait for (or buffer) a whole body, which never came. What
    // it read is counted on its side: what the client sent also fills the socket buffers, by the machine's load.
    expect(res.sentAtAnswer).toBeGreaterThan(IMPORT_MAX_BYTES);
    expect(res.readByServerAtAnswer).toBeGreaterThan(IMPORT_MAX_BYTES);
    expect(res.readByServerAtAnswer).toBeLessThan(IMPORT_MAX_BYTES + 2 * 1024 * 1024);
  });

  it('answers 413 to a declared 1 GiB body sent slowly, long before it could be complete', async () => {
    const res = await streamUpload({
      chunk: Buffer.alloc(256 * 1024, 'b'),
      everyMs: 5,
      contentLength: 1024 * 1024 * 1024,
    });
    expect(res.status).toBe(413);
    expect(res.closedAfterMs).toEqual(expect.any(Number));
    expect(res.readByServerAtAnswer).toBeLessThan(IMPORT_MAX_BYTES + 2 * 1024 * 1024);
  });

  it('leaves nothing in storage for a refused upload (no partial file)', async () => {
    expect(ownFiles()).toEqual([]);
  });
});

describe('R7: the type is decided from the bytes, not the name', () => {
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    randomBytes(2000),
  ]);
  const zip = Buffer.concat([
    Buffer.from('PK\u0003\u0004\u0014\u0000\u0006\u0000', 'latin1'),
    randomBytes(500),
  ]);
  const cases: [string, Buffer, RegExp][] = [
    ['a PNG image', png, /looks like a PNG image/],
    ['a ZIP archive (xlsx)', zip, /looks like a ZIP archive/],
    ['an old Excel workbook', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]), /Excel/],
    ['a PDF', Buffer.from('%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n', 'latin1'), /PDF document/],
    ['text with NUL bytes', Buffer.from('Name,Email\nAda\u0000,x@example.org\n'), /binary data/],
    ['text with control bytes', Buffer.from('Name,Email\nAda\u0007,x@example.org\n'), /binary data/],
    ['Latin-1 text (not UTF-8)', Buffer.from('Name,City\nM\u00fcller,K\u00f6ln\n', 'latin1'), /not UTF-8/],
    ['UTF-16 text', Buffer.from(`\ufeff${CSV}`, 'utf16le'), /UTF-16|binary|UTF-8/],
    ['a UTF-8 sequence cut at the end', Buffer.concat([Buffer.from(CSV), Buffer.from([0xc3])]), /not UTF-8/],
    ['random bytes', randomBytes(4096), /not a CSV|not UTF-8/],
  ];
  for (const [what, bytes, message] of cases) {
    it(`refuses ${what} named contacts.csv with a 400 and a message`, async () => {
      const res = await upload(bytes, 'contacts.csv', 'text/csv');
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(message);
      expect(res.json().message).toMatch(/CSV UTF-8/);
    });
  }

  it('accepts a real CSV named x.png, declared image/png, or with no extension', async () => {
    for (const [name, type] of [
      ['x.png', 'image/png'],
      ['contacts', 'application/octet-stream'],
      ['export.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ] as const) {
      const res = await upload(CSV, name, type);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
      expect(res.json()).toMatchObject({ FileName: name, Columns: ['Name', 'Email'], Rows: 2 });
    }
  });

  it('accepts UTF-8 with a byte-order mark and characters split across network chunks', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => `Zoë Ångström ${i},zoe${i}@exämple.org`);
    const bytes = Buffer.from(`\ufeffName,Email\n${rows.join('\n')}\n`);
    expect(bytes.length).toBeGreaterThan(64 * 1024);
    const res = await upload(bytes);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ Columns: ['Name', 'Email'], Rows: 20_000 });
    expect(res.json().Sample[0].Name).toBe('Zoë Ångström 0');
  });
});

describe('R7: client file names are labels, never paths', () => {
  it('stores ../../etc/passwd, ..\\..\\x.csv, a NUL and a 5,000-character name only as labels', async () => {
    const names = [
      '../../etc/passwd',
      '..\\..\\x.csv',
      '/etc/cron.d/evil.csv',
      'a\u0000b.csv',
      'ok\r\nX-Injected: 1.csv',
      `${'n'.repeat(5000)}.csv`,
      '',
      '..',
    ];
    const ids: string[] = [];
    for (const name of names) {
      const res = await upload(CSV, name);
      expect(res.statusCode, `${JSON.stringify(name.slice(0, 40))}: ${res.body}`).toBeLessThan(500);
      if (res.statusCode !== 200) {
        expect(res.json().message).toEqual(expect.any(String));
        continue;
      }
      const label = res.json().FileName as string;
      ids.push(res.json().ImportId);
      expect(label.length).toBeLessThanOrEqual(200);
      expect(label).not.toMatch(/[/\\]/);
      expect([...label].some((c) => c.charCodeAt(0) < 0x20)).toBe(false);
    }
    expect(ids.length).toBeGreaterThanOrEqual(6);
    const r = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(sql`select id, file_name, storage_key from stored_files where storage_key like 'imports/%'`),
    );
    const stored = rowsOf<{ id: string; file_name: string; storage_key: string }>(r);
    for (const id of ids) {
      const row = stored.find((s) => s.id === id);
      expect(row?.storage_key).toBe(`imports/${t.tenant.id}/${id}.csv`);
    }
    expect(stored.map((s) => s.file_name)).toEqual(expect.arrayContaining(['passwd', 'x.csv', 'ab.csv']));
    // Only server-made keys exist under the data folder; nothing named by a client, nothing outside storage.
    for (const f of ownFiles()) expect(f).toMatch(/^files\/imports\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.csv$/);
    for (const f of filesUnder(dataDir)) expect(f).toMatch(SERVER_KEY);
    expect(readdirSync(join(dataDir, '..')).filter((f) => ['etc', 'passwd', 'x.csv'].includes(f))).toEqual(
      [],
    );
  });
});

describe('R7: concurrent hostile uploads leave the server up with its memory bounded', () => {
  it('10 oversize and 10 binary uploads at once: all refused, rss grows by less than 100 MiB', async () => {
    const mib = 1024 * 1024;
    const burst = () => {
      const oversize = Array.from({ length: 10 }, () =>
        streamUpload({ chunk: Buffer.alloc(256 * 1024, 'c'), everyMs: 0, totalBytes: 12 * mib }),
      );
      const garbage = Array.from({ length: 10 }, () =>
        streamUpload({
          first: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
          chunk: randomBytes(256 * 1024),
          everyMs: 0,
          totalBytes: 4 * mib,
        }),
      );
      return Promise.all([...oversize, ...garbage]);
    };
    // A first burst loads what a refusal loads (modules, buffers), and the process's memory is let settle (code
    // compiled in the background after a start shows in rss too): the bar is what a burst adds to a running server.
    await burst();
    let settled = process.memoryUsage().rss;
    for (let i = 0; i < 40; i++) {
      await new Promise((r) => setTimeout(r, 250));
      const now = process.memoryUsage().rss;
      if (Math.abs(now - settled) < 4 * mib) break;
      settled = now;
    }
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    const answers = await burst();
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(answers.slice(0, 10).map((a) => a.status)).toEqual(Array(10).fill(413));
    expect(answers.slice(10).map((a) => a.status)).toEqual(Array(10).fill(400));
    const growth = (peak - before) / mib;
    console.log(
      `R7 concurrent uploads: rss ${Math.round(before / mib)} MiB before, peak growth ${growth.toFixed(1)} MiB`,
    );
    expect(growth).toBeLessThan(100);
    // Still up: a normal upload right after is answered.
    const ok = await upload(CSV);
    expect(ok.statusCode, ok.body).toBe(200);
    const status = await ctx.app.inject({
      method: 'GET',
      url: `/api/contacts/import/${ok.json().ImportId}`,
      headers: { cookie },
    });
    expect(status.json()).toMatchObject({ Status: 'uploaded' });
  });
});

describe("a multipart body refused, in each upload route's words", () => {
  const field = (name: string) =>
    `--${UPLOAD_BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\nx\r\n`;
  const send = (url: string, payload: Buffer | string, contentType = UPLOAD_CONTENT_TYPE) =>
    ctx.app.inject({ method: 'POST', url, headers: { cookie, 'content-type': contentType }, payload });
  const routes = [
    {
      url: URL_UPLOAD,
      onlyTheFile: 'Send only the CSV file, in the form field "file".',
      malformed: 'The upload is not a valid multipart/form-data body with one CSV file.',
    },
    {
      url: '/api/files/upload',
      onlyTheFile: 'Send one file, in the form field "file".',
      malformed: 'The upload is not a valid multipart/form-data body with one file.',
    },
  ];

  for (const route of routes) {
    it(`${route.url}: more parts than it takes, a body with no boundary`, async () => {
      const many = Buffer.concat([
        Buffer.from([1, 2, 3, 4, 5, 6].map((i) => field(`f${i}`)).join('')),
        filePartHead('c.csv'),
        Buffer.from(CSV),
        FILE_PART_TAIL,
      ]);
      const crowded = await send(route.url, many);
      expect(crowded.statusCode, crowded.body).toBe(400);
      expect(crowded.json().message).toBe(route.onlyTheFile);

      const unbounded = await send(route.url, 'not multipart at all', 'multipart/form-data');
      expect(unbounded.statusCode, unbounded.body).toBeGreaterThanOrEqual(400);
      expect(unbounded.statusCode, unbounded.body).toBeLessThan(500);
      expect(unbounded.json().message).toBe(route.malformed);
    });
  }
});
