/**
 * The occurrences known to be full (decision 0140): once a batch of registrations leaves an occurrence full with no
 * waitlist, further registrations are refused without the database until a seat frees here (a cancel, a voided
 * invoice, a changed capacity or waitlist forget it) or, for what another app process frees, until the entry's short
 * time to live ends: a stale "full" lasts at most that long, never while seats stay free.
 */
import { decideRegistration } from '@guildhall/shared';
import type { FastifyReply } from 'fastify';

/** How long an occurrence known full is refused without the database (what another process frees shows by then). */
export const FULL_TTL_MS = 1000;

/** What a registration must pass before "full" is its answer (the checks the database path makes first). */
export interface FullEntry {
  until: number;
  published: boolean;
  isPublic: boolean;
  registrationOpen: boolean;
  startsAt: number;
}

/** The occurrences this process knows full, by association and occurrence. */
export const knownFull = new Map<string, FullEntry>();
export const fullKey = (tenantId: string, eventDetailId: number) => `${tenantId}:${eventDetailId}`;

/** Forgets what is known full: one occurrence, or every occurrence of the association (a capacity changed). */
export function forgetFull(tenantId: string, eventDetailId?: number): void {
  if (eventDetailId !== undefined) {
    knownFull.delete(fullKey(tenantId, eventDetailId));
    return;
  }
  for (const key of knownFull.keys()) if (key.startsWith(`${tenantId}:`)) knownFull.delete(key);
}

/**
 * A registration's refusal as its answer (status and JSON body `{message}`, the body the error handler would write):
 * sent as it is, with no error object, stack or error handler per refusal. A burst refuses hundreds of them.
 */
export interface Refusal {
  status: number;
  body: string;
}

const fullDecision = decideRegistration([{ capacity: 0, taken: 0 }], 1, false);
/** "This event is full; no more registrations are taken." (the shared rule's words), ready to send. */
export const FULL_REFUSAL: Refusal = {
  status: 409,
  body: JSON.stringify({
    message: fullDecision.outcome === 'refused' ? fullDecision.message : 'This event is full.',
  }),
};

/** The refusal of a registration with this message (409); the full occurrence's is made once. */
export function refusal(message: string): Refusal {
  const body = JSON.stringify({ message });
  return body === FULL_REFUSAL.body ? FULL_REFUSAL : { status: 409, body };
}

/** Answers a refusal. */
export function sendRefusal(reply: FastifyReply, r: Refusal): FastifyReply {
  return reply.code(r.status).type('application/json; charset=utf-8').send(r.body);
}

/**
 * The refusal of a registration for an occurrence known full, or null (not known full, or the entry is stale, or a
 * check that comes before the seats would answer otherwise: that answer comes from the database).
 */
export function refusedAsFull(
  tenantId: string,
  eventDetailId: number,
  channel: 'backoffice' | 'member' | 'public',
): Refusal | null {
  const entry = knownFull.get(fullKey(tenantId, eventDetailId));
  if (!entry) return null;
  const now = Date.now();
  if (entry.until <= now) {
    knownFull.delete(fullKey(tenantId, eventDetailId));
    return null;
  }
  if (channel !== 'backoffice') {
    if (!entry.published || !entry.registrationOpen || entry.startsAt <= now) return null;
    if (channel === 'public' && !entry.isPublic) return null;
  }
  return FULL_REFUSAL;
}
