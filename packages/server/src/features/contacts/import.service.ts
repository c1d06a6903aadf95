/**
 * CSV import of contacts: an upload is a stored file of its user; a dry run plans every row (create, update when
 * the email or account number names a live contact, or reject with the reasons) with the shared import rules;
 * the commit is a job that replays the plan set-based (decision 0087): the rows a save would write, a batch per
 * statement, with their audit entries, search documents and counters. By default the valid rows go in part by part
 * (one transaction each, resumed from the last part committed after a stop) and the rejected rows, and any row the
 * database refuses, are left out with their reasons; all or nothing is one transaction, failed by the first bad row.
 */
import { type Database, rowsOf, type Tx, withTenantTx } from '@guildhall/db';
import {
  ACCOUNT_NUMBER_COUNTER,
  accountNumberOf,
  CUSTOM_IMPORT_FIELD,
  contactsResource,
  type ImportMapping,
  type ImportMode,
  type ImportStatus,
  importRowName,
  importRowOf,
  type Model,
  rejectedRowsCsv,
  type TenantSettings,
} from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/context.ts';
import { nextCounterValues } from '../../platform/counters.ts';
import {
  findUpload,
  type ImportRunValues,
  importJobOf,
  importRunProgress,
  importState,
  keepInImportRun,
  lockImportRun,
  openUpload,
  type ParsedCsv,
  readUpload,
  startImportJob,
  yieldToRequests,
} from '../../platform/csv-import.ts';
import { HttpError } from '../../platform/errors.ts';
import { type JobEnvironment, type JobHandler, PermanentJobError } from '../../platform/jobs.ts';
import type { ExtraFieldsSource, ExtraImport } from '../../platform/resources/extra-fields.ts';
import type { BoundResource } from '../../platform/resources/registry.ts';
import type * as genericRepo from '../../platform/resources/resource.repo.ts';
import * as generic from '../../platform/resources/resource.service.ts';
import type { Storage } from '../../platform/storage.ts';
import { countDeltas } from './contacts.hooks.ts';
import { adjustCounts, highestAccountNumberStatement } from './contacts.repo.ts';
import * as importRepo from './import.repo.ts';

export const IMPORT_JOB = 'contacts-import';
/** Rows a dry run lists (the counts always cover every row). */
const DRY_RUN_ROWS = 500;

export interface PlannedRow {
  /** The line of the file the row starts on (the header is line 1). */
  Row: number;
  Action: 'create' | 'update' | 'reject';
  ContactId: number | null;
  Name: string;
  Reasons: string[];
  model: Record<string, unknown>;
  /** The row's custom values by field (`cf_12`), checked by their types; written with the contact. */
  custom?: Record<string, unknown>;
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

/**
 * The columns mapped to custom fields (`cf_12`) and the importer that checks and writes their cells; a mapping that
 * names a field contacts do not have (deleted, or of another association) is a 400 before anything runs.
 */
async function customColumns(
  tx: Tx,
  tenantId: string,
  mapping: ImportMapping,
  settings: TenantSettings,
  extra: ExtraFieldsSource | undefined,
): Promise<{ columns: [string, string][]; importer: ExtraImport }> {
  const columns = Object.entries(mapping).filter(
    (e): e is [string, string] => CUSTOM_IMPORT_FIELD.test(e[0]) && typeof e[1] === 'string' && e[1] !== '',
  );
  const none: ExtraImport = { fields: [], parse: () => ({ error: '' }), write: async () => {} };
  if (columns.length === 0) return { columns, importer: none };
  const importer = (await extra?.importer?.(tx, tenantId, settings)) ?? none;
  const known = new Set(importer.fields.map((f) => f.Id));
  const unknown = columns.filter(([field]) => !known.has(field));
  if (unknown.length > 0)
    throw new HttpError(
      400,
      `Contacts have no custom field ${unknown.map(([f]) => f).join(', ')} to import into.`,
      {
        Mapping: ['Map columns to the fields listed.'],
      },
    );
  return { columns, importer };
}

/** Rows planned or prepared between two turns given to other requests. */
const YIELD_EVERY = 250;

/** Every row's fate: the dry run answers it, the commit replays it. */
export async function planImport(
  tx: Tx,
  tenantId: string,
  csv: ParsedCsv,
  mapping: ImportMapping,
  /** The fields another feature adds to contacts (custom fields): the mapping may name them. */
  extra?: ExtraFieldsSource,
): Promise<PlannedRow[]> {
  checkMapping(mapping, csv.headers);
  const settings = await generic.tenantSettingsOf(tx, tenantId);
  const custom = await customColumns(tx, tenantId, mapping, settings, extra);
  const parsed: ReturnType<typeof importRowOf>[] = [];
  const customOf: { values: Record<string, unknown>; reasons: string[] }[] = [];
  for (const [i, r] of csv.rows.entries()) {
    // A turn for other requests every few hundred rows: 20,000 rows are seconds of work for this thread.
    if (i > 0 && i % YIELD_EVERY === 0) await yieldToRequests();
    const row = importRowOf(r, mapping, { websitePrefix: settings.websitePrefix });
    const values: Record<string, unknown> = {};
    const reasons: string[] = [];
    for (const [field, header] of custom.columns) {
      const text = (r[header] ?? '').trim();
      if (text === '') continue;
      const check = custom.importer.parse(field, text);
      if ('error' in check) reasons.push(check.error);
      else values[field] = check.value;
    }
    customOf.push({ values, reasons });
    if (reasons.length === 0) parsed.push(row);
    else parsed.push({ ok: false, reasons: [...(row.ok ? [] : row.reasons), ...reasons] });
  }
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
    const Row = csv.lines[i] ?? i + 2;
    const Name = importRowName(csv.rows[i] ?? {}, mapping);
    if (!p.ok) return { Row, Action: 'reject', ContactId: null, Name, Reasons: p.reasons, model: {} };
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
    const values = customOf[i]?.values ?? {};
    return {
      Row,
      Action: match ? 'update' : 'create',
      ContactId: match,
      Name,
      Reasons: [],
      model: p.model,
      ...(Object.keys(values).length > 0 ? { custom: values } : {}),
    };
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
  extra?: ExtraFieldsSource,
): Promise<DryRunAnswer> {
  const { upload, csv } = await openUpload(tx, auth, storage, id);
  const plan = await planImport(tx, auth.tenantId, csv, mapping, extra);
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
  mode: ImportMode = 'validRows',
): Promise<string> {
  return startImportJob(tx, auth, id, IMPORT_JOB, { mapping, role: auth.role, mode });
}

/** The import's state (decision 0194) with its counts: the result's once it is done, else its committed parts'. */
export async function status(tx: Tx, auth: AuthContext, storage: Storage, id: string): Promise<ImportStatus> {
  const state = await importState(tx, auth, storage, id);
  const result = state.result as Partial<Record<'Created' | 'Updated' | 'Rejected', number>> | undefined;
  const progress = state.progress as Partial<ImportProgress> | undefined;
  return {
    ImportId: state.upload.id,
    FileName: state.upload.fileName,
    Status: state.status,
    Total: state.total,
    Processed: state.processed,
    Created: result?.Created ?? progress?.created ?? 0,
    Updated: result?.Updated ?? progress?.updated ?? 0,
    Rejected: result?.Rejected ?? 0,
    Error: state.error,
  };
}

/** The SQLSTATE of a database error, also when wrapped by the query builder. */
function sqlState(err: unknown): { code: string; message: string } | null {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code))
      return { code, message: (e as Error).message };
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

function messageOf(err: unknown): string {
  if (err instanceof HttpError) {
    const details = Object.entries(err.errors ?? {}).flatMap(([f, m]) => m.map((x) => `${f}: ${x}`));
    return details.length > 0 ? details.join(' ') : err.message;
  }
  // The database's own words, never the query builder's (which quotes the statement and its values).
  const state = sqlState(err);
  if (state) return `${state.message.replace(/\.$/, '')}.`;
  return 'The import stopped on an error of ours.';
}

/**
 * A row the same attempt would fail again (invalid, a value or constraint the database refuses, an error raised
 * on purpose) fails the import at once; anything else (a dropped connection, a restart) is worth another attempt.
 */
function isPermanent(err: unknown): boolean {
  if (err instanceof HttpError || err instanceof PermanentJobError) return true;
  const code = sqlState(err)?.code ?? '';
  return code.startsWith('22') || code.startsWith('23') || code === 'P0001';
}

/** A row's failure, named by its line: permanent when another attempt would fail the same way. */
function rowFailure(row: PlannedRow, err: unknown): Error {
  const message = `Row ${row.Row}: ${messageOf(err)} Nothing was imported.`;
  return isPermanent(err) ? new PermanentJobError(message) : new Error(message, { cause: err });
}

/**
 * Runs one batch's statement in a savepoint. When the database refuses it for a row's sake, the batch is written
 * again row by row, each in a savepoint of its own, to find that row: with all or nothing the first such row ends
 * the import (its transaction rolls everything back); otherwise the row is left out with the database's reason
 * (`refused`) and the others go in.
 */
async function inBatch<T>(
  tx: Tx,
  rows: readonly PlannedRow[],
  mode: ImportMode,
  refused: RejectedRow[],
  all: (tx: Tx) => Promise<T[]>,
  one: (tx: Tx, index: number) => Promise<T[]>,
): Promise<T[]> {
  try {
    return await tx.transaction((savepoint) => all(savepoint as unknown as Tx));
  } catch (err) {
    if (!isPermanent(err))
      throw new Error(`Rows ${rows[0]?.Row} to ${rows.at(-1)?.Row}: ${messageOf(err)}`, { cause: err });
    const out: T[] = [];
    for (const [i, row] of rows.entries()) {
      try {
        out.push(...(await tx.transaction((savepoint) => one(savepoint as unknown as Tx, i))));
      } catch (rowErr) {
        if (mode === 'allOrNothing' || !isPermanent(rowErr)) throw rowFailure(row, rowErr);
        refused.push({ Row: row.Row, Reasons: [messageOf(rowErr)] });
      }
    }
    // Written one by one, the other rows went in.
    return out;
  }
}

/** What one part of the plan wrote, and the rows the database refused in it. */
interface PartWritten {
  created: number;
  updated: number;
  refused: RejectedRow[];
}

/**
 * Writes a part of the plan as the generic save writes each contact (validation, recalculation, check,
 * preparation, then the row, its audit entry, counters and search documents), a batch of rows per statement.
 * Rejected rows are skipped; so is a row the save's own rules refuse or the database refuses, which is answered in
 * `refused` (with all or nothing, such a row fails the import instead). `given` are the account numbers the whole
 * file names, so that no new contact is given one of them.
 */
async function writePart(
  tx: Tx,
  auth: AuthContext,
  bound: BoundResource,
  settings: TenantSettings,
  part: readonly PlannedRow[],
  given: readonly string[],
  mode: ImportMode,
): Promise<PartWritten> {
  const { resource } = bound;
  const tenantId = auth.tenantId;
  const refused: RejectedRow[] = [];
  /** The row's values as the save makes them; null when its rules refuse it and the valid rows are imported. */
  const values = (
    row: PlannedRow,
    input: Model,
    before: genericRepo.Row | undefined,
  ): genericRepo.Row | null => {
    try {
      let model = generic.validate(resource, input, settings);
      if (resource.recalculate) model = { ...model, ...resource.recalculate(model) };
      const extras = generic.extrasOf(input);
      const problem = resource.check?.(model, extras);
      if (problem) throw new HttpError(400, problem.Message);
      if (resource.prepare) model = resource.prepare(model, extras);
      const out = generic.toValues(resource, model, before);
      if (bound.properties.updatedAt) out.updatedAt = new Date();
      return out;
    } catch (err) {
      if (mode === 'allOrNothing' || !isPermanent(err)) throw rowFailure(row, err);
      refused.push({ Row: row.Row, Reasons: [messageOf(err)] });
      return null;
    }
  };
  const written: { before: Model | null; after: Model }[] = [];
  const customValues: { key: unknown; values: Record<string, unknown> }[] = [];
  const creates = part.filter((r) => r.Action === 'create');
  const numbers = await accountNumbers(
    tx,
    tenantId,
    creates.filter((r) => !r.model.AccountNumber).length,
    given,
  );
  for (let i = 0; i < creates.length; i += importRepo.IMPORT_BATCH) {
    const batch: PlannedRow[] = [];
    const rows: genericRepo.Row[] = [];
    for (const [j, r] of creates.slice(i, i + importRepo.IMPORT_BATCH).entries()) {
      if (j > 0 && j % YIELD_EVERY === 0) await yieldToRequests();
      // A new contact without a number in the file gets the association's next one, as a typed one does.
      const AccountNumber = r.model.AccountNumber ?? numbers.shift();
      const row = values(r, { ...r.model, AccountNumber, Answer: 'Yes' }, undefined);
      if (!row) continue;
      batch.push(r);
      rows.push({ ...row, tenantId });
    }
    const inserted = await inBatch(
      tx,
      batch,
      mode,
      refused,
      (t) => importRepo.insertContacts(t, tenantId, rows),
      (t, j) => importRepo.insertContacts(t, tenantId, [rows[j] as genericRepo.Row]),
    );
    for (const row of inserted) written.push({ before: null, after: generic.toModel(resource, row) });
    // A new contact is known by its account number (each row of the batch has its own).
    const byNumber = new Map(batch.map((r, j) => [String(rows[j]?.accountNumber), r]));
    for (const row of inserted) {
      const planned = byNumber.get(String(row.accountNumber));
      if (planned?.custom) customValues.push({ key: row.contactId, values: planned.custom });
    }
  }
  const updates = part.filter((r) => r.Action === 'update');
  for (let i = 0; i < updates.length; i += importRepo.IMPORT_BATCH) {
    const planned = updates.slice(i, i + importRepo.IMPORT_BATCH);
    const current = new Map(
      (
        await importRepo.contactRows(
          tx,
          tenantId,
          planned.map((r) => Number(r.ContactId)),
        )
      ).map((r) => [Number(r.contactId), r]),
    );
    const batch: PlannedRow[] = [];
    const befores = new Map<number, Model>();
    const rows: genericRepo.Row[] = [];
    for (const r of planned) {
      const before = current.get(Number(r.ContactId));
      if (!before || before.isDeleted === true) {
        const gone = new PermanentJobError('The contact to update no longer exists.');
        if (mode === 'allOrNothing') throw rowFailure(r, gone);
        refused.push({ Row: r.Row, Reasons: [gone.message] });
        continue;
      }
      const model = generic.toModel(resource, before);
      const row = values(r, { ...model, ...r.model, ContactId: r.ContactId, Answer: 'Yes' }, before);
      if (!row) continue;
      befores.set(Number(r.ContactId), model);
      batch.push(r);
      rows.push({ ...row, contactId: r.ContactId });
    }
    const after = await inBatch(
      tx,
      batch,
      mode,
      refused,
      (t) => importRepo.updateContacts(t, tenantId, rows),
      (t, j) => importRepo.updateContacts(t, tenantId, [rows[j] as genericRepo.Row]),
    );
    const plannedById = new Map(batch.map((r) => [Number(r.ContactId), r]));
    for (const row of after) {
      const id = Number(row.contactId);
      written.push({ before: befores.get(id) ?? null, after: generic.toModel(resource, row) });
      const custom = plannedById.get(id)?.custom;
      if (custom) customValues.push({ key: id, values: custom });
    }
  }
  if (customValues.length > 0) {
    const importer = await bound.extraFields?.importer?.(tx, tenantId, settings);
    await importer?.write(tx, tenantId, customValues);
  }
  await importRepo.insertAudit(
    tx,
    auth,
    resource.name,
    written.map((w) => ({ ...w, id: String(w.after.ContactId) })),
  );
  const deltas = new Map<string, number>();
  for (const w of written)
    for (const [k, n] of countDeltas(w.before, w.after)) deltas.set(k, (deltas.get(k) ?? 0) + n);
  await adjustCounts(tx, tenantId, deltas);
  const renamed = written
    .filter(
      (w) =>
        w.before && w.after.ContactType === 'organization' && w.before.DisplayName !== w.after.DisplayName,
    )
    .map((w) => Number(w.after.ContactId));
  await importRepo.refreshSearchOf(
    tx,
    tenantId,
    [
      ...written.map((w) => Number(w.after.ContactId)),
      ...(await importRepo.linkedToOrganizations(tx, tenantId, renamed)),
    ],
    bound.extraFields,
  );
  return {
    created: written.filter((w) => !w.before).length,
    updated: written.filter((w) => w.before).length,
    refused: refused.sort((a, b) => a.Row - b.Row),
  };
}

/**
 * `count` account numbers for new contacts, drawn from the association's counter in blocks (as a save draws one),
 * skipping any a contact already has or the file gives another row.
 */
async function accountNumbers(
  tx: Tx,
  tenantId: string,
  count: number,
  given: readonly string[],
): Promise<string[]> {
  const out: string[] = [];
  const fromFile = new Set(given);
  while (out.length < count) {
    const drawn = (
      await nextCounterValues(
        tx,
        tenantId,
        ACCOUNT_NUMBER_COUNTER,
        count - out.length,
        highestAccountNumberStatement(tenantId),
      )
    ).map(accountNumberOf);
    const taken = await importRepo.takenAccountNumbers(tx, tenantId, drawn);
    out.push(...drawn.filter((n) => !taken.has(n) && !fromFile.has(n)));
  }
  return out;
}

/** The rejected rows of the plan as the result keeps them (their line and reasons). */
interface RejectedRow {
  Row: number;
  Reasons: string[];
}

/**
 * Plan rows written per transaction when the valid rows are imported. The embedded database has one connection,
 * which every other request waits for while a transaction holds it: a part of 25 contacts holds it for a few tens of
 * milliseconds. PostgreSQL serves others beside the import, so its parts are larger (fewer round trips).
 */
export const PART_ROWS: Record<'pglite' | 'postgres', number> = { pglite: 25, postgres: 1000 };

/** How far an import that commits part by part has come, kept in its job's payload with each part. */
interface ImportProgress {
  /** Plan rows (in file order) whose part is committed. */
  done: number;
  created: number;
  updated: number;
  /** Rows the save's rules or the database refused in the parts committed so far. */
  refused: RejectedRow[];
}

export function importHandler(env: JobEnvironment): JobHandler {
  return async (database: Database, job) => {
    const fileId = String(job.payload.fileId ?? '');
    const mapping = (job.payload.mapping ?? {}) as ImportMapping;
    const mode: ImportMode = job.payload.mode === 'allOrNothing' ? 'allOrNothing' : 'validRows';
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
    /** The all-or-nothing run's progress, which nothing stores until its one transaction commits. */
    const progress = importRunProgress(database, env.storage, job);
    const inTx = <T>(work: (tx: Tx) => Promise<T>) =>
      withTenantTx(database.db, { tenantId: job.tenantId, userId: job.userId }, work);
    /** The upload locked for this run, and the job's payload as the last committed part left it. */
    const lockAndRead = (tx: Tx) => lockImportRun(tx, job, fileId);
    const keep = (tx: Tx, values: ImportRunValues, done?: number, total?: number) =>
      keepInImportRun(tx, job, values, done === undefined ? undefined : { done, total });
    /** An error that ends the run; `imported` says what of the file is in (parts committed before it). */
    const failed =
      (imported = 'Nothing was imported.') =>
      (err: unknown): never => {
        if (err instanceof PermanentJobError || /^Rows? \d/.test((err as Error).message)) throw err;
        const message = `${messageOf(err)} ${imported}`;
        throw isPermanent(err) ? new PermanentJobError(message) : new Error(message, { cause: err });
      };
    try {
      // The plan is made again by each run; the parts already committed are skipped by their count, and the
      // rows after them are planned against the contacts as they are now.
      const planned = await inTx(async (tx) => {
        const payload = await lockAndRead(tx);
        if (payload?.result) return null;
        const upload = await findUpload(tx, auth, fileId);
        const plan = await planImport(
          tx,
          auth.tenantId,
          await readUpload(env.storage, upload),
          mapping,
          bound.extraFields,
        );
        const settings = await generic.tenantSettingsOf(tx, auth.tenantId);
        return { plan, settings };
      });
      if (!planned) return;
      const { plan, settings } = planned;
      const rejected: RejectedRow[] = plan
        .filter((r) => r.Action === 'reject')
        .map((r) => ({ Row: r.Row, Reasons: r.Reasons }));
      const given = plan
        .filter((r) => r.Action === 'create')
        .map((r) => r.model.AccountNumber)
        .filter((n): n is string => typeof n === 'string');
      const resultOf = (p: ImportProgress) => {
        const all = [...rejected.filter((r) => !p.refused.some((x) => x.Row === r.Row)), ...p.refused];
        return {
          Total: plan.length,
          Created: p.created,
          Updated: p.updated,
          Rejected: all.length,
          RejectedRows: all.sort((a, b) => a.Row - b.Row),
        };
      };

      if (mode === 'allOrNothing') {
        // All or nothing is one transaction: the whole file goes in, or none of it.
        const first = rejected[0];
        if (first)
          throw new PermanentJobError(`Row ${first.Row}: ${first.Reasons.join(' ')} Nothing was imported.`);
        progress.report(0, plan.length);
        await inTx(async (tx) => {
          if ((await lockAndRead(tx))?.result) return;
          const sum: ImportProgress = { done: 0, created: 0, updated: 0, refused: [] };
          const size = PART_ROWS.postgres;
          for (let at = 0; at < plan.length; at += size) {
            const part = await writePart(
              tx,
              auth,
              bound,
              settings,
              plan.slice(at, at + size),
              given,
              mode,
            ).catch(failed());
            sum.created += part.created;
            sum.updated += part.updated;
            sum.done = Math.min(plan.length, at + size);
            progress.report(sum.done, plan.length);
          }
          await keep(tx, { result: resultOf(sum) });
        });
        return;
      }

      // The valid rows: part by part, each part (its contacts, audit entries, counters, search documents and the
      // job's progress) one transaction, so other requests get the database between parts and a run that stops
      // goes on from the last part committed, never writing a row twice.
      const size = PART_ROWS[database.kind];
      for (;;) {
        const next = await inTx(async (tx) => {
          const payload = await lockAndRead(tx);
          if (payload?.result) return null;
          const sofar: ImportProgress = (payload?.progress as ImportProgress | undefined) ?? {
            done: 0,
            created: 0,
            updated: 0,
            refused: [],
          };
          if (sofar.done >= plan.length) {
            await keep(tx, { result: resultOf(sofar) }, plan.length, plan.length);
            return null;
          }
          const slice = plan.slice(sofar.done, sofar.done + size);
          const part = await writePart(tx, auth, bound, settings, slice, given, mode).catch(
            failed(
              sofar.done === 0
                ? 'Nothing was imported.'
                : `The rows before row ${slice[0]?.Row} are imported; the import goes on from there when it is run again.`,
            ),
          );
          const now: ImportProgress = {
            done: sofar.done + slice.length,
            created: sofar.created + part.created,
            updated: sofar.updated + part.updated,
            refused: [...sofar.refused, ...part.refused],
          };
          await keep(tx, { progress: now }, now.done, plan.length);
          return now.done;
        });
        if (next === null) break;
        // Requests that waited for the database while the part was written go first.
        await yieldToRequests();
      }
    } finally {
      await progress.end();
    }
  };
}

/**
 * The rows an import leaves out, as a CSV file with their line and reasons: after the import, the rows its job
 * rejected; before it, the rows the plan rejects now (as the dry run shows them).
 */
export async function rejectedCsv(
  tx: Tx,
  auth: AuthContext,
  storage: Storage,
  id: string,
  mapping: ImportMapping,
  extra?: ExtraFieldsSource,
): Promise<{ fileName: string; csv: string }> {
  const { upload, job } = await importJobOf(tx, auth, id);
  const csv = await readUpload(storage, upload);
  let rejected = (job?.payload.result as { RejectedRows?: RejectedRow[] } | undefined)?.RejectedRows;
  rejected ??= (await planImport(tx, auth.tenantId, csv, mapping, extra))
    .filter((r) => r.Action === 'reject')
    .map((r) => ({ Row: r.Row, Reasons: r.Reasons }));
  const byLine = new Map(csv.lines.map((line, i) => [line, csv.rows[i] ?? {}]));
  const base = upload.fileName.replace(/\.csv$/i, '');
  return {
    fileName: `${base}-rejected.csv`,
    csv: rejectedRowsCsv(
      csv.headers,
      rejected.map((r) => ({ line: r.Row, cells: byLine.get(r.Row) ?? {}, reasons: r.Reasons })),
    ),
  };
}
