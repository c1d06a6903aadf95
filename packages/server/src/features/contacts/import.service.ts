/**
 * CSV import of contacts: an upload is a stored file of its user; a dry run plans every row (create, update when
 * the email or account number names a live contact, or reject with the reasons) with the shared import rules;
 * the commit is a job that replays the same plan in one tenant transaction through the generic save (validation,
 * hooks, search documents, counters, audit), so a failing row rolls back every row before it.
 */
import { Readable } from 'node:stream';
import { type Database, jobs, rowsOf, storedFiles, type Tx, withTenantTx } from '@guildhall/db';
import { contactsResource, type ImportMapping, importRowOf } from '@guildhall/shared';
import { and, eq, sql } from 'drizzle-orm';
import Papa from 'papaparse';
import type { AuthContext } from '../../platform/context.ts';
import { HttpError, notFound } from '../../platform/errors.ts';
import { enqueue, type JobEnvironment, type JobHandler, PermanentJobError } from '../../platform/jobs.ts';
import * as generic from '../../platform/resources/resource.service.ts';
import type { Storage } from '../../platform/storage.ts';

export const IMPORT_JOB = 'contacts-import';
/** Bytes of one upload: enforced while the upload streams (413). */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 20_000;
/** Rows a dry run lists (the counts always cover every row). */
const DRY_RUN_ROWS = 500;
const STORAGE_PREFIX = 'imports/';

export interface ParsedCsv {
  headers: string[];
  rows: Record<string, string>[];
}

export function parseCsv(text: string): ParsedCsv {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const [head, ...body] = parsed.data;
  const headers = (head ?? []).map((h) => h.trim());
  if (headers.length === 0 || headers.every((h) => h === ''))
    throw new HttpError(400, 'The file has no header row.');
  if (new Set(headers).size !== headers.length)
    throw new HttpError(400, 'Two columns of the file have the same header.');
  if (body.length > IMPORT_MAX_ROWS)
    throw new HttpError(
      400,
      `The file has ${body.length} rows; import at most ${IMPORT_MAX_ROWS} at a time.`,
    );
  const rows = body.map((cells) => Object.fromEntries(headers.map((h, i) => [h, cells[i] ?? ''])));
  return { headers, rows };
}

export async function storeUpload(
  tx: Tx,
  auth: AuthContext,
  storage: Storage,
  fileName: string,
  bytes: Buffer,
): Promise<{ id: string; csv: ParsedCsv }> {
  const csv = parseCsv(bytes.toString('utf8'));
  const [file] = await tx
    .insert(storedFiles)
    .values({
      tenantId: auth.tenantId,
      userId: auth.userId,
      fileName: fileName.slice(0, 200) || 'import.csv',
      contentType: 'text/csv',
      status: 'ready',
      size: bytes.length,
      readyAt: new Date(),
    })
    .returning({ id: storedFiles.id });
  if (!file) throw new Error('file insert returned nothing');
  const storageKey = `${STORAGE_PREFIX}${auth.tenantId}/${file.id}.csv`;
  await storage.put(storageKey, Readable.from([bytes]));
  await tx
    .update(storedFiles)
    .set({ storageKey })
    .where(and(eq(storedFiles.tenantId, auth.tenantId), eq(storedFiles.id, file.id)));
  return { id: file.id, csv };
}

interface Upload {
  id: string;
  fileName: string;
  storageKey: string;
  jobId: string | null;
}

/** The caller's own upload, or 404 (another user's or tenant's upload does not exist for them). */
export async function findUpload(tx: Tx, auth: AuthContext, id: string): Promise<Upload> {
  const [file] = await tx
    .select()
    .from(storedFiles)
    .where(and(eq(storedFiles.tenantId, auth.tenantId), eq(storedFiles.id, id)));
  if (!file || file.userId !== auth.userId || !file.storageKey?.startsWith(STORAGE_PREFIX)) throw notFound();
  return { id: file.id, fileName: file.fileName, storageKey: file.storageKey, jobId: file.jobId };
}

async function readUpload(storage: Storage, upload: Upload): Promise<ParsedCsv> {
  const chunks: Buffer[] = [];
  for await (const chunk of storage.get(upload.storageKey)) chunks.push(chunk as Buffer);
  return parseCsv(Buffer.concat(chunks).toString('utf8'));
}

export interface PlannedRow {
  /** The line of the file (the header is line 1). */
  Row: number;
  Action: 'create' | 'update' | 'reject';
  ContactId: number | null;
  Name: string;
  Reasons: string[];
  model: Record<string, unknown>;
}

function checkMapping(mapping: ImportMapping, headers: readonly string[]): void {
  const unknown = Object.values(mapping).filter((h): h is string => h !== undefined && !headers.includes(h));
  if (unknown.length > 0)
    throw new HttpError(400, `The file has no column ${unknown.map((h) => `"${h}"`).join(', ')}.`, {
      Mapping: ['Map only columns of the file.'],
    });
  if (Object.values(mapping).every((h) => h === undefined))
    throw new HttpError(400, 'Map at least one column.', { Mapping: ['Map at least one column.'] });
}

async function liveMatches(
  tx: Tx,
  tenantId: string,
  column: 'email' | 'account',
  values: string[],
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (let i = 0; i < values.length; i += 1000) {
    const chunk = values.slice(i, i + 1000);
    if (chunk.length === 0) break;
    const list = sql.join(
      chunk.map((v) => sql`${v}`),
      sql`, `,
    );
    const rows = rowsOf<{ k: string; contact_id: string | number }>(
      await tx.execute(
        column === 'email'
          ? sql`select lower(email) as k, min(contact_id) as contact_id from contacts
                 where tenant_id = ${tenantId} and not is_deleted and lower(email) in (${list}) group by 1`
          : sql`select account_number as k, min(contact_id) as contact_id from contacts
                 where tenant_id = ${tenantId} and not is_deleted and account_number in (${list}) group by 1`,
      ),
    );
    for (const r of rows) found.set(r.k, Number(r.contact_id));
  }
  return found;
}

/** Every row's fate: the dry run answers it, the commit replays it. */
export async function planImport(
  tx: Tx,
  tenantId: string,
  csv: ParsedCsv,
  mapping: ImportMapping,
): Promise<PlannedRow[]> {
  checkMapping(mapping, csv.headers);
  const settings = await generic.tenantSettingsOf(tx, tenantId);
  const parsed = csv.rows.map((r) => importRowOf(r, mapping, { websitePrefix: settings.websitePrefix }));
  const emails = new Set<string>();
  const accounts = new Set<string>();
  for (const p of parsed) {
    if (!p.ok) continue;
    if (p.email) emails.add(p.email);
    if (p.accountNumber) accounts.add(p.accountNumber);
  }
  const byEmail = await liveMatches(tx, tenantId, 'email', [...emails]);
  const byAccount = await liveMatches(tx, tenantId, 'account', [...accounts]);
  const seenEmail = new Map<string, number>();
  const seenAccount = new Map<string, number>();
  return parsed.map((p, i): PlannedRow => {
    const Row = i + 2;
    if (!p.ok) return { Row, Action: 'reject', ContactId: null, Name: '', Reasons: p.reasons, model: {} };
    const Name = [p.model.FirstName, p.model.LastName, p.model.OrganizationName]
      .filter((v) => typeof v === 'string')
      .join(' ');
    const reasons: string[] = [];
    const earlierEmail = p.email ? seenEmail.get(p.email) : undefined;
    const earlierAccount = p.accountNumber ? seenAccount.get(p.accountNumber) : undefined;
    if (earlierEmail) reasons.push(`Same email as row ${earlierEmail}.`);
    if (earlierAccount) reasons.push(`Same account number as row ${earlierAccount}.`);
    if (p.email) seenEmail.set(p.email, Row);
    if (p.accountNumber) seenAccount.set(p.accountNumber, Row);
    const emailMatch = p.email ? byEmail.get(p.email) : undefined;
    const accountMatch = p.accountNumber ? byAccount.get(p.accountNumber) : undefined;
    if (emailMatch && accountMatch && emailMatch !== accountMatch)
      reasons.push(
        `The email matches contact #${emailMatch} and the account number contact #${accountMatch}.`,
      );
    if (reasons.length > 0)
      return { Row, Action: 'reject', ContactId: null, Name, Reasons: reasons, model: {} };
    const match = emailMatch ?? accountMatch ?? null;
    return { Row, Action: match ? 'update' : 'create', ContactId: match, Name, Reasons: [], model: p.model };
  });
}

export interface DryRunAnswer {
  ImportId: string;
  Total: number;
  Create: number;
  Update: number;
  Reject: number;
  Rows: Omit<PlannedRow, 'model'>[];
  Truncated: boolean;
}

export async function dryRun(
  tx: Tx,
  auth: AuthContext,
  storage: Storage,
  id: string,
  mapping: ImportMapping,
): Promise<DryRunAnswer> {
  const upload = await findUpload(tx, auth, id);
  const plan = await planImport(tx, auth.tenantId, await readUpload(storage, upload), mapping);
  const count = (a: PlannedRow['Action']) => plan.filter((p) => p.Action === a).length;
  // Rejected rows first: they are what the user must fix.
  const ordered = [
    ...plan.filter((p) => p.Action === 'reject'),
    ...plan.filter((p) => p.Action !== 'reject'),
  ];
  return {
    ImportId: upload.id,
    Total: plan.length,
    Create: count('create'),
    Update: count('update'),
    Reject: count('reject'),
    Rows: ordered.slice(0, DRY_RUN_ROWS).map(({ model: _m, ...row }) => row),
    Truncated: plan.length > DRY_RUN_ROWS,
  };
}

export async function startCommit(
  tx: Tx,
  auth: AuthContext,
  id: string,
  mapping: ImportMapping,
): Promise<string> {
  const upload = await findUpload(tx, auth, id);
  if (upload.jobId) throw new HttpError(409, 'This file is already imported or being imported.');
  const jobId = await enqueue(tx, {
    tenantId: auth.tenantId,
    kind: IMPORT_JOB,
    userId: auth.userId,
    payload: { fileId: upload.id, mapping, role: auth.role },
  });
  await tx
    .update(storedFiles)
    .set({ jobId })
    .where(and(eq(storedFiles.tenantId, auth.tenantId), eq(storedFiles.id, upload.id)));
  return jobId;
}

/** Progress of running imports on this instance (rows done of all); the job row holds the outcome. */
const progress = new Map<string, { Processed: number; Total: number }>();

export interface ImportStatus {
  ImportId: string;
  FileName: string;
  Status: 'uploaded' | 'queued' | 'running' | 'done' | 'failed';
  Total: number;
  Processed: number;
  Created: number;
  Updated: number;
  Error: string | null;
}

export async function status(tx: Tx, auth: AuthContext, id: string): Promise<ImportStatus> {
  const upload = await findUpload(tx, auth, id);
  const base: ImportStatus = {
    ImportId: upload.id,
    FileName: upload.fileName,
    Status: 'uploaded',
    Total: 0,
    Processed: 0,
    Created: 0,
    Updated: 0,
    Error: null,
  };
  if (!upload.jobId) return base;
  const [job] = await tx
    .select()
    .from(jobs)
    .where(and(eq(jobs.tenantId, auth.tenantId), eq(jobs.id, upload.jobId)));
  if (!job) return base;
  const result = (job.payload.result ?? {}) as Partial<Record<'Total' | 'Created' | 'Updated', number>>;
  const live = progress.get(job.id);
  const total = result.Total ?? live?.Total ?? 0;
  return {
    ...base,
    Status: job.status,
    Total: total,
    Processed: job.status === 'done' ? total : job.status === 'failed' ? 0 : (live?.Processed ?? 0),
    Created: result.Created ?? 0,
    Updated: result.Updated ?? 0,
    Error: job.status === 'failed' ? job.error : null,
  };
}

function messageOf(err: unknown): string {
  if (err instanceof HttpError) {
    const details = Object.entries(err.errors ?? {}).flatMap(([f, m]) => m.map((x) => `${f}: ${x}`));
    return details.length > 0 ? details.join(' ') : err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

export function importHandler(env: JobEnvironment): JobHandler {
  return async (database: Database, job) => {
    const fileId = String(job.payload.fileId ?? '');
    const mapping = (job.payload.mapping ?? {}) as ImportMapping;
    const role = job.payload.role === 'admin' ? 'admin' : 'staff';
    if (job.userId === null) throw new PermanentJobError('The import has no user.');
    const auth: AuthContext = {
      sessionId: '',
      userId: job.userId,
      tenantId: job.tenantId,
      role,
      loginType: 'staff',
      uiVersion: 2,
      impersonatorUserId: null,
      termsPending: false,
      promptsPending: false,
    };
    const bound = env.resources.find((r) => r.resource.name === contactsResource.name);
    if (!bound) throw new Error('contacts resource is not registered');
    try {
      await withTenantTx(database.db, { tenantId: job.tenantId, userId: job.userId }, async (tx) => {
        const upload = await findUpload(tx, auth, fileId);
        const plan = await planImport(tx, auth.tenantId, await readUpload(env.storage, upload), mapping);
        progress.set(job.id, { Processed: 0, Total: plan.length });
        let created = 0;
        let updated = 0;
        for (const [i, row] of plan.entries()) {
          if (row.Action === 'reject')
            throw new PermanentJobError(`Row ${row.Row}: ${row.Reasons.join(' ')} Nothing was imported.`);
          try {
            if (row.Action === 'create') {
              await generic.save(tx, auth, bound, { ...row.model, Answer: 'Yes' });
              created += 1;
            } else {
              const current = await generic.get(tx, auth, bound, row.ContactId);
              await generic.save(tx, auth, bound, {
                ...current,
                ...row.model,
                ContactId: row.ContactId,
                Answer: 'Yes',
              });
              updated += 1;
            }
          } catch (err) {
            throw new PermanentJobError(`Row ${row.Row}: ${messageOf(err)} Nothing was imported.`);
          }
          progress.set(job.id, { Processed: i + 1, Total: plan.length });
        }
        const result = { Total: plan.length, Created: created, Updated: updated };
        await tx
          .update(jobs)
          .set({ payload: sql`${jobs.payload} || ${JSON.stringify({ result })}::jsonb` })
          .where(and(eq(jobs.tenantId, job.tenantId), eq(jobs.id, job.id)));
      });
    } finally {
      progress.delete(job.id);
    }
  };
}
