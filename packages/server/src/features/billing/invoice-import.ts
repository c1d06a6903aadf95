/**
 * "Create invoices from file" (issue 15, decision 0126): a CSV file of invoice lines is uploaded as every import
 * uploads its file (platform/csv-import.ts), mapped, planned in a dry run (the invoices it would create,
 * the rows refused and why; nothing written), then committed as a job. The job creates the invoices part by part,
 * each part in a few statements through the billing service's `createInvoices` (numbers drawn as one block from the
 * tenant's counter, lines and balanced ledger entries set-based), with the job's progress in the same transaction;
 * each invoice carries an idempotency key made of the upload and its first row, so a run that stops and starts again
 * goes on from the last part and never creates an invoice twice.
 */
import { auditLog, type Database, q, runFragment, type Tx, withTenantTx } from '@guildhall/db';
import {
  type InvoiceImportMapping,
  type InvoiceImportStatus,
  invoiceImportRowOf,
  invoiceMappingProblems,
} from '@guildhall/shared';
import type { AuthContext } from '../../platform/context.ts';
import {
  type ImportRunValues,
  importState,
  keepInImportRun,
  lockImportRun,
  openUpload,
  type ParsedCsv,
  startImportJob,
  yieldToRequests,
} from '../../platform/csv-import.ts';
import { HttpError } from '../../platform/errors.ts';
import { type JobHandler, PermanentJobError } from '../../platform/jobs.ts';
import type { Services } from '../../platform/services.ts';
import type { Storage } from '../../platform/storage.ts';
import {
  createInvoice,
  createInvoices,
  type InvoiceSummary,
  type NewInvoice,
  type NewInvoiceLine,
} from './billing.service.ts';

export const INVOICE_IMPORT_JOB = 'billing-invoice-import';
const DRY_RUN_INVOICES = 200;
const DRY_RUN_REJECTED = 500;
/**
 * Invoices created per transaction (each part in a few statements by `createInvoices`): the embedded database's one
 * connection is held a short while per part.
 */
export const INVOICE_PART: Record<'pglite' | 'postgres', number> = { pglite: 100, postgres: 1000 };

type Row = Record<string, unknown>;

export interface PlannedInvoice {
  /** The lines of the file the invoice is made of. */
  rows: number[];
  contactId: number;
  contactName: string;
  lines: NewInvoiceLine[];
  issueDate: string | null;
  dueDate: string | null;
  memo: string | null;
  totalCents: number;
}
export interface RejectedRow {
  Row: number;
  Reasons: string[];
}

function checkMapping(mapping: InvoiceImportMapping, headers: readonly string[]): void {
  const unknown = Object.values(mapping).filter((h): h is string => !!h && !headers.includes(h));
  if (unknown.length > 0)
    throw new HttpError(400, `The file has no column ${unknown.map((h) => `"${h}"`).join(', ')}.`, {
      Mapping: ['Map only columns of the file.'],
    });
  const problems = invoiceMappingProblems(mapping);
  if (problems.length > 0) throw new HttpError(400, problems[0] ?? 'Map the columns.', { Mapping: problems });
}

async function lookup(tx: Tx, tenantId: string, sqlText: 'email' | 'account', values: string[]) {
  const found = new Map<string, { id: number; name: string }>();
  if (values.length === 0) return found;
  const rows = await runFragment<Row>(
    tx,
    sqlText === 'email'
      ? q`select lower(email) as k, min(contact_id) as id, min(display_name) as name from contacts
          where tenant_id = ${tenantId} and not is_deleted and lower(email) = any(${values}::text[]) group by 1`
      : q`select account_number as k, min(contact_id) as id, min(display_name) as name from contacts
          where tenant_id = ${tenantId} and not is_deleted and account_number = any(${values}::text[]) group by 1`,
  );
  for (const r of rows) found.set(String(r.k), { id: Number(r.id), name: String(r.name ?? '') });
  return found;
}

/** Every row's fate: the invoices the file makes (rows grouped by contact and reference) and the rows refused. */
export async function planInvoices(
  tx: Tx,
  tenantId: string,
  csv: ParsedCsv,
  mapping: InvoiceImportMapping,
): Promise<{ invoices: PlannedInvoice[]; rejected: RejectedRow[] }> {
  checkMapping(mapping, csv.headers);
  const parsed = csv.rows.map((r) => invoiceImportRowOf(r, mapping));
  const emails = new Set<string>();
  const accounts = new Set<string>();
  const revenue = new Set<string>();
  for (const p of parsed) {
    if (!p.ok) continue;
    if (p.line.email) emails.add(p.line.email);
    if (p.line.accountNumber) accounts.add(p.line.accountNumber);
    if (p.line.revenueAccount) revenue.add(p.line.revenueAccount.toLowerCase());
  }
  const byEmail = await lookup(tx, tenantId, 'email', [...emails]);
  const byAccount = await lookup(tx, tenantId, 'account', [...accounts]);
  const accountRows = await runFragment<Row>(
    tx,
    q`select account_id, lower(code) as code, lower(name) as name from ledger_accounts
      where tenant_id = ${tenantId} and kind = 'revenue' and is_active`,
  );
  const revenueOf = new Map<string, number>();
  for (const a of accountRows) {
    revenueOf.set(String(a.name), Number(a.account_id));
    revenueOf.set(String(a.code), Number(a.account_id));
  }

  const rejected = new Map<number, string[]>();
  const groups = new Map<string, { rows: number[]; invoice: PlannedInvoice }>();
  parsed.forEach((p, i) => {
    const Row = csv.lines[i] ?? i + 2;
    if (!p.ok) {
      rejected.set(Row, p.reasons);
      return;
    }
    const { line } = p;
    const reasons: string[] = [];
    const byMail = line.email ? byEmail.get(line.email) : undefined;
    const byNumber = line.accountNumber ? byAccount.get(line.accountNumber) : undefined;
    if (line.accountNumber && !byNumber)
      reasons.push(`No contact has the account number ${line.accountNumber}.`);
    if (line.email && !byMail && !line.accountNumber) reasons.push(`No contact has the email ${line.email}.`);
    if (byMail && byNumber && byMail.id !== byNumber.id)
      reasons.push(`The email matches contact #${byMail.id} and the account number contact #${byNumber.id}.`);
    const accountId = line.revenueAccount ? revenueOf.get(line.revenueAccount.toLowerCase()) : undefined;
    if (line.revenueAccount && accountId === undefined)
      reasons.push(`No revenue account is called "${line.revenueAccount}".`);
    const contact = byNumber ?? byMail;
    if (reasons.length > 0 || !contact) {
      rejected.set(Row, reasons);
      return;
    }
    const key = line.reference ? `${contact.id}\u0000${line.reference}` : `row\u0000${Row}`;
    const group = groups.get(key);
    const newLine: NewInvoiceLine = {
      description: line.description,
      quantity: line.quantity,
      unitPriceCents: line.unitPriceCents,
      revenueAccountId: accountId ?? null,
    };
    if (!group) {
      groups.set(key, {
        rows: [Row],
        invoice: {
          rows: [Row],
          contactId: contact.id,
          contactName: contact.name,
          lines: [newLine],
          issueDate: line.issueDate,
          dueDate: line.dueDate,
          memo: line.memo,
          totalCents: line.quantity * line.unitPriceCents,
        },
      });
      return;
    }
    const inv = group.invoice;
    const first = inv.rows[0];
    if (
      (line.issueDate && line.issueDate !== inv.issueDate) ||
      (line.dueDate && line.dueDate !== inv.dueDate)
    ) {
      rejected.set(Row, [`The invoice ${line.reference} has other dates on row ${first}.`]);
      return;
    }
    inv.rows.push(Row);
    inv.lines.push(newLine);
    inv.totalCents += line.quantity * line.unitPriceCents;
    if (!inv.memo && line.memo) inv.memo = line.memo;
  });
  // An invoice is created whole or not at all: a refused row of a referenced invoice refuses its other rows.
  const refusedRefs = new Set<string>();
  csv.rows.forEach((r, i) => {
    const ref = mapping.Reference ? (r[mapping.Reference] ?? '').trim() : '';
    if (ref && rejected.has(csv.lines[i] ?? i + 2)) refusedRefs.add(ref);
  });
  const invoices: PlannedInvoice[] = [];
  for (const [key, g] of groups) {
    const ref = key.startsWith('row\u0000') ? null : key.slice(key.indexOf('\u0000') + 1);
    if (ref !== null && refusedRefs.has(ref)) {
      for (const r of g.invoice.rows)
        rejected.set(r, [`Another row of the invoice ${ref} is refused, so the invoice is not created.`]);
      continue;
    }
    invoices.push(g.invoice);
  }
  invoices.sort((a, b) => (a.rows[0] ?? 0) - (b.rows[0] ?? 0));
  return {
    invoices,
    rejected: [...rejected].map(([Row, Reasons]) => ({ Row, Reasons })).sort((a, b) => a.Row - b.Row),
  };
}

export async function dryRun(
  tx: Tx,
  auth: AuthContext,
  storage: Storage,
  id: string,
  mapping: InvoiceImportMapping,
) {
  const { upload, csv } = await openUpload(tx, auth, storage, id);
  const plan = await planInvoices(tx, auth.tenantId, csv, mapping);
  return {
    ImportId: upload.id,
    Rows: csv.rows.length,
    Invoices: plan.invoices.length,
    TotalCents: plan.invoices.reduce((s, i) => s + i.totalCents, 0),
    Rejected: plan.rejected.length,
    Planned: plan.invoices.slice(0, DRY_RUN_INVOICES).map((i) => ({
      Rows: i.rows,
      ContactId: i.contactId,
      ContactName: i.contactName,
      Lines: i.lines.length,
      TotalCents: i.totalCents,
      DueDate: i.dueDate,
    })),
    RejectedRows: plan.rejected.slice(0, DRY_RUN_REJECTED),
    Truncated: plan.invoices.length > DRY_RUN_INVOICES || plan.rejected.length > DRY_RUN_REJECTED,
  };
}

export async function startCommit(
  tx: Tx,
  auth: AuthContext,
  id: string,
  mapping: InvoiceImportMapping,
): Promise<void> {
  await startImportJob(tx, auth, id, INVOICE_IMPORT_JOB, { mapping });
}

/** The import's state (decision 0194) with its counts: the result's once it is done, else its committed parts'. */
export async function status(
  tx: Tx,
  auth: AuthContext,
  storage: Storage,
  id: string,
): Promise<InvoiceImportStatus> {
  const state = await importState(tx, auth, storage, id);
  const result = state.result as { Created: number; RejectedRows: RejectedRow[] } | undefined;
  const progress = state.progress as ImportProgress | undefined;
  return {
    ImportId: state.upload.id,
    FileName: state.upload.fileName,
    Status: state.status,
    Total: state.total,
    Processed: state.processed,
    Created: result?.Created ?? progress?.created ?? 0,
    Rejected: result?.RejectedRows.length ?? 0,
    RejectedRows: result?.RejectedRows.slice(0, DRY_RUN_REJECTED) ?? [],
    Error: state.error,
  };
}

interface ImportProgress {
  /** Planned invoices (in file order) whose part is committed. */
  done: number;
  created: number;
}

export function invoiceImportHandler(services: Services): JobHandler {
  return async (database: Database, job) => {
    const fileId = String(job.payload.fileId ?? '');
    const mapping = (job.payload.mapping ?? {}) as InvoiceImportMapping;
    if (job.userId === null) throw new PermanentJobError('The import has no user.');
    const auth = { tenantId: job.tenantId, userId: job.userId } as AuthContext;
    const inTx = <T>(work: (tx: Tx) => Promise<T>) =>
      withTenantTx(database.db, { tenantId: job.tenantId, userId: job.userId }, work);
    /** The upload locked for this run, and the job's payload as the last committed part left it. */
    const lockAndRead = async (tx: Tx) => (await lockImportRun(tx, job, fileId)) ?? {};
    const keep = (tx: Tx, values: ImportRunValues, done: number, total: number) =>
      keepInImportRun(tx, job, values, { done, total });

    // The plan is made once per run, against the contacts and accounts as they are; parts already committed
    // are skipped by their count (and their invoices' keys would answer the invoices already made).
    const planned = await inTx(async (tx) => {
      const payload = await lockAndRead(tx);
      if (payload.result) return null;
      const { csv } = await openUpload(tx, auth, services.storage, fileId);
      return planInvoices(tx, job.tenantId, csv, mapping);
    });
    if (!planned) return;
    const { invoices, rejected } = planned;
    const size = INVOICE_PART[database.kind];
    for (;;) {
      const more = await inTx(async (tx) => {
        const payload = await lockAndRead(tx);
        if (payload.result) return false;
        const sofar = (payload.progress as ImportProgress | undefined) ?? { done: 0, created: 0 };
        const part = invoices.slice(sofar.done, sofar.done + size);
        const inputs: NewInvoice[] = part.map((inv) => ({
          contactId: inv.contactId,
          lines: inv.lines,
          ...(inv.issueDate ? { issueDate: inv.issueDate } : {}),
          ...(inv.dueDate ? { dueDate: inv.dueDate } : {}),
          ...(inv.memo ? { memo: inv.memo } : {}),
          idempotencyKey: `import:${fileId}:${inv.rows[0]}`,
        }));
        const refused = (inv: PlannedInvoice | undefined, err: HttpError) => {
          const before =
            sofar.done === 0
              ? 'No invoice was created.'
              : `The invoices before row ${part[0]?.rows[0]} are created; the import goes on from there when it is run again.`;
          return new PermanentJobError(`Row ${inv?.rows[0] ?? part[0]?.rows[0]}: ${err.message} ${before}`);
        };
        let made: InvoiceSummary[];
        try {
          // The part in a few statements: numbers drawn as one block, lines and balanced entries set-based.
          made = await createInvoices(tx, services, job.tenantId, inputs);
        } catch (err) {
          if (!(err instanceof HttpError)) throw err;
          // A check refused the part before anything of it was written (a contact deleted since the dry run, a
          // revenue account made inactive): each invoice alone names the row, and the part is not kept.
          for (const [k, input] of inputs.entries()) {
            try {
              await createInvoice(tx, services, job.tenantId, input);
            } catch (one) {
              if (one instanceof HttpError) throw refused(part[k], one);
              throw one;
            }
          }
          throw refused(undefined, err);
        }
        // Each invoice made is in the audit log under the user who committed the file, in one statement.
        if (made.length > 0)
          await tx.insert(auditLog).values(
            made.map((m, k) => ({
              tenantId: job.tenantId,
              actorUserId: job.userId,
              action: 'import',
              entity: 'invoices',
              entityId: String(m.invoiceId),
              after: {
                number: m.number,
                contactId: m.contactId,
                totalCents: m.totalCents,
                file: fileId,
                rows: part[k]?.rows ?? [],
              },
            })),
          );
        const created = made.length;
        const now = { done: sofar.done + part.length, created: sofar.created + created };
        const total = invoices.length;
        if (now.done >= total) {
          await keep(
            tx,
            { progress: now, result: { Total: total, Created: now.created, RejectedRows: rejected } },
            total,
            total,
          );
          return false;
        }
        await keep(tx, { progress: now }, now.done, total);
        return true;
      });
      if (!more) break;
      // Requests that waited for the database while the part was written go first.
      await yieldToRequests();
    }
  };
}
