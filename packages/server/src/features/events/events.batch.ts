/**
 * Registration group commit (decision 0140): registrations for the same occurrence that arrive together are taken in
 * one transaction (`registerBatch`: one statement takes their seats, one writes all their attendees). A request waits
 * for its batch without holding a connection; while a batch runs, the next arrivals queue for the one after it. A batch
 * that leaves its occurrence full with no waitlist marks it known full (events.full.ts).
 */
import { type Database, withTenantTx } from '@guildhall/db';
import type { Services } from '../../platform/services.ts';
import { FULL_TTL_MS, fullKey, knownFull, refusedAsFull } from './events.full.ts';
import { type BatchEntry, type BatchResult, registerBatch } from './events.service.ts';

/** Registrations taken in one transaction at most. */
const MAX_BATCH = 200;

export interface RegistrationBatcher {
  /** Registers in the next batch of the occurrence; its own answer or refusal. */
  submit(tenantId: string, eventDetailId: number, entry: BatchEntry): Promise<BatchResult>;
}

export function registrationBatcher(database: Database, services: Services): RegistrationBatcher {
  const queues = new Map<string, { tenantId: string; eventDetailId: number; waiting: Waiting[] }>();
  type Waiting = { entry: BatchEntry; done: (r: BatchResult) => void };

  const runBatch = (tenantId: string, eventDetailId: number, entries: BatchEntry[]) =>
    withTenantTx(database.db, { tenantId }, (tx) =>
      registerBatch(tx, tenantId, eventDetailId, entries, services),
    );

  async function drain(key: string) {
    const queue = queues.get(key);
    if (!queue) return;
    const { tenantId, eventDetailId } = queue;
    while (queue.waiting.length > 0) {
      // Those that the batch before this one left known full (no waitlist) are refused as the ones that arrive from
      // now on are, without the database; the others are this batch.
      const batch: Waiting[] = [];
      for (const b of queue.waiting.splice(0, MAX_BATCH)) {
        const full = refusedAsFull(tenantId, eventDetailId, b.entry.channel);
        if (full) b.done({ refused: full });
        else batch.push(b);
      }
      if (batch.length === 0) continue;
      try {
        const { results, seats, detail } = await runBatch(
          tenantId,
          eventDetailId,
          batch.map((b) => b.entry),
        );
        if (
          seats &&
          detail &&
          !seats.waitlistEnabled &&
          seats.capacity !== null &&
          seats.taken >= seats.capacity
        )
          knownFull.set(key, { until: Date.now() + FULL_TTL_MS, ...detail });
        else if (seats) knownFull.delete(key);
        for (const [i, b] of batch.entries())
          b.done(results[i] ?? { error: new Error('No answer in the batch.') });
      } catch {
        // The batch's transaction failed as a whole (a database error): each registration is taken alone, so that
        // a failure is only its own.
        for (const b of batch) {
          try {
            const { results } = await runBatch(tenantId, eventDetailId, [b.entry]);
            b.done(results[0] ?? { error: new Error('No answer in the batch.') });
          } catch (error) {
            b.done({ error });
          }
        }
      }
    }
    queues.delete(key);
  }

  return {
    submit(tenantId, eventDetailId, entry) {
      return new Promise((done) => {
        const key = fullKey(tenantId, eventDetailId);
        const queue = queues.get(key);
        if (queue) {
          queue.waiting.push({ entry, done });
          return;
        }
        queues.set(key, { tenantId, eventDetailId, waiting: [{ entry, done }] });
        // One turn of the event loop gathers the registrations that arrived together.
        setImmediate(() => void drain(key));
      });
    },
  };
}
