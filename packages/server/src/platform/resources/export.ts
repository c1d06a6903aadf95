/**
 * Export of a list: the list request with $skip 0 and $top 999999999 queues an `export` job and answers the id of
 * the file it will write. The job reads the rows through a cursor in batches inside the tenant's transaction and
 * streams them as CSV (one chunk per batch) to storage: the whole result is never held in memory.
 */
import { Readable } from 'node:stream';
import {
  type Database,
  type Fragment,
  joinFragments,
  q,
  raw,
  rowsOf,
  runFragment,
  storedFiles,
  type Tx,
  withTenantTx,
} from '@guildhall/db';
import { csvLine, listRequestSchema, UTF8_BOM } from '@guildhall/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { ClaimedJob, JobHandler } from '../jobs.ts';
import type { JobQueue } from '../services.ts';
import type { Storage } from '../storage.ts';
import { type ExtraFields, extraFieldsOf } from './extra-fields.ts';
import { planList } from './query.ts';
import type { BoundResource } from './registry.ts';
import type { ExportStarter } from './resource.service.ts';

export const EXPORT_JOB = 'export';
/**
 * Rows per cursor fetch: one round trip and one CSV chunk each. Small enough that a batch dies young in the
 * JavaScript heap (2,000 rows made the server's memory grow by about 20 MiB per 300,000 rows exported; 500 keeps it
 * within a few MiB), large enough that the round trips stay a small part of the time (decision 0060).
 */
const BATCH = 500;

export function exportStarter(jobs: JobQueue): ExportStarter {
  return async (tx, auth, bound, request) => {
    const fileName = `${bound.resource.name}-${new Date().toISOString().slice(0, 10)}.csv`;
    const [file] = await tx
      .insert(storedFiles)
      .values({
        tenantId: auth.tenantId,
        userId: auth.userId,
        fileName,
        contentType: 'text/csv; charset=utf-8',
      })
      .returning({ id: storedFiles.id });
    if (!file) throw new Error('file insert returned nothing');
    const jobId = await jobs.enqueue(tx, {
      tenantId: auth.tenantId,
      kind: EXPORT_JOB,
      userId: auth.userId,
      payload: { resource: bound.resource.name, fileId: file.id, ...request },
    });
    await tx
      .update(storedFiles)
      .set({ jobId })
      .where(and(eq(storedFiles.tenantId, auth.tenantId), eq(storedFiles.id, file.id)));
    return file.id;
  };
}

/**
 * The export's rows in batches through a cursor, each row already one CSV line made by the database
 * (`gh_csv_field` per column, joined by commas): one text value per row to read instead of one per column, and
 * no quoting in JavaScript.
 */
async function* batches(
  tx: Tx,
  bound: BoundResource,
  tenantId: string,
  columns: string[],
  where: Fragment | undefined,
  orderBy: Fragment,
  extra: ExtraFields,
) {
  const cells = columns.map((f) => {
    const column = bound.sqlColumns[f];
    return q`gh_csv_field(${column ?? extra.get(f)?.exportText ?? raw('null')}::text)`;
  });
  const line = q`concat_ws(',', ${joinFragments(cells, ', ')})`;
  const scope = where
    ? q`${bound.sqlTenant} = ${tenantId} and ${where}`
    : q`${bound.sqlTenant} = ${tenantId}`;
  await runFragment(
    tx,
    q`declare gh_export no scroll cursor for select ${line} as line from ${bound.sqlSource} where ${scope} order by ${orderBy}`,
  );
  for (;;) {
    const rows = rowsOf<{ line: string }>(await tx.execute(sql.raw(`fetch ${BATCH} from gh_export`)));
    if (rows.length === 0) break;
    yield rows;
    if (rows.length < BATCH) break;
  }
  await tx.execute(sql`close gh_export`);
}

export function exportHandler(resources: readonly BoundResource[], storage: Storage): JobHandler {
  return async (database: Database, job: ClaimedJob) => {
    const p = job.payload as {
      resource: string;
      fileId: string;
      orderby?: string;
      search?: string;
      body: unknown;
      columns: string[];
    };
    const bound = resources.find((r) => r.resource.name === p.resource);
    if (!bound) throw new Error(`unknown resource ${p.resource}`);
    const key = `${job.tenantId}/exports/${p.fileId}.csv`;
    await withTenantTx(database.db, { tenantId: job.tenantId, userId: job.userId }, async (tx) => {
      // Custom fields (decision 0112) are read with the tenant's definitions as they are now.
      const extra = await extraFieldsOf(tx, job.tenantId, bound);
      const plan = planList(bound, listRequestSchema.parse(p.body ?? {}), p.orderby, p.search, extra);
      const columns = p.columns.filter((c) => bound.columns[c] || extra.has(c));
      const header = columns.map(
        (c) => bound.resource.fields[c]?.label ?? extra.get(c)?.declaration.label ?? c,
      );
      // One CSV chunk per batch: the stream carries a few hundred chunks for a million rows, not a million records.
      // The BOM first, so that Excel reads UTF-8; every cell spreadsheet-safe (gh_csv_field, csvLine).
      const csv = Readable.from(
        (async function* () {
          yield `${UTF8_BOM}${csvLine(header)}\n`;
          for await (const rows of batches(
            tx,
            bound,
            job.tenantId,
            columns,
            plan.where,
            plan.orderBy,
            extra,
          )) {
            let chunk = '';
            for (const row of rows) chunk += `${row.line}\n`;
            yield chunk;
          }
        })(),
        { objectMode: false },
      );
      const size = await storage.put(key, csv);
      await tx
        .update(storedFiles)
        .set({ status: 'ready', storageKey: key, size, readyAt: new Date() })
        .where(and(eq(storedFiles.tenantId, job.tenantId), eq(storedFiles.id, p.fileId)));
    });
  };
}
