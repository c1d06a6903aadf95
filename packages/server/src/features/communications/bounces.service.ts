/**
 * Bounces read from delivery status notifications (RFC 3464). The mail server of the return-path domain hands each
 * message that arrives at a VERP address (`bounces+{tenant}.{token}@…`, decision 0152) to
 * `POST /api/communication/bounces` as raw mail. mailparser reads the MIME structure; the `message/delivery-status`
 * part (plain, or base64/quoted-printable, as mailparser decodes it) gives one report per recipient. The return
 * path (or, failing that, the List-Unsubscribe address of the returned message) names the mailing recipient; a hard
 * bounce (a failure with a 5.x.x status) marks that recipient bounced and puts the address on the suppression list,
 * so no later mailing reaches it; a soft one (4.x.x, or delayed) is counted in `mail_bounces`.
 */
import {
  type Database,
  mailBounces,
  mailingRecipients,
  mailSuppressions,
  rowsOf,
  type Tx,
  withTenantTx,
} from '@guildhall/db';
import {
  type BounceKind,
  type BounceOutcome,
  classifyRecipient,
  type Deliverability,
  parseDeliveryStatus,
  type RecipientReport,
  recipientTokenIn,
} from '@guildhall/shared';
import { and, desc, eq, sql } from 'drizzle-orm';

export interface ReadDsn {
  /** The recipient the return path names, when one does. */
  target: { tenantId: string; token: string } | null;
  reportingMta: string | null;
  reports: RecipientReport[];
}

const STATUS_TYPES = new Set(['message/delivery-status', 'message/global-delivery-status']);

/** Reads raw mail: its delivery-status reports (none: not a DSN) and the recipient its return path names. */
export async function readDsn(raw: Buffer | string, envelopeTo?: string): Promise<ReadDsn> {
  // mailparser is loaded with the first bounce read, not at start (about 28 MiB resident, decision 0086).
  const { simpleParser } = await import('mailparser');
  const mail = await simpleParser(raw, { keepDeliveryStatus: true, skipHtmlToText: true });
  const statusParts = mail.attachments.filter((a) => STATUS_TYPES.has(a.contentType.toLowerCase()));
  const reports: RecipientReport[] = [];
  let reportingMta: string | null = null;
  for (const part of statusParts) {
    const parsed = parseDeliveryStatus(part.content.toString('utf8'));
    reportingMta ??= parsed.message['reporting-mta'] ?? null;
    for (const fields of parsed.recipients) reports.push(classifyRecipient(fields));
  }
  // Where the DSN was delivered names the recipient: the envelope (given by the mail server), the headers the
  // delivery added, the DSN's To; then the returned message's own headers (its List-Unsubscribe address).
  const header = (name: string) => {
    const v = mail.headers.get(name);
    if (!v) return '';
    if (typeof v === 'string') return v;
    if (typeof v === 'object' && 'text' in v) return String((v as { text: string }).text);
    return JSON.stringify(v);
  };
  const returned = mail.attachments
    .filter((a) => /^(message\/rfc822|text\/rfc822-headers|message\/global)/i.test(a.contentType))
    .map((a) => a.content.toString('utf8').split(/\r?\n\r?\n/)[0] ?? '');
  const places = [
    envelopeTo ?? '',
    header('delivered-to'),
    header('x-original-to'),
    header('envelope-to'),
    header('to'),
    ...statusParts.map((p) => p.content.toString('utf8')),
    ...returned,
    mail.text ?? '',
  ];
  let target: ReadDsn['target'] = null;
  for (const place of places) {
    target = recipientTokenIn(place);
    if (target) break;
  }
  return { target, reportingMta, reports };
}

/**
 * Records what a DSN says about the recipient its return path names: every failure report becomes a `mail_bounces`
 * row; a hard one marks the recipient bounced and suppresses the address the message was sent to (not the final
 * recipient a forward may have changed).
 */
export async function recordDsn(database: Database, dsn: ReadDsn): Promise<BounceOutcome> {
  const failures = dsn.reports.filter((r) => r.kind !== null);
  if (dsn.reports.length === 0)
    return { Matched: false, Hard: 0, Soft: 0, Message: 'Not a delivery status notification.' };
  if (!dsn.target)
    return {
      Matched: false,
      Hard: 0,
      Soft: 0,
      Message: 'No recipient of ours is named in this notification.',
    };
  const { tenantId, token } = dsn.target;
  return withTenantTx(database.db, { tenantId }, async (tx) => {
    const [r] = await tx
      .select()
      .from(mailingRecipients)
      .where(and(eq(mailingRecipients.tenantId, tenantId), eq(mailingRecipients.token, token)));
    if (!r)
      return {
        Matched: false,
        Hard: 0,
        Soft: 0,
        Message: 'No recipient of ours is named in this notification.',
      };
    // A DSN about several recipients (one message to many) concerns ours when it names its address; a VERP
    // return path is per recipient, so a report naming no address, or the only failure, is ours too.
    const ours = failures.filter((f) => f.email === null || f.email === r.email);
    const relevant = ours.length > 0 ? ours : failures.length === 1 ? failures : [];
    let hard = 0;
    let soft = 0;
    for (const f of relevant) {
      const kind = f.kind as BounceKind;
      if (kind === 'hard') hard++;
      else soft++;
      await tx.insert(mailBounces).values({
        tenantId,
        recipientId: r.recipientId,
        mailingId: r.mailingId,
        contactId: r.contactId,
        email: r.email,
        kind,
        status: f.status,
        action: f.action || null,
        diagnostic: f.diagnostic?.slice(0, 1000) ?? null,
        reportingMta: dsn.reportingMta?.slice(0, 300) ?? null,
      });
    }
    const worst = relevant.find((f) => f.kind === 'hard');
    if (worst) {
      const detail = `${worst.status ?? 'failed'} ${worst.diagnostic ?? ''}`.trim().slice(0, 1000);
      await tx
        .update(mailingRecipients)
        .set({ status: 'bounced', lastError: `Bounced (DSN): ${detail}`, updatedAt: new Date() })
        .where(
          and(eq(mailingRecipients.tenantId, tenantId), eq(mailingRecipients.recipientId, r.recipientId)),
        );
      await tx
        .insert(mailSuppressions)
        .values({ tenantId, email: r.email, reason: 'bounced', detail })
        .onConflictDoNothing();
    }
    return {
      Matched: true,
      Hard: hard,
      Soft: soft,
      Message: hard
        ? `${r.email} bounced (${worst?.status ?? 'failed'}); the address is suppressed.`
        : soft
          ? `${r.email} bounced softly; counted.`
          : 'No failure reported.',
    };
  });
}

/** A contact's address and what is known of its deliverability: suppressed or not, and its bounces. */
export async function contactDeliverability(
  tx: Tx,
  tenantId: string,
  contactId: number,
): Promise<Deliverability> {
  const [c] = rowsOf<{ email: string | null }>(
    await tx.execute(
      sql`select lower(email) as email from contacts where tenant_id = ${tenantId} and contact_id = ${contactId}`,
    ),
  );
  const email = c?.email || null;
  const empty: Deliverability = {
    Email: email,
    Suppressed: null,
    HardBounces: 0,
    SoftBounces: 0,
    LastBounce: null,
  };
  if (!email) return empty;
  const [s] = await tx
    .select()
    .from(mailSuppressions)
    .where(and(eq(mailSuppressions.tenantId, tenantId), eq(mailSuppressions.email, email)));
  const counts = await tx
    .select({ kind: mailBounces.kind, n: sql<number>`count(*)::int` })
    .from(mailBounces)
    .where(and(eq(mailBounces.tenantId, tenantId), eq(mailBounces.email, email)))
    .groupBy(mailBounces.kind);
  const [last] = await tx
    .select()
    .from(mailBounces)
    .where(and(eq(mailBounces.tenantId, tenantId), eq(mailBounces.email, email)))
    .orderBy(desc(mailBounces.createdAt), desc(mailBounces.bounceId))
    .limit(1);
  return {
    Email: email,
    Suppressed: s ? { Reason: s.reason, Detail: s.detail, CreatedAt: s.createdAt.toISOString() } : null,
    HardBounces: Number(counts.find((x) => x.kind === 'hard')?.n ?? 0),
    SoftBounces: Number(counts.find((x) => x.kind === 'soft')?.n ?? 0),
    LastBounce: last
      ? {
          Kind: last.kind,
          Status: last.status,
          Diagnostic: last.diagnostic,
          CreatedAt: last.createdAt.toISOString(),
        }
      : null,
  };
}

/** Staff lift a suppression (a fixed mailbox): the address receives mailings again. */
export async function liftSuppression(tx: Tx, tenantId: string, email: string): Promise<void> {
  await tx
    .delete(mailSuppressions)
    .where(and(eq(mailSuppressions.tenantId, tenantId), eq(mailSuppressions.email, email.toLowerCase())));
}
