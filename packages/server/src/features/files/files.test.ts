/**
 * The file library and images through the API, on both storage backends: the data folder and S3-compatible object
 * storage (s3rver, started here), and on whichever database the run uses (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL). Hostile files are made here; refused ones leave no row and no stored object.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { contacts, files, images, projects, rowsOf, tasks, withTenantTx } from '@guildhall/db';
import { FILE_ENTRY_TYPES, type FilePage, type Image, UPLOAD_MAX_BYTES } from '@guildhall/shared';
import { eq, sql } from 'drizzle-orm';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
  uploadFile,
} from '../../../test/helpers.ts';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** A PNG whose header claims `width` x `height` pixels, with almost no data behind it (a decompression bomb). */
function pngHeader(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8);
  ihdr.writeUInt8(2, 9);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG photo 400 wide and 200 high as stored, with EXIF orientation 6 (shown rotated: 200 wide, 400 high). */
function rotatedPhoto(): Promise<Buffer> {
  return sharp({ create: { width: 400, height: 200, channels: 3, background: '#336699' } })
    .composite([
      {
        input: { create: { width: 100, height: 200, channels: 3, background: '#ff0000' } },
        left: 0,
        top: 0,
      },
    ])
    .jpeg()
    .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: 'Someone', Artist: 'GPS-bearing camera' } } })
    .toBuffer();
}

interface Backend {
  name: 'local' | 's3';
  setup(): Promise<{ storageUrl?: string; objects: () => string[]; close(): Promise<void> }>;
}

/** Every file under a folder, as paths relative to it. */
function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

const backends: Backend[] = [
  { name: 'local', setup: async () => ({ objects: () => [], close: async () => undefined }) },
  {
    name: 's3',
    async setup() {
      const directory = mkdtempSync(join(tmpdir(), 'gh-s3rver-'));
      const server = new S3rver({
        port: 0,
        address: '127.0.0.1',
        silent: true,
        directory,
        configureBuckets: [{ name: 'guildhall', configs: [] }],
      });
      const { port } = (await server.run()) as { port: number };
      return {
        storageUrl: `s3://S3RVER:S3RVER@guildhall?endpoint=http://127.0.0.1:${port}&region=us-east-1`,
        // s3rver keeps each object as a folder of its content and metadata files.
        objects: () =>
          walk(join(directory, 'guildhall'))
            .filter((p) => p.endsWith('._S3rver_object'))
            .map((p) => p.replace(/\._S3rver_object$/, '')),
        async close() {
          await server.close();
          rmSync(directory, { recursive: true, force: true });
        },
      };
    },
  },
];

describe.each(backends)('files and images on $name storage', (backend) => {
  let ctx: TestContext;
  let store: Awaited<ReturnType<Backend['setup']>>;
  let a: TenantWithUsers;
  let b: TenantWithUsers;
  let cookieA: string;
  let cookieB: string;
  let memberCookie: string;
  let contactId: number;

  /** Keys stored for a tenant, whichever backend. */
  const storedOf = (tenantId: string) =>
    backend.name === 's3'
      ? store.objects().filter((k) => k.startsWith(`t/${tenantId}/`))
      : walk(join(ctx.config.dataDir, 'files', 't', tenantId));

  const rowsOfTenant = async (tenantId: string) =>
    withTenantTx(ctx.database.db, { tenantId }, async (tx) => ({
      files: await tx.select().from(files).where(eq(files.tenantId, tenantId)),
      images: await tx.select().from(images).where(eq(images.tenantId, tenantId)),
    }));

  const upload = (
    cookie: string,
    url: string,
    bytes: Buffer | string,
    name: string,
    type = 'application/octet-stream',
  ) => uploadFile(ctx.app, cookie, url, bytes, name, type);

  beforeAll(async () => {
    store = await backend.setup();
    ctx = await testApp(store.storageUrl ? { storageUrl: store.storageUrl } : {});
    a = await seedTenant(ctx.database);
    b = await seedTenant(ctx.database);
    cookieA = (await signIn(ctx.app, a.admin)).cookie;
    cookieB = (await signIn(ctx.app, b.admin)).cookie;
    memberCookie = (await signIn(ctx.app, a.member)).cookie;
    const [contact] = await withTenantTx(ctx.database.db, { tenantId: a.tenant.id }, (tx) =>
      tx
        .insert(contacts)
        .values({
          tenantId: a.tenant.id,
          firstName: 'Ada',
          lastName: 'Lovelace',
          displayName: 'Lovelace, Ada',
        })
        .returning(),
    );
    contactId = contact!.contactId;
  });

  afterAll(async () => {
    await ctx?.close();
    await store?.close();
  });

  it('uploads a file, lists it in the library, downloads it as an attachment and inline where safe', async () => {
    const res = await upload(cookieA, '/api/files/upload', PDF, 'minutes 2026.pdf', 'application/pdf');
    expect(res.statusCode, res.body).toBe(200);
    const [item] = res.json() as { Name: string; Url: string; ContentType: string; FileId: number }[];
    expect(item).toMatchObject({ Name: 'minutes 2026.pdf', ContentType: 'application/pdf' });
    expect(item!.Url).toBe(`/api/files/download/${item!.FileId}/`);
    expect(storedOf(a.tenant.id)).toHaveLength(1);

    const page = (await client(ctx.app, cookieA).get('/api/files/library')).json() as FilePage;
    expect(page.Records.map((r) => r.Name)).toContain('minutes 2026.pdf');

    const attachment = await ctx.app.inject({
      method: 'POST',
      url: `/api/files/download/${item!.FileId}`,
      headers: { cookie: cookieA },
    });
    expect(attachment.statusCode).toBe(200);
    expect(attachment.rawPayload.equals(PDF)).toBe(true);
    expect(attachment.headers['content-disposition']).toMatch(/^attachment; filename="minutes_2026.pdf"/);
    expect(attachment.headers['file-name']).toBe('minutes_2026.pdf');
    expect(attachment.headers['content-security-policy']).toMatch(/^sandbox/);

    const inline = await client(ctx.app, cookieA).get(`/api/files/download/${item!.FileId}/?open=true`);
    expect(inline.statusCode).toBe(200);
    expect(inline.headers['content-disposition']).toMatch(/^inline/);
    expect(inline.headers['content-type']).toBe('application/pdf');
  });

  it('never serves HTML inline: it downloads, sandboxed', async () => {
    const res = await upload(
      cookieA,
      '/api/files/upload',
      '<html><body><h1>Agenda</h1></body></html>',
      'agenda.html',
      'text/html',
    );
    expect(res.statusCode, res.body).toBe(200);
    const { FileId } = (res.json() as { FileId: number }[])[0]!;
    const opened = await client(ctx.app, cookieA).get(`/api/files/download/${FileId}?open=true`);
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-disposition']).toMatch(/^attachment/);
    expect(opened.headers['content-security-policy']).toMatch(/^sandbox/);
    expect(opened.headers['x-content-type-options']).toBe('nosniff');
  });

  it("refuses hostile files with the spec's messages or a clear 4xx, and stores nothing", async () => {
    const t = await seedTenant(ctx.database);
    const cookie = (await signIn(ctx.app, t.admin)).cookie;
    const cases: [Buffer | string, string, number, string | RegExp, number?][] = [
      [
        Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00'),
        'setup.exe',
        400,
        "You cannot upload files with an 'exe' extension ('setup.exe')",
        -601,
      ],
      // A Windows executable renamed: the bytes decide.
      [
        Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff'), Buffer.alloc(200)]),
        'report.pdf',
        415,
        /The content of 'report.pdf' is not a pdf file/,
      ],
      [
        Buffer.concat([Buffer.from('\x7fELF\x02\x01\x01'), Buffer.alloc(300)]),
        'notes.txt',
        415,
        /not a txt file/,
      ],
      [Buffer.alloc(0), 'empty.pdf', 400, "The file 'empty.pdf' is empty."],
      [PDF, '../../etc/passwd.pdf', 400, /cannot hold a folder path/],
      ['<html><script>alert(1)</script></html>', 'x.html', 400, /holds a script/],
      ['<html><img src=x onerror="alert(1)"></html>', 'y.html', 400, /holds a script/],
      [
        Buffer.concat([PDF, Buffer.alloc(UPLOAD_MAX_BYTES + 1024 * 1024 - PDF.length)]),
        'big.pdf',
        413,
        "File 'big.pdf' is too large",
        -600,
      ],
    ];
    for (const [bytes, name, status, message, code] of cases) {
      const res = await upload(cookie, '/api/files/upload', bytes, name);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(status);
      const body = res.json() as { message: string; Code?: number };
      if (typeof message === 'string') expect(body.message).toBe(message);
      else expect(body.message).toMatch(message);
      if (code) expect(body.Code).toBe(code);
    }
    // An image upload refuses a file the image list does not allow (-601) and a decompression bomb.
    const docx = await upload(cookie, '/api/images/Upload/3/0', PDF, 'minutes.docx');
    expect(docx.statusCode).toBe(400);
    expect(docx.json()).toEqual({
      message: "You cannot upload files with an 'docx' extension ('minutes.docx')",
      Code: -601,
    });
    const bomb = await upload(
      cookie,
      '/api/images/Upload/3/0',
      pngHeader(30_000, 30_000),
      'bomb.png',
      'image/png',
    );
    expect(bomb.statusCode).toBe(400);
    expect(bomb.json().message).toMatch(/too many pixels/);

    const rows = await rowsOfTenant(t.tenant.id);
    expect(rows.files).toHaveLength(0);
    expect(rows.images).toHaveLength(0);
    expect(storedOf(t.tenant.id)).toEqual([]);
    expect(walk(join(ctx.config.dataDir, 'spool'))).toEqual([]);
  });

  it('ten concurrent bombs and renamed executables leave the server up, answering each with a 4xx, storing nothing', async () => {
    const t = await seedTenant(ctx.database);
    const cookie = (await signIn(ctx.app, t.admin)).cookie;
    const exe = Buffer.concat([
      Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff'),
      Buffer.alloc(4 * 1024 * 1024),
    ]);
    const answers = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) =>
        upload(cookie, '/api/images/Upload/3/0', pngHeader(40_000 + i, 40_000), `bomb${i}.png`, 'image/png'),
      ),
      ...Array.from({ length: 10 }, (_, i) => upload(cookie, '/api/files/upload', exe, `report${i}.pdf`)),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([...Array(10).fill(400), ...Array(10).fill(415)]);
    const rows = await rowsOfTenant(t.tenant.id);
    expect(rows.files).toHaveLength(0);
    expect(storedOf(t.tenant.id)).toEqual([]);
    // Still serving.
    expect((await client(ctx.app, cookie).get('/api/files/library')).statusCode).toBe(200);
  });

  it('folders: create, rename, move, browse with a path, page size 100, search by name, delete with contents', async () => {
    const api = client(ctx.app, cookieA);
    const folder = (await api.post('/api/files/folder', { Name: 'Board' })).json() as {
      Id: number;
      Type: number;
    };
    expect(folder.Type).toBe(FILE_ENTRY_TYPES.Folder);
    const sub = (await api.post('/api/files/folder', { Name: 'Minutes', FolderId: folder.Id })).json() as {
      Id: number;
    };
    const up = await upload(
      cookieA,
      `/api/files/upload?folderId=${sub.Id}`,
      'Agenda of the board',
      'agenda board.txt',
    );
    expect(up.statusCode, up.body).toBe(200);
    const fileId = (up.json() as { FileId: number }[])[0]!.FileId;

    const inSub = (await api.get(`/api/files/library?folderId=${sub.Id}`)).json() as FilePage;
    expect(inSub.Records.map((r) => r.Name)).toEqual(['agenda board.txt']);
    expect(inSub.Path.map((p) => p.Name)).toEqual(['Board', 'Minutes']);

    expect((await api.put(`/api/files/entry/${fileId}/name`, { Name: 'board agenda.txt' })).statusCode).toBe(
      200,
    );
    expect((await api.put(`/api/files/entry/${fileId}/folder`, { FolderId: folder.Id })).statusCode).toBe(
      200,
    );
    const inBoard = (await api.get(`/api/files/library?folderId=${folder.Id}`)).json() as FilePage;
    expect(inBoard.Records.map((r) => [r.Type, r.Name])).toEqual([
      [1, 'Minutes'],
      [2, 'board agenda.txt'],
    ]);
    const cycle = await api.put(`/api/files/entry/${folder.Id}/folder`, { FolderId: sub.Id });
    expect(cycle.statusCode).toBe(400);
    expect((await api.put(`/api/files/entry/${fileId}/name`, { Name: '../x' })).statusCode).toBe(400);

    const found = (await api.get('/api/files/library?search=BOARD%20AGENDA')).json() as FilePage;
    expect(found.Records.map((r) => r.Name)).toEqual(['board agenda.txt']);

    // Paging: 100 a page.
    await withTenantTx(ctx.database.db, { tenantId: a.tenant.id }, (tx) =>
      tx.insert(files).values(
        Array.from({ length: 101 }, (_, i) => ({
          tenantId: a.tenant.id,
          type: FILE_ENTRY_TYPES.Folder,
          folderId: sub.Id,
          name: `f${String(i).padStart(3, '0')}`,
        })),
      ),
    );
    const first = (await api.get(`/api/files/library?folderId=${sub.Id}`)).json() as FilePage;
    expect(first.Records).toHaveLength(100);
    expect(first.TotalRecordAvailable).toBe(101);
    const second = (await api.get(`/api/files/library?folderId=${sub.Id}&skip=100`)).json() as FilePage;
    expect(second.Records.map((r) => r.Name)).toEqual(['f100']);

    const before = storedOf(a.tenant.id).length;
    expect((await api.delete(`/api/files/entry/${folder.Id}`)).statusCode).toBe(200);
    expect(storedOf(a.tenant.id)).toHaveLength(before - 1);
    expect((await api.get(`/api/files/library?folderId=${sub.Id}`)).statusCode).toBe(404);
    expect((await api.post(`/api/files/download/${fileId}`)).statusCode).toBe(404);
  });

  it("a contact's files: listed for the contact, downloaded at /api/files/tenant/contact/{id}/{id}", async () => {
    const up = await upload(cookieA, `/api/files/upload?contactId=${contactId}`, PDF, 'certificate.pdf');
    expect(up.statusCode, up.body).toBe(200);
    const fileId = (up.json() as { FileId: number }[])[0]!.FileId;
    const page = (await client(ctx.app, cookieA).get(`/api/files/contact/${contactId}`)).json() as FilePage;
    expect(page.Records.map((r) => r.Name)).toEqual(['certificate.pdf']);
    const library = (await client(ctx.app, cookieA).get('/api/files/library')).json() as FilePage;
    expect(library.Records.map((r) => r.Name)).not.toContain('certificate.pdf');
    const res = await client(ctx.app, cookieA).get(`/api/files/tenant/contact/${contactId}/${fileId}`);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PDF)).toBe(true);
    expect(
      (await client(ctx.app, cookieA).get(`/api/files/tenant/contact/${contactId + 1}/${fileId}`)).statusCode,
    ).toBe(404);
  });

  it("a task's attachments and a project's files: upload, list, download, copy from the library, delete; another association's ids reach nothing", async () => {
    const { taskId, projectId } = await withTenantTx(
      ctx.database.db,
      { tenantId: a.tenant.id },
      async (tx) => {
        const [p] = await tx
          .insert(projects)
          .values({ tenantId: a.tenant.id, name: 'Spring conference' })
          .returning();
        const [t] = await tx
          .insert(tasks)
          .values({ tenantId: a.tenant.id, title: 'Sign the venue contract', projectId: p!.projectId })
          .returning();
        return { taskId: t!.taskId, projectId: p!.projectId };
      },
    );
    const api = client(ctx.app, cookieA);
    const stored = storedOf(a.tenant.id).length;
    const up = await upload(cookieA, `/api/files/upload?taskId=${taskId}`, PDF, 'venue contract.pdf');
    expect(up.statusCode, up.body).toBe(200);
    const fileId = (up.json() as { FileId: number }[])[0]!.FileId;
    const listed = (await api.get(`/api/files/task/${taskId}`)).json() as FilePage;
    expect(listed.Records.map((r) => [r.Name, r.TaskId, r.ProjectId, r.ContactId])).toEqual([
      ['venue contract.pdf', taskId, null, null],
    ]);
    // An attachment is neither in the library nor in the project's files.
    const library = (await api.get('/api/files/library')).json() as FilePage;
    expect(library.Records.map((r) => r.Id)).not.toContain(fileId);
    expect(((await api.get(`/api/files/project/${projectId}`)).json() as FilePage).Records).toEqual([]);
    const download = await api.get(`/api/files/download/${fileId}`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PDF)).toBe(true);
    // Attachments sit in no folder.
    const folder = (await api.post('/api/files/folder', { Name: 'Contracts' })).json() as { Id: number };
    expect(
      (await upload(cookieA, `/api/files/upload?taskId=${taskId}&folderId=${folder.Id}`, PDF, 'x.pdf'))
        .statusCode,
    ).toBe(404);
    expect((await api.put(`/api/files/entry/${fileId}/folder`, { FolderId: folder.Id })).statusCode).toBe(
      404,
    );

    // A library file copied to the project: its own bytes, so deleting one leaves the other.
    const lib = await upload(cookieA, '/api/files/upload', PDF, 'floor plan.pdf');
    const libId = (lib.json() as { FileId: number }[])[0]!.FileId;
    const copy = await api.post(`/api/files/entry/${libId}/copy`, { ProjectId: projectId });
    expect(copy.statusCode, copy.body).toBe(200);
    const copied = copy.json() as { Id: number; Name: string; ProjectId: number };
    expect(copied).toMatchObject({ Name: 'floor plan.pdf', ProjectId: projectId });
    expect(
      ((await api.get(`/api/files/project/${projectId}`)).json() as FilePage).Records.map((r) => r.Id),
    ).toEqual([copied.Id]);
    // The contact's Files tab adds a library file the same way.
    const toContact = await api.post(`/api/files/entry/${libId}/copy`, { ContactId: contactId });
    expect(toContact.statusCode, toContact.body).toBe(200);
    const contactCopy = toContact.json() as { Id: number };
    const contactPage = (await api.get(`/api/files/contact/${contactId}`)).json() as FilePage;
    expect(contactPage.Records.map((r) => r.Id)).toContain(contactCopy.Id);
    expect((await api.delete(`/api/files/entry/${contactCopy.Id}`)).statusCode).toBe(200);
    expect((await api.post(`/api/files/entry/${libId}/copy`, {})).statusCode).toBe(400);
    expect(
      (await api.post(`/api/files/entry/${libId}/copy`, { TaskId: taskId, ProjectId: projectId })).statusCode,
    ).toBe(400);
    expect((await api.post(`/api/files/entry/${folder.Id}/copy`, { TaskId: taskId })).statusCode).toBe(404);
    expect((await api.delete(`/api/files/entry/${libId}`)).statusCode).toBe(200);
    const kept = await api.get(`/api/files/download/${copied.Id}`);
    expect(kept.statusCode).toBe(200);
    expect(kept.rawPayload.equals(PDF)).toBe(true);

    // Another association: a task or project number of ours is none of theirs.
    const other = client(ctx.app, cookieB);
    expect((await other.get(`/api/files/task/${taskId}`)).statusCode).toBe(404);
    expect((await other.get(`/api/files/project/${projectId}`)).statusCode).toBe(404);
    expect((await upload(cookieB, `/api/files/upload?taskId=${taskId}`, PDF, 'x.pdf')).statusCode).toBe(404);
    expect((await other.post(`/api/files/entry/${fileId}/copy`, { TaskId: taskId })).statusCode).toBe(404);
    expect((await other.get(`/api/files/download/${fileId}`)).statusCode).toBe(404);
    expect((await other.delete(`/api/files/entry/${fileId}`)).statusCode).toBe(404);
    expect((await client(ctx.app, memberCookie).get(`/api/files/task/${taskId}`)).statusCode).toBe(403);

    expect((await api.delete(`/api/files/entry/${fileId}`)).statusCode).toBe(200);
    expect(((await api.get(`/api/files/task/${taskId}`)).json() as FilePage).Records).toEqual([]);
    // What stays stored: the project's copy (the attachment and the library original are gone).
    expect(storedOf(a.tenant.id)).toHaveLength(stored + 1);
    expect((await api.delete(`/api/files/entry/${copied.Id}`)).statusCode).toBe(200);
    expect((await api.delete(`/api/files/entry/${folder.Id}`)).statusCode).toBe(200);
    expect(storedOf(a.tenant.id)).toHaveLength(stored);
  });

  it("another association's ids reach nothing; members do not read the library; public files need no session", async () => {
    const up = await upload(cookieA, '/api/files/upload', PDF, 'private.pdf');
    const fileId = (up.json() as { FileId: number }[])[0]!.FileId;
    const other = client(ctx.app, cookieB);
    expect((await other.get(`/api/files/download/${fileId}`)).statusCode).toBe(404);
    expect((await other.put(`/api/files/entry/${fileId}/name`, { Name: 'mine.pdf' })).statusCode).toBe(404);
    expect((await other.delete(`/api/files/entry/${fileId}`)).statusCode).toBe(404);
    expect((await other.get(`/api/files/contact/${contactId}`)).statusCode).toBe(404);
    expect((await other.get(`/api/files/tenant/contact/${contactId}/${fileId}`)).statusCode).toBe(404);
    expect((await upload(cookieB, `/api/files/upload?contactId=${contactId}`, PDF, 'x.pdf')).statusCode).toBe(
      404,
    );
    expect((await other.post('/api/files/folder', { Name: 'x', FolderId: fileId })).statusCode).toBe(404);
    expect((await client(ctx.app, memberCookie).get(`/api/files/download/${fileId}`)).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: `/api/files/download/${fileId}` })).statusCode).toBe(
      401,
    );

    const pub = await upload(
      cookieA,
      '/api/files/upload?makePublic=true&forceSave=true',
      PDF,
      'newsletter.pdf',
    );
    const [item] = pub.json() as { Url: string }[];
    expect(item!.Url).toMatch(
      new RegExp(`^/api/files/public/${a.tenant.id}/[A-Za-z0-9_-]{22}/newsletter.pdf$`),
    );
    const anonymous = await ctx.app.inject({ method: 'GET', url: item!.Url });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.rawPayload.equals(PDF)).toBe(true);
    const guessed = item!.Url.replace(/\/[A-Za-z0-9_-]{22}\//, '/AAAAAAAAAAAAAAAAAAAAAA/');
    expect((await ctx.app.inject({ method: 'GET', url: guessed })).statusCode).toBe(404);
    const otherTenant = item!.Url.replace(a.tenant.id, b.tenant.id);
    expect((await ctx.app.inject({ method: 'GET', url: otherTenant })).statusCode).toBe(404);

    // A copy is always private: copying a public file into a contact's files makes a file that needs a session
    // (publishing is a choice made on upload, never inherited); the public original keeps its address.
    const publicId = (pub.json() as { FileId: number }[])[0]!.FileId;
    const copy = await client(ctx.app, cookieA).post(`/api/files/entry/${publicId}/copy`, {
      ContactId: contactId,
    });
    expect(copy.statusCode, copy.body).toBe(200);
    const copied = copy.json() as { Id: number; IsPublic: boolean; Url: string | null };
    expect(copied.IsPublic).toBe(false);
    expect(copied.Url ?? '').not.toMatch(/\/api\/files\/public\//);
    expect(
      (await ctx.app.inject({ method: 'GET', url: `/api/files/download/${copied.Id}` })).statusCode,
    ).toBe(401);
    const asStaff = await client(ctx.app, cookieA).get(`/api/files/download/${copied.Id}`);
    expect(asStaff.statusCode).toBe(200);
    expect(asStaff.rawPayload.equals(PDF)).toBe(true);
    expect((await ctx.app.inject({ method: 'GET', url: item!.Url })).statusCode).toBe(200);
  });

  it('a file is a hit of the global search (Type File) whose id downloads it', async () => {
    const up = await upload(cookieA, '/api/files/upload', PDF, 'Quarterly treasurer report.pdf');
    const fileId = (up.json() as { FileId: number }[])[0]!.FileId;
    const res = await client(ctx.app, cookieA).get('/api/search/global/backoffice/treasurer?v=2');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { Records: { Type: string; Id: string | number; Title: string }[] };
    const hit = body.Records.find((r) => r.Type === 'File');
    expect(hit).toMatchObject({ Title: 'Quarterly treasurer report.pdf' });
    expect(String(hit!.Id)).toBe(String(fileId));
    const other = (
      await client(ctx.app, cookieB).get('/api/search/global/backoffice/treasurer?v=2')
    ).json() as {
      Records: unknown[];
    };
    expect(other.Records).toEqual([]);
  });

  it('images: upright, within 3000x3000, metadata stripped; the crop is applied on the server; thumbnails', async () => {
    const photo = await rotatedPhoto();
    const res = await upload(cookieA, '/api/images/Upload/3/0', photo, 'portrait.jpg', 'image/jpeg');
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as { Url: string; FileId: number; ImageId: number };
    const image = (await client(ctx.app, cookieA).get(`/api/images/Image/${answer.ImageId}`)).json() as Image;
    // EXIF orientation 6 applied: the stored 400x200 shows as 200x400.
    expect([image.Width, image.Height]).toEqual([200, 400]);
    expect(image.Url).toBe(answer.Url);

    const original = await client(ctx.app, cookieA).get(`/api/files/download/${answer.FileId}`);
    expect(original.statusCode, original.body.slice(0, 200)).toBe(200);
    const meta = await sharp(original.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([200, 400]);
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();

    // The red band, at the stored image's left, is at the top once upright: crop the top 200x100.
    const saved = await client(ctx.app, cookieA).put(`/api/images/Image/${answer.ImageId}`, {
      CropX: 0,
      CropY: 0,
      CropWidth: 200,
      CropHeight: 100,
      Title: 'Portrait',
      Caption: 'At the annual meeting',
      ShortDescription: 'A red band',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const after = saved.json() as Image;
    expect(after).toMatchObject({
      CropX: 0,
      CropY: 0,
      CropWidth: 200,
      CropHeight: 100,
      Title: 'Portrait',
      ShortDescription: 'A red band',
    });
    expect(after.Url).not.toBe(image.Url);
    const variant = await client(ctx.app, cookieA).get(after.Url!);
    expect(variant.statusCode).toBe(200);
    const { data, info } = await sharp(variant.rawPayload).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([200, 100]);
    expect(data[0]).toBeGreaterThan(200); // red
    expect(data[2]).toBeLessThan(60);
    const thumb = await client(ctx.app, cookieA).get(after.ThumbnailUrl!);
    expect(thumb.statusCode, `${after.ThumbnailUrl} ${thumb.body.slice(0, 200)}`).toBe(200);
    const thumbMeta = await sharp(thumb.rawPayload).metadata();
    expect([thumbMeta.width, thumbMeta.height]).toEqual([150, 150]);

    // A very large photo is fitted in 3000x3000.
    const large = await sharp({ create: { width: 6000, height: 1500, channels: 3, background: '#808080' } })
      .jpeg()
      .toBuffer();
    const big = (await upload(cookieA, '/api/images/Upload/0/0', large, 'panorama.jpeg')).json() as {
      ImageId: number;
    };
    const bigImage = (await client(ctx.app, cookieA).get(`/api/images/Image/${big.ImageId}`)).json() as Image;
    expect([bigImage.Width, bigImage.Height]).toEqual([3000, 750]);

    const file = (await client(ctx.app, cookieA).get(`/api/images/File/${answer.FileId}`)).json() as Image;
    expect(file.ImageId).toBe(answer.ImageId);
    expect((await client(ctx.app, cookieB).get(`/api/images/Image/${answer.ImageId}`)).statusCode).toBe(404);
    expect((await client(ctx.app, cookieB).get(after.Url!)).statusCode).toBe(404);

    expect((await client(ctx.app, cookieA).delete(`/api/images/Image/${answer.ImageId}`)).statusCode).toBe(
      200,
    );
    expect((await client(ctx.app, cookieA).get(`/api/images/Image/${answer.ImageId}`)).statusCode).toBe(404);
  });

  it('usages: the logo (one, public), a contact photo (square), a gallery reordered; bmp and gif read', async () => {
    const png = await sharp({ create: { width: 300, height: 100, channels: 4, background: '#00000000' } })
      .png()
      .toBuffer();
    const logo = await upload(cookieA, '/api/images/Upload/1/0', png, 'logo.png', 'image/png');
    expect(logo.statusCode, logo.body).toBe(200);
    const usage = (await client(ctx.app, memberCookie).get('/api/images/Usage/1')).json() as {
      AspectRatio: number | null;
      Images: Image[];
    };
    expect(usage.AspectRatio).toBeNull();
    expect(usage.Images).toHaveLength(1);
    expect((await ctx.app.inject({ method: 'GET', url: usage.Images[0]!.Url! })).statusCode).toBe(200);

    const photo = await upload(cookieA, `/api/images/Upload/2/${contactId}`, await rotatedPhoto(), 'ada.jpg');
    expect(photo.statusCode, photo.body).toBe(200);
    const photos = (
      await client(ctx.app, cookieA).get(`/api/images/Usage/2?secondary=${contactId}`)
    ).json() as {
      AspectRatio: number;
      Images: Image[];
    };
    expect(photos.AspectRatio).toBe(1);
    expect(photos.Images[0]!.ForceAspect).toBe(1);
    // Members see the photos of contacts listed in the directory only.
    const asMember = () => client(ctx.app, memberCookie).get(`/api/images/Usage/2?secondary=${contactId}`);
    expect(((await asMember()).json() as { Images: Image[] }).Images).toEqual([]);
    expect((await client(ctx.app, memberCookie).get(photos.Images[0]!.Url!)).statusCode).toBe(404);
    await withTenantTx(ctx.database.db, { tenantId: a.tenant.id }, (tx) =>
      tx.update(contacts).set({ isListed: true }).where(eq(contacts.contactId, contactId)),
    );
    expect(((await asMember()).json() as { Images: Image[] }).Images).toHaveLength(1);
    expect((await client(ctx.app, memberCookie).get(photos.Images[0]!.Url!)).statusCode).toBe(200);
    expect(
      (await client(ctx.app, memberCookie).get('/api/images/Usage/3?secondary=77')).json(),
    ).toMatchObject({ Images: [] });
    expect(
      (await upload(cookieB, `/api/images/Upload/2/${contactId}`, await rotatedPhoto(), 'x.jpg')).statusCode,
    ).toBe(404);

    const bmp = Buffer.alloc(54 + 16 * 4 * 3);
    bmp.write('BM', 0);
    bmp.writeUInt32LE(bmp.length, 2);
    bmp.writeUInt32LE(54, 10);
    bmp.writeUInt32LE(40, 14);
    bmp.writeInt32LE(16, 18);
    bmp.writeInt32LE(4, 22);
    bmp.writeUInt16LE(1, 26);
    bmp.writeUInt16LE(24, 28);
    bmp.writeUInt32LE(16 * 4 * 3, 34);
    const gif = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#00ff00' } })
      .gif()
      .toBuffer();
    const ids: number[] = [];
    for (const [bytes, name] of [
      [bmp, 'a.bmp'],
      [gif, 'b.gif'],
      [png, 'c.png'],
    ] as const) {
      const res = await upload(cookieA, '/api/images/Upload/3/77', bytes, name);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
      ids.push((res.json() as { ImageId: number }).ImageId);
    }
    const order = [ids[2]!, ids[0]!, ids[1]!];
    const reordered = await client(ctx.app, cookieA).put('/api/images/Usage/3/order?secondary=77', {
      ImageIds: order,
    });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect((reordered.json() as { Images: Image[] }).Images.map((i) => i.ImageId)).toEqual(order);
    const foreign = await client(ctx.app, cookieB).put('/api/images/Usage/3/order?secondary=77', {
      ImageIds: order,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it("the editors' upload answers a public link; a library image can be chosen for a usage", async () => {
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#123456' } })
      .jpeg()
      .toBuffer();
    const res = await upload(cookieA, '/api/images/upload/', jpeg, 'header.jpg');
    expect(res.statusCode, res.body).toBe(200);
    const { link } = res.json() as { link: string };
    expect(link).toMatch(/^http:\/\/guildhall\.test\/api\/images\/public\//);
    const anonymous = await ctx.app.inject({
      method: 'GET',
      url: new URL(link).pathname + new URL(link).search,
    });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.headers['content-type']).toBe('image/jpeg');

    // A picture stored as a plain file becomes an image when chosen.
    const plain = await upload(cookieA, '/api/files/upload', jpeg, 'team.jpg');
    const fileId = (plain.json() as { FileId: number }[])[0]!.FileId;
    const chosen = await client(ctx.app, cookieA).post(`/api/images/Usage/3/File/${fileId}?secondary=5`);
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect((chosen.json() as Image).FileId).toBe(fileId);
    const gallery = (await client(ctx.app, cookieA).get('/api/images/Usage/3?secondary=5')).json() as {
      Images: Image[];
    };
    expect(gallery.Images.map((i) => i.FileId)).toEqual([fileId]);
  });

  it('the database holds no bytes: every stored object has a row and every row an object', async () => {
    const rows = await rowsOfTenant(a.tenant.id);
    const keys = new Set([
      ...rows.files.flatMap((f) => (f.storageKey ? [f.storageKey] : [])),
      ...rows.images.flatMap((i) => [i.variantKey, i.thumbnailKey]),
    ]);
    const stored = storedOf(a.tenant.id).map((k) => (k.startsWith('t/') ? k : `t/${a.tenant.id}/${k}`));
    expect(new Set(stored)).toEqual(keys);
    const [count] = rowsOf<{ n: number }>(
      await withTenantTx(ctx.database.db, { tenantId: a.tenant.id }, (tx) =>
        tx.execute(
          sql`select count(*)::int as n from files where storage_key not like ${`t/${a.tenant.id}/%`}`,
        ),
      ),
    );
    expect(count?.n).toBe(0);
  });
});
