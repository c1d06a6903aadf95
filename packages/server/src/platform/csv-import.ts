/**
 * A CSV file to import, as every import of the product receives it (contacts, invoices): the upload streamed and
 * checked into storage under a server-made key (no database connection held while the client sends), kept as a
 * stored file of its user, read back and parsed with each row's line; the import's job started once per upload and
 * read back for its state; and a run of that job holding its upload while it works. A feature's import adds only
 * its mapping, its plan of the rows and the writing of a part.
 */
import { randomUUID } from 'node:crypto';
import { type Readable, Transform } from 'node:stream';
import { type Database, jobs, storedFiles, type Tx } from '@guildhall/db';
import { uploadFileName } from '@guildhall/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Papa from 'papaparse';
import { type AuthContext, requireAuth, tenantTx } from './context.ts';
import { HttpError, notFound } from './errors.ts';
import { enqueue, jobProgress, PermanentJobError } from './jobs.ts';
import { lingeringClose, type MultipartRefusals, multipartError } from './multipart.ts';
import type { Storage } from './storage.ts';
import { findStoredFile } from './stored-files.ts';

/** Bytes of one upload: enforced while the upload streams (413). */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 20_000;
const STORAGE_PREFIX = 'imports/';

/** The multipart limits of a CSV upload route: one file, bounded while it streams (413 before the rest is read). */
export const CSV_UPLOAD_LIMITS = {
  fileSize: IMPORT_MAX_BYTES,
  files: 1,
  fields: 2,
  parts: 3,
  fieldSize: 1024,
} as const;

export interface ParsedCsv {
  headers: string[];
  rows: Record<string, string>[];
  /** The line of the file each row starts on (the header's is 1; blank lines and line breaks in quotes count). */
  lines: number[];
}

/** Records of a CSV file with the line each starts on; blank lines (and lines of blanks only) are skipped. */
function records(text: string): { cells: string[]; line: number }[] {
  const out: { cells: string[]; line: number }[] = [];
  let start = 0;
  let line = 1;
  Papa.parse<string[]>(text, {
    step: (result) => {
      const end = result.meta.cursor;
      const cells = result.data;
      if (!cells.every((c) => c.trim() === '')) out.push({ cells, line });
      for (let i = start; i < end; i++) if (text.charCodeAt(i) === 10) line++;
      start = end;
    },
  });
  return out;
}

/** A turn given to other requests between parts of a long run (a plan, a write of many rows). */
export const yieldToRequests = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

export function parseCsv(text: string): ParsedCsv {
  const [head, ...body] = records(text.replace(/^\uFEFF/, ''));
  const headers = (head?.cells ?? []).map((h) => h.trim());
  if (headers.length === 0 || headers.every((h) => h === ''))
    throw new HttpError(400, 'The file has no header row.');
  if (new Set(headers).size !== headers.length)
    throw new HttpError(400, 'Two columns of the file have the same header.');
  if (body.length === 0) throw new HttpError(400, 'The file has no rows under its header row.');
  if (body.length > IMPORT_MAX_ROWS)
    throw new HttpError(
      400,
      `The file has ${body.length} rows; import at most ${IMPORT_MAX_ROWS} at a time.`,
    );
  const rows = body.map((r) => Object.fromEntries(headers.map((h, i) => [h, r.cells[i] ?? ''])));
  return { headers, rows, lines: body.map((r) => r.line) };
}

/** Where an upload's bytes live: made by the server from the tenant and the upload's id, never from the client. */
export function uploadKey(tenantId: string, id: string): string {
  return `${STORAGE_PREFIX}${tenantId}/${id}.csv`;
}

/** The client's file name as a label (uploadFileName: no path, no control, bidi or zero-width characters). */
export function fileLabel(name: string | undefined): string {
  return uploadFileName(name, 'import.csv');
}

const NOT_CSV = 'Save it as "CSV UTF-8" (comma-separated values) and upload that file.';

/** Signatures of files people upload by mistake instead of a CSV, for a message that says what it is. */
const SIGNATURES: { bytes: number[]; what: string }[] = [
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image' },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image' },
  { bytes: [0x47, 0x49, 0x46, 0x38], what: 'a GIF image' },
  { bytes: [0x50, 0x4b, 0x03, 0x04], what: 'a ZIP archive (an Excel .xlsx workbook is one)' },
  { bytes: [0xd0, 0xcf, 0x11, 0xe0], what: 'an Excel 97-2003 workbook or another Office document' },
  { bytes: [0x25, 0x50, 0x44, 0x46, 0x2d], what: 'a PDF document' },
  { bytes: [0x1f, 0x8b], what: 'a gzip archive' },
  { bytes: [0xff, 0xfe], what: 'UTF-16 text' },
  { bytes: [0xfe, 0xff], what: 'UTF-16 text' },
];
const HEAD_BYTES = 8;

/** True for bytes no CSV text holds: NUL and the C0 controls other than tab, line feed, vertical tab, form feed, CR. */
function isControl(b: number): boolean {
  return b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0b && b !== 0x0c && b !== 0x0d;
}

/**
 * Checks an upload's bytes while they stream (the name and the declared type say nothing): a known binary
 * signature, a NUL or control byte, or bytes that are not UTF-8 refuse the file with a 400 at once, before the
 * rest is read. Passes the bytes through unchanged.
 */
export function csvBytesCheck(): Transform {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let head = Buffer.alloc(0);
  let headChecked = false;
  const checkHead = () => {
    headChecked = true;
    const hit = SIGNATURES.find((s) => s.bytes.every((b, i) => head[i] === b));
    if (hit)
      throw new HttpError(400, `The file is not a CSV text file: it looks like ${hit.what}. ${NOT_CSV}`);
  };
  const check = (chunk: Buffer) => {
    if (!headChecked) {
      head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES)]).subarray(0, HEAD_BYTES);
      if (head.length >= HEAD_BYTES) checkHead();
    }
    if (chunk.some(isControl))
      throw new HttpError(400, `The file is not a CSV text file: it holds binary data. ${NOT_CSV}`);
    try {
      decoder.decode(chunk, { stream: true });
    } catch {
      throw new HttpError(400, `The file is not UTF-8 text. ${NOT_CSV}`);
    }
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        check(chunk);
        done(null, chunk);
      } catch (err) {
        done(err as Error);
      }
    },
    flush(done) {
      try {
        if (!headChecked) checkHead();
        decoder.decode();
        done();
      } catch (err) {
        done(err instanceof HttpError ? err : new HttpError(400, `The file is not UTF-8 text. ${NOT_CSV}`));
      }
    },
  });
}

export const TOO_LARGE = `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB. Import at most ${IMPORT_MAX_ROWS.toLocaleString('en')} rows at a time, in files of up to ${IMPORT_MAX_BYTES / 1024 / 1024} MB.`;

/** How a CSV upload route says a refused multipart body. */
const CSV_REFUSALS: MultipartRefusals = {
  tooLarge: () => new HttpError(413, TOO_LARGE),
  onlyTheFile: 'Send only the CSV file, in the form field "file".',
  malformed: 'The upload is not a valid multipart/form-data body with one CSV file.',
};

/**
 * Streams an upload's file into storage under a server-made key, checking its bytes and its size as they come:
 * a file over the limit is refused with 413 as soon as it passes it, a binary file at its first bytes, and
 * nothing stays in storage. Holds no database connection while the client sends.
 */
export async function receiveUpload(
  storage: Storage,
  key: string,
  file: Readable & { truncated?: boolean },
): Promise<number> {
  const tooLarge = () => new HttpError(413, TOO_LARGE);
  const check = csvBytesCheck();
  // busboy stops the file at the limit and says so with 'limit': refuse then, without reading the rest.
  file.once('limit', () => check.destroy(tooLarge()));
  const size = await storage.put(key, file, check);
  if (file.truncated || size > IMPORT_MAX_BYTES) {
    await storage.remove(key);
    throw tooLarge();
  }
  return size;
}

/** Records a received and parsed upload as a stored file of the user (its id made by the caller). */
export async function storeUpload(
  tx: Tx,
  auth: AuthContext,
  upload: { id: string; key: string; label: string; size: number },
): Promise<void> {
  await tx.insert(storedFiles).values({
    tenantId: auth.tenantId,
    id: upload.id,
    userId: auth.userId,
    fileName: upload.label,
    contentType: 'text/csv',
    status: 'ready',
    size: upload.size,
    storageKey: upload.key,
    readyAt: new Date(),
  });
}

export async function readStored(storage: Storage, key: string): Promise<ParsedCsv> {
  const chunks: Buffer[] = [];
  for await (const chunk of storage.get(key)) chunks.push(chunk as Buffer);
  return parseCsv(Buffer.concat(chunks).toString('utf8'));
}

export interface Upload {
  id: string;
  fileName: string;
  storageKey: string;
  jobId: string | null;
}

/** The caller's own upload, or 404 (another user's or tenant's upload does not exist for them). */
export async function findUpload(tx: Tx, auth: AuthContext, id: string): Promise<Upload> {
  const file = await findStoredFile(tx, auth, id);
  if (!file.storageKey?.startsWith(STORAGE_PREFIX)) throw notFound();
  return { id: file.id, fileName: file.fileName, storageKey: file.storageKey, jobId: file.jobId };
}

export function readUpload(storage: Storage, upload: Upload): Promise<ParsedCsv> {
  return readStored(storage, upload.storageKey);
}

/** The caller's own upload (or 404) and its rows: what a dry run and a list of refused rows start from. */
export async function openUpload(
  tx: Tx,
  auth: AuthContext,
  storage: Storage,
  id: string,
): Promise<{ upload: Upload; csv: ParsedCsv }> {
  const upload = await findUpload(tx, auth, id);
  return { upload, csv: await readUpload(storage, upload) };
}

/** What an import's upload route answers: the upload's id, its columns and rows, the fields and a suggested mapping. */
export interface CsvUploadAnswer<F> {
  ImportId: string;
  FileName: string;
  Columns: string[];
  Rows: number;
  Sample: Record<string, string>[];
  Fields: F[];
  Mapping: Record<string, string>;
}

/**
 * An import's upload route: the request's one file, field "file", streamed and checked into storage (a field or a
 * second file refused like an unknown JSON field, 413 as soon as it passes the limit), read back, then kept as the
 * caller's stored file in a short tenant transaction in which `describe` says the fields a column may fill and the
 * mapping it suggests for the file's headers. Nothing stays in storage when it is refused.
 */
export async function acceptCsvUpload<F>(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  describe: (
    tx: Tx,
    auth: AuthContext,
    headers: string[],
  ) => Promise<{ fields: F[]; mapping: Record<string, string | null | undefined> }>,
): Promise<CsvUploadAnswer<F>> {
  const auth = requireAuth(req.auth);
  if (!req.isMultipart()) throw new HttpError(415, 'Send the file as multipart/form-data.');
  const id = randomUUID();
  const key = uploadKey(auth.tenantId, id);
  let received: { label: string; size: number } | undefined;
  try {
    for await (const part of req.parts()) {
      if (part.type !== 'file' || part.fieldname !== 'file' || received)
        throw new HttpError(400, CSV_REFUSALS.onlyTheFile, {
          [part.fieldname.slice(0, 50) || '_']: ['Unknown field.'],
        });
      const size = await receiveUpload(app.storage, key, part.file);
      received = { label: fileLabel(part.filename), size };
    }
    if (!received) throw new HttpError(400, 'Choose a CSV file.', { file: ['Choose a CSV file.'] });
  } catch (err) {
    if (received) await app.storage.remove(key);
    lingeringClose(req.raw, reply.raw);
    throw multipartError(err, CSV_REFUSALS);
  }
  try {
    const upload = { id, key, ...received };
    const csv = await readStored(app.storage, key);
    const described = await tenantTx(app.database, auth, async (tx) => {
      await storeUpload(tx, auth, upload);
      return describe(tx, auth, csv.headers);
    });
    const mapping: Record<string, string> = {};
    for (const [k, v] of Object.entries(described.mapping)) if (v !== undefined && v !== null) mapping[k] = v;
    return {
      ImportId: id,
      FileName: received.label,
      Columns: csv.headers,
      Rows: csv.rows.length,
      Sample: csv.rows.slice(0, 5),
      Fields: described.fields,
      Mapping: mapping,
    };
  } catch (err) {
    await app.storage.remove(key);
    throw err;
  }
}

/**
 * Starts an upload's import as a job of `kind` (the payload names the upload as `fileId`): once per upload, a 409
 * when it is already imported or being imported. Answers the job's id.
 */
export async function startImportJob(
  tx: Tx,
  auth: AuthContext,
  uploadId: string,
  kind: string,
  payload: Record<string, unknown>,
): Promise<string> {
  const upload = await findUpload(tx, auth, uploadId);
  if (upload.jobId) throw new HttpError(409, 'This file is already imported or being imported.');
  const jobId = await enqueue(tx, {
    tenantId: auth.tenantId,
    kind,
    userId: auth.userId,
    payload: { fileId: upload.id, ...payload },
  });
  await tx
    .update(storedFiles)
    .set({ jobId })
    .where(and(eq(storedFiles.tenantId, auth.tenantId), eq(storedFiles.id, upload.id)));
  return jobId;
}

/** The caller's own upload (or 404) and its import's job row, null before the import started. */
export async function importJobOf(
  tx: Tx,
  auth: AuthContext,
  id: string,
): Promise<{ upload: Upload; job: typeof jobs.$inferSelect | null }> {
  const upload = await findUpload(tx, auth, id);
  if (!upload.jobId) return { upload, job: null };
  const [job] = await tx
    .select()
    .from(jobs)
    .where(and(eq(jobs.tenantId, auth.tenantId), eq(jobs.id, upload.jobId)));
  return { upload, job: job ?? null };
}

/** What an import's job stores when it ends: its counts, of which the platform reads the total. */
interface StoredResult {
  Total?: number;
}

/** What an import's committed parts store (`progress` in its job's payload): the units of its plan they did. */
interface StoredProgress {
  done?: number;
}

/**
 * How far the import runs of this instance that work in one transaction are, by job id: counted as they go,
 * before their commit stores anything. Kept per app instance (known by its storage), so two instances in one
 * process share no more than two processes would.
 */
const liveRunsByInstance = new WeakMap<Storage, Map<string, { done: number; total: number }>>();
function liveRunsOf(storage: Storage): Map<string, { done: number; total: number }> {
  let runs = liveRunsByInstance.get(storage);
  if (!runs) {
    runs = new Map();
    liveRunsByInstance.set(storage, runs);
  }
  return runs;
}

/** An import's state as every import answers it (decision 0194); the feature adds its counts. */
export interface ImportState {
  upload: Upload;
  /** `uploaded` until the import is committed, then its job's status. */
  status: 'uploaded' | (typeof jobs.$inferSelect)['status'];
  /** The units of the import's plan (rows, invoices): 0 until a run of it has planned them. */
  total: number;
  /** The units done (at most `total`). */
  processed: number;
  /** Why it failed, once it failed. */
  error: string | null;
  /** What the job stored when it ended (the import's counts); undefined before. */
  result: Record<string, unknown> | undefined;
  /** What its committed parts stored; undefined before the first part. */
  progress: Record<string, unknown> | undefined;
}

/**
 * The state of the caller's import (404 for another's), by one rule for every import (decision 0194): the progress
 * stored in the job's row is the base, for it holds on every instance and across restarts; the live count of a run
 * on this instance refines it while it runs. Done: every unit. Running: the most of the progress its committed parts
 * stored, the progress the running instance wrote to the row beside its transaction and, when this instance runs
 * it, its live count. Queued (for another attempt) or failed: what the committed parts stored, which a next run goes
 * on from (nothing for a run that commits only at its end).
 */
export async function importState(
  tx: Tx,
  auth: AuthContext,
  storage: Storage,
  id: string,
): Promise<ImportState> {
  const { upload, job } = await importJobOf(tx, auth, id);
  if (!job)
    return {
      upload,
      status: 'uploaded',
      total: 0,
      processed: 0,
      error: null,
      result: undefined,
      progress: undefined,
    };
  const result = job.payload.result as (Record<string, unknown> & StoredResult) | undefined;
  const progress = job.payload.progress as (Record<string, unknown> & StoredProgress) | undefined;
  const live = job.status === 'running' ? liveRunsOf(storage).get(job.id) : undefined;
  const total = result?.Total ?? job.progressTotal ?? live?.total ?? 0;
  const committed = progress?.done ?? 0;
  const processed =
    job.status === 'done'
      ? total
      : job.status === 'running'
        ? Math.max(committed, job.progressDone ?? 0, live?.done ?? 0)
        : committed;
  return {
    upload,
    status: job.status,
    total,
    processed: Math.min(processed, total),
    error: job.status === 'failed' ? job.error : null,
    result,
    progress,
  };
}

/**
 * The progress of a run of an import's job that works in one transaction (nothing of it is stored until it
 * commits): counted on this instance for its state answers and, on PostgreSQL, written to the job's row beside the
 * transaction for the other instances (throttled, `jobProgress`). `end()` once the run's transaction has ended. A
 * run that commits part by part stores its progress with each part (`keepInImportRun`) and needs none.
 */
export function importRunProgress(
  database: Database,
  storage: Storage,
  job: ImportRun,
): { report(done: number, total: number): void; end(): Promise<void> } {
  const beside = jobProgress(database, job);
  const runs = liveRunsOf(storage);
  return {
    report(done, total) {
      runs.set(job.id, { done, total });
      beside.report(done, total);
    },
    async end() {
      runs.delete(job.id);
      await beside.settle();
    },
  };
}

/** An import job's row, as a run of it names it. */
interface ImportRun {
  id: string;
  tenantId: string;
}

/**
 * In a run of an import's job: locks its upload (one run at a time per upload; a permanent failure when the file is
 * gone) and answers the job's payload as the last committed part left it (null when the job row is gone).
 */
export async function lockImportRun(
  tx: Tx,
  job: ImportRun,
  fileId: string,
): Promise<Record<string, unknown> | null> {
  const [locked] = await tx
    .select({ id: storedFiles.id })
    .from(storedFiles)
    .where(and(eq(storedFiles.tenantId, job.tenantId), eq(storedFiles.id, fileId)))
    .for('update');
  if (!locked) throw new PermanentJobError('The uploaded file no longer exists.');
  const [current] = await tx
    .select({ payload: jobs.payload })
    .from(jobs)
    .where(and(eq(jobs.tenantId, job.tenantId), eq(jobs.id, job.id)));
  return current?.payload ?? null;
}

/**
 * What a run keeps in its import job's payload: `progress`, what the parts committed so far did (its `done` the units
 * of the plan), and `result`, the import's counts at its end (its `Total` the units of the plan). The import's state
 * reads both (`importState`).
 */
export interface ImportRunValues {
  progress?: { done: number };
  result?: { Total: number } & Record<string, unknown>;
}

/** In a part's transaction: merges `values` into the import job's payload, with its progress when given. */
export function keepInImportRun(
  tx: Tx,
  job: ImportRun,
  values: ImportRunValues,
  progress?: { done: number; total: number | undefined },
) {
  return tx
    .update(jobs)
    .set({
      payload: sql`${jobs.payload} || ${JSON.stringify(values)}::jsonb`,
      ...(progress === undefined
        ? {}
        : { progressDone: progress.done, progressTotal: progress.total, lockedAt: sql`now()` }),
    })
    .where(and(eq(jobs.tenantId, job.tenantId), eq(jobs.id, job.id)));
}
