import { type Database, mailOutbox, withTenantTx } from '@guildhall/db';
import { and, eq } from 'drizzle-orm';
import nodemailer from 'nodemailer';

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
}

export const REDACTED = '[hidden: sent to the recipient only]';

/** The message as the outbox keeps it: every secret replaced. */
export function redact(text: string, secrets: readonly string[] | undefined): string {
  let out = text;
  for (const secret of secrets ?? []) if (secret) out = out.replaceAll(secret, REDACTED);
  return out;
}

export interface Mailer {
  /** Keeps the message in the tenant's outbox, then delivers it by SMTP when SMTP is configured. */
  send(tenantId: string, message: MailMessage): Promise<{ id: number; delivered: boolean }>;
  /**
   * Delivers a message that belongs to no association yet (the minimal sign-up's link): by SMTP when configured,
   * never kept in an outbox. Answers whether it was delivered.
   */
  sendWithoutTenant(message: MailMessage): Promise<{ delivered: boolean }>;
  close(): void;
}

/** One mailer for the whole product. */
export function createMailer(database: Database, smtpUrl: string | undefined, from: string): Mailer {
  const transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : undefined;
  return {
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
          })
          .returning({ id: mailOutbox.id }),
      );
      if (!row) throw new Error('outbox insert returned nothing');
      if (!transport) return { id: row.id, delivered: false };
      let error: string | null = null;
      try {
        const { secrets: _secrets, ...delivery } = message;
        await transport.sendMail({ from, ...delivery });
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
      await withTenantTx(database.db, { tenantId }, (tx) =>
        tx
          .update(mailOutbox)
          .set(error ? { error } : { sentAt: new Date() })
          .where(and(eq(mailOutbox.tenantId, tenantId), eq(mailOutbox.id, row.id))),
      );
      return { id: row.id, delivered: !error };
    },
    async sendWithoutTenant(message) {
      if (!transport) return { delivered: false };
      const { secrets: _secrets, ...delivery } = message;
      await transport.sendMail({ from, ...delivery });
      return { delivered: true };
    },
    close() {
      transport?.close();
    },
  };
}
