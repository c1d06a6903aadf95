/**
 * The state of both CSV imports (contacts, "Create invoices from file") by one rule (decision 0194), through their
 * status routes: uploaded, queued, then running with the progress its committed parts stored, the progress the
 * running instance wrote beside its transaction and, on the instance that runs it, its live count; queued for
 * another attempt and failed with what the committed parts stored; done with every unit. The job is claimed and its
 * row written here as a running instance would, so that each state is seen for certain; then a worker runs it.
 */
import { q, rowsOf, runFragment, withTenantTx } from '@guildhall/db';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../src/app.ts';
import { importRunProgress, keepInImportRun } from '../src/platform/csv-import.ts';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
  unique,
  uploadFile,
} from './helpers.ts';

interface Status {
  ImportId: string;
  FileName: string;
  Status: string;
  Total: number;
  Processed: number;
  Created: number;
  Error: string | null;
}

let ctx: TestContext;
let t: TenantWithUsers;
let cookie: string;
/** Another instance on the same database, serving requests only: it counts no run of its own. */
let other: App;

beforeAll(async () => {
  // A database of its own: on the shared one another file's worker could claim the job the test holds queued.
  ctx = await testApp({}, 4, { ownDatabase: true });
  // No run starts by itself: the test claims each job and writes its row as a running instance would.
  await ctx.app.worker.stop();
  t = await seedTenant(ctx.database);
  cookie = (await signIn(ctx.app, t.staff)).cookie;
  await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, async (tx) => {
    await runFragment(
      tx,
      q`insert into contacts (tenant_id, first_name, last_name, display_name, status, account_number, email)
        values (${t.tenant.id}::uuid, 'Ada', 'Byron', 'Byron, Ada', 'active', 'S-1001', 'ada.status@example.org')`,
    );
    await runFragment(
      tx,
      q`insert into ledger_accounts (tenant_id, code, name, kind) values (${t.tenant.id}::uuid, '4100', 'Dues', 'revenue')`,
    );
  });
  other = await buildApp({ database: ctx.database, config: ctx.config });
  await other.ready();
  await other.worker.stop();
});
afterAll(async () => {
  await other?.close();
  await ctx.close();
});

const imports = [
  {
    name: 'contacts',
    base: '/api/contacts/import',
    units: 3,
    csv: () =>
      [
        'First,Last,Email',
        ...[1, 2, 3].map((i) => `P${i},Status,${unique('status.').toLowerCase()}@example.org`),
      ].join('\n'),
    progress: (done: number) => ({ done, created: done, updated: 0, refused: [] }),
  },
  {
    name: 'invoices',
    base: '/api/billing/invoices/import',
    units: 3,
    csv: () =>
      [
        'Account number,Item,Qty,Unit price,Revenue account',
        'S-1001,Annual dues,1,120,4100',
        'S-1001,Gala ticket,2,45,4100',
        'S-1001,Donation,1,25,4100',
      ].join('\n'),
    progress: (done: number) => ({ done, created: done }),
  },
] as const;

async function jobOf(id: string): Promise<{ id: string; tenantId: string }> {
  const r = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
    tx.execute(sql`select job_id from stored_files where tenant_id = ${t.tenant.id} and id = ${id}`),
  );
  const jobId = rowsOf<{ job_id: string | null }>(r)[0]?.job_id;
  if (!jobId) throw new Error('no job');
  return { id: jobId, tenantId: t.tenant.id };
}

/** Writes the job's row (as the owner: a running instance's own statements, or a stop between two runs). */
function setJob(jobId: string, set: string): Promise<unknown> {
  return ctx.database.ownerExec(`UPDATE jobs SET ${set} WHERE id = '${jobId}'`);
}

describe.each(imports)('the $name import’s state', (imp) => {
  const statusOn = async (app: App, id: string): Promise<Status> => {
    const res = await client(app, cookie).get(`${imp.base}/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Status;
  };

  it('answers uploaded, queued, running by the stored progress refined by the live count here, queued and failed by the committed parts, done by every unit', async () => {
    const up = await uploadFile(ctx.app, cookie, `${imp.base}/upload`, imp.csv(), 'status.csv');
    expect(up.statusCode, up.body).toBe(200);
    const { ImportId: id, Mapping } = up.json() as { ImportId: string; Mapping: Record<string, string> };
    expect(await statusOn(ctx.app, id)).toMatchObject({
      ImportId: id,
      FileName: 'status.csv',
      Status: 'uploaded',
      Total: 0,
      Processed: 0,
      Created: 0,
      Error: null,
    });

    const commit = await client(ctx.app, cookie).post(`${imp.base}/commit`, { ImportId: id, Mapping });
    expect(commit.statusCode, commit.body).toBe(202);
    expect(commit.json()).toMatchObject({ Status: 'queued', Total: 0, Processed: 0 });
    const job = await jobOf(id);

    // Claimed by an instance that has not planned it yet: running, nothing stored.
    await setJob(job.id, `status = 'running', attempts = attempts + 1, locked_at = now()`);
    expect(await statusOn(ctx.app, id)).toMatchObject({ Status: 'running', Total: 0, Processed: 0 });

    // A part committed: its progress stored in the part's transaction, read on every instance.
    await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      keepInImportRun(tx, job, { progress: imp.progress(1) }, { done: 1, total: imp.units }),
    );
    for (const app of [ctx.app, other])
      expect(await statusOn(app, id)).toMatchObject({
        Status: 'running',
        Total: imp.units,
        Processed: 1,
        Created: 1,
      });

    // The running instance wrote more beside its transaction: running answers the most stored.
    await setJob(job.id, 'progress_done = 2');
    expect(await statusOn(other, id)).toMatchObject({ Status: 'running', Total: imp.units, Processed: 2 });

    // A run counting on this instance refines it here; the other instance answers what is stored.
    const run = importRunProgress(ctx.database, ctx.app.storage, job);
    run.report(3, imp.units);
    expect(await statusOn(ctx.app, id)).toMatchObject({ Status: 'running', Processed: 3 });
    const elsewhere = await statusOn(other, id);
    expect(elsewhere.Processed).toBeGreaterThanOrEqual(2);
    expect(elsewhere.Processed).toBeLessThanOrEqual(3);
    await run.end();
    // Ended: what is stored, with what the run wrote beside its transaction on PostgreSQL (none on PGlite).
    const stored = ctx.database.kind === 'postgres' ? 3 : 2;
    for (const app of [ctx.app, other])
      expect(await statusOn(app, id)).toMatchObject({ Status: 'running', Processed: stored });

    // Queued for another attempt, then failed: what the committed parts stored, which a next run goes on from.
    await setJob(job.id, `status = 'queued', error = 'Passing fault.'`);
    expect(await statusOn(ctx.app, id)).toMatchObject({
      Status: 'queued',
      Total: imp.units,
      Processed: 1,
      Created: 1,
      Error: null,
    });
    await setJob(job.id, `status = 'failed', error = 'Row 3: Injected fault.'`);
    expect(await statusOn(other, id)).toMatchObject({
      Status: 'failed',
      Total: imp.units,
      Processed: 1,
      Error: 'Row 3: Injected fault.',
    });

    // Run from the start by a working instance (the progress written here was not a real part's): done.
    await setJob(
      job.id,
      `status = 'queued', error = NULL, attempts = 0, run_after = now(), locked_at = NULL,
       progress_done = NULL, progress_total = NULL, payload = payload - 'progress'`,
    );
    const worker = await buildApp({ database: ctx.database, config: ctx.config });
    try {
      await worker.ready();
      let s: Status | undefined;
      for (let i = 0; i < 300; i++) {
        await worker.worker.drain(t.tenant.id);
        s = await statusOn(ctx.app, id);
        if (s.Status === 'done' || s.Status === 'failed') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const done = {
        Status: 'done',
        Total: imp.units,
        Processed: imp.units,
        Created: imp.units,
        Error: null,
      };
      expect(s).toMatchObject(done);
      expect(await statusOn(other, id)).toMatchObject(done);
    } finally {
      await worker.close();
    }
  }, 120_000);
});
