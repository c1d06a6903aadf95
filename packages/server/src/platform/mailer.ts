import { type Database, mailOutbox, withTenantTx } from '@guildhall/db';
import { and, eq } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /**
   * Parts of the text that only the delivery may carry (a reset link's token): the outbox keeps the message with
   * each of them replaced by REDACTED, so nobody reading the outbox can use them.
   */
  secrets?: readonly string[];
  /** Files sent with the message (an invoice's PDF); the outbox keeps their names, types and sizes. */
  attachments?: readonly MailAttachment[];
  /** The envelope sender: where bounces (DSN) go (a VERP address naming the message's recipient). */
  returnPath?: string;
}

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/** A message of a mailing or a feature's templated message: headers of its own and a return path (VERP). */
export interface DeliveryMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post, Message-ID). */
  headers?: Record<string, string>;
  /** The envelope sender: where bounces (DSN) go. */
  returnPath?: string;
}

/** What the SMTP server answered: accepted, or refused for now (4xx: try again) or for good (5xx: bounced). */
export type DeliveryResult =
  | { ok: true; response: string; kept: boolean }
  | { ok: false; permanent: boolean; code: number | null; message: string };

export const REDACTED = '[hidden: sent to the recipient only]';

/** The message as the outbox keeps it: every secret replaced. */
export function redact(text: string, secrets: readonly string[] | undefined): string {
  let out = text;
  for (const secret of secrets ?? []) if (secret) out = out.replaceAll(secret, REDACTED);
  return out;
}

export interface Mailer {
  /**
   * Keeps the message in the tenant's outbox, then delivers it by SMTP when SMTP is configured. Not delivered by an
   * SMTP server that answered, `refusal` says what it answered (a 5xx code is a bounce).
   */
  send(
    tenantId: string,
    message: MailMessage,
  ): Promise<{ id: number; delivered: boolean; refusal?: { code: number | null; message: string } }>;
  /**
   * Delivers a message that belongs to no association yet (the minimal sign-up's link): by SMTP when configured,
   * never kept in an outbox. Answers whether it was delivered.
   */
  sendWithoutTenant(message: MailMessage): Promise<{ delivered: boolean }>;
  /**
   * One message of a mailing: straight to SMTP when SMTP is configured (pooled connections; the caller keeps the
   * per-recipient log), otherwise kept in the outbox (`kept`) as every message is without SMTP.
   */
  deliver(tenantId: string, message: DeliveryMessage): Promise<DeliveryResult>;
  close(): void;
}

/**
 * nodemailer is loaded with the first message sent over SMTP, not at start: it keeps about 20 MiB resident, and
 * without SMTP (the default) every message is kept in the outbox (decision 0086).
 */
let nodemailerModule: Promise<typeof import('nodemailer').default> | undefined;
const loadNodemailer = () => (nodemailerModule ??= import('nodemailer').then((m) => m.default));

/** One mailer for the whole product. */
export function createMailer(database: Database, smtpUrl: string | undefined, from: string): Mailer {
  let transport: Promise<Transporter> | undefined;
  const direct = (): Promise<Transporter> | undefined => {
    if (!smtpUrl) return undefined;
    transport ??= loadNodemailer().then((nodemailer) => nodemailer.createTransport(smtpUrl));
    return transport;
  };
  // Mailings go through a pool of connections, each reused for many messages.
  let pool: Promise<Transporter> | undefined;
  const pooled = (): Promise<Transporter> | undefined => {
    if (!smtpUrl) return undefined;
    if (!pool) {
      const url = new URL(smtpUrl);
      url.searchParams.set('pool', 'true');
      url.searchParams.set('maxConnections', url.searchParams.get('maxConnections') ?? '8');
      url.searchParams.set('maxMessages', url.searchParams.get('maxMessages') ?? '1000');
      pool = loadNodemailer().then((nodemailer) => nodemailer.createTransport(url.toString()));
    }
    return pool;
  };
  return {
    async deliver(tenantId, message) {
      const smtp = await pooled();
      if (!smtp) {
        await withTenantTx(database.db, { tenantId }, (tx) =>
          tx.insert(mailOutbox).values({
            tenantId,
            to: message.to,
            subject: message.subject,
            text: message.text,
            html: message.html,
          }),
        );
        return { ok: true, response: 'kept in the outbox', kept: true };
      }
      try {
        const info = await smtp.sendMail({
          from,
          to: message.to,
          subject: message.subject,
          html: message.html,
          text: message.text,
          headers: message.headers ?? {},
          ...(message.returnPath ? { envelope: { from: message.returnPath, to: message.to } } : {}),
        });
        return { ok: true, response: String(info.response ?? ''), kept: false };
      } catch (e) {
        const err = e as { responseCode?: number; message?: string; code?: string };
        const code = typeof err.responseCode === 'number' ? err.responseCode : null;
        // A 5xx answer is final (a bounce); no answer at all (connection) or a 4xx is worth another try.
        return {
          ok: false,
          permanent: code !== null && code >= 500,
          code,
          message: err.message ?? String(e),
        };
      }
    },
    async send(tenantId, message) {
      const [row] = await withTenantTx(database.db, { tenantId }, (tx) =>
        tx
          .insert(mailOutbox)
          .values({
            tenantId,
            to: message.to,
            subject: message.subject,
            text: redact(message.text, message.secrets),
            html: message.html === undefined ? null : redact(message.html, message.secrets),
            attachments: message.attachments?.length
              ? message.attachments.map((a) => ({
                  filename: a.filename,
                  contentType: a.contentType,
                  size: a.content.length,
                }))
              : null,
          })
          .returning({ id: mailOutbox.id }),
      );
      if (!row) throw new Error('outbox insert returned nothing');
      const smtp = direct();
      if (!smtp) return { id: row.id, delivered: false };
      let error: string | null = null;
      let code: number | null = null;
      try {
        const { secrets: _secrets, attachments, returnPath, ...delivery } = message;
        await (await smtp).sendMail({
          from,
          ...delivery,
          ...(attachments ? { attachments: [...attachments] } : {}),
          ...(returnPath ? { envelope: { from: returnPath, to: message.to } } : {}),
        });
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
        const answered = (e as { responseCode?: unknown }).responseCode;
        code = typeof answered === 'number' ? answered : null;
      }
      await withTenantTx(database.db, { tenantId }, (tx) =>
        tx
          .update(mailOutbox)
          .set(error ? { error } : { sentAt: new Date() })
          .where(and(eq(mailOutbox.tenantId, tenantId), eq(mailOutbox.id, row.id))),
      );
      return error
        ? { id: row.id, delivered: false, refusal: { code, message: error } }
        : { id: row.id, delivered: true };
    },
    async sendWithoutTenant(message) {
      const smtp = direct();
      if (!smtp) return { delivered: false };
      const { secrets: _secrets, attachments, returnPath: _returnPath, ...delivery } = message;
      await (await smtp).sendMail({
        from,
        ...delivery,
        ...(attachments ? { attachments: [...attachments] } : {}),
      });
      return { delivered: true };
    },
    close() {
      transport?.then(
        (t) => t.close(),
        () => undefined,
      );
      pool?.then(
        (t) => t.close(),
        () => undefined,
      );
    },
  };
}
