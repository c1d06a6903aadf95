/**
 * System messages (decision 0154): the transactional mail other features send (a password reset, an invitation, an
 * invoice, an event confirmation, a renewal reminder), each declared by its feature with default wording and values
 * (`mailTemplates` of its module). Staff reword one for their association in Communications (a `system_templates`
 * row; deleting it restores the default). When the feature sends it, the association's wording (or the default) is
 * rendered with the message's values by the strict Liquid renderer of decision 0151 and delivered by the platform
 * mailer (outbox, then SMTP), secrets hidden from the outbox as before.
 */

import { randomBytes } from 'node:crypto';
import {
  type Database,
  mailingRecipients,
  mailSuppressions,
  systemTemplates,
  type Tx,
  tenants,
  withTenantTx,
} from '@guildhall/db';
import {
  type SystemTemplate,
  type SystemTemplateInput,
  type SystemTemplateView,
  systemExtra,
  systemSamples,
  withChips,
} from '@guildhall/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { AppConfig } from '../../platform/config.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { sanitizeRichText } from '../../platform/html.ts';
import type { MailAttachment, Mailer } from '../../platform/mailer.ts';
import { emailDocument, returnPathOf, textOf } from './mailings.service.ts';
import { compileTemplate, escapeHtml, type MergeValues, SafeHtml, TemplateError } from './render.ts';

function view(t: SystemTemplate, row: typeof systemTemplates.$inferSelect | undefined): SystemTemplateView {
  return {
    Key: t.Key,
    Title: t.Title,
    Description: t.Description,
    Group: t.Group,
    Subject: row?.subject ?? t.Subject,
    BodyHtml: row?.bodyHtml ?? withChips(t.BodyHtml, t),
    IsCustomized: !!row,
    UpdatedAt: row ? row.updatedAt.toISOString() : null,
    Fields: t.Fields.map((f) => ({
      Name: f.Name,
      Description: f.Description,
      Sample: f.Sample,
      Link: !!f.Link,
    })),
  };
}

function find(templates: readonly SystemTemplate[], key: string): SystemTemplate {
  const t = templates.find((x) => x.Key === key);
  if (!t) throw notFound();
  return t;
}

async function rowOf(tx: Tx, tenantId: string, key: string) {
  const [row] = await tx
    .select()
    .from(systemTemplates)
    .where(and(eq(systemTemplates.tenantId, tenantId), eq(systemTemplates.templateKey, key)));
  return row;
}

export async function listSystemTemplates(
  tx: Tx,
  tenantId: string,
  templates: readonly SystemTemplate[],
): Promise<SystemTemplateView[]> {
  const rows = await tx.select().from(systemTemplates).where(eq(systemTemplates.tenantId, tenantId));
  return templates.map((t) =>
    view(
      t,
      rows.find((r) => r.templateKey === t.Key),
    ),
  );
}

export async function getSystemTemplate(
  tx: Tx,
  tenantId: string,
  templates: readonly SystemTemplate[],
  key: string,
): Promise<SystemTemplateView> {
  const t = find(templates, key);
  return view(t, await rowOf(tx, tenantId, key));
}

/** The subject and body compiled for this message; a value it does not offer answers 400 naming it. */
function compile(t: SystemTemplate, subject: string, bodyHtml: string) {
  const extra = systemExtra(t);
  try {
    return {
      subject: compileTemplate(withChips(subject, t, true), extra),
      body: compileTemplate(bodyHtml, extra),
    };
  } catch (e) {
    if (e instanceof TemplateError) throw badRequest(e.messages.join(' '), { BodyHtml: e.messages });
    throw e;
  }
}

export async function saveSystemTemplate(
  tx: Tx,
  tenantId: string,
  userId: number,
  templates: readonly SystemTemplate[],
  key: string,
  input: SystemTemplateInput,
): Promise<SystemTemplateView> {
  const t = find(templates, key);
  const bodyHtml = sanitizeRichText(input.BodyHtml);
  compile(t, input.Subject, bodyHtml);
  await tx
    .insert(systemTemplates)
    .values({ tenantId, templateKey: key, subject: input.Subject, bodyHtml, updatedBy: userId })
    .onConflictDoUpdate({
      target: [systemTemplates.tenantId, systemTemplates.templateKey],
      set: { subject: input.Subject, bodyHtml, updatedBy: userId, updatedAt: new Date() },
    });
  return getSystemTemplate(tx, tenantId, templates, key);
}

export async function resetSystemTemplate(
  tx: Tx,
  tenantId: string,
  templates: readonly SystemTemplate[],
  key: string,
): Promise<SystemTemplateView> {
  find(templates, key);
  await tx
    .delete(systemTemplates)
    .where(and(eq(systemTemplates.tenantId, tenantId), eq(systemTemplates.templateKey, key)));
  return getSystemTemplate(tx, tenantId, templates, key);
}

function render(
  t: SystemTemplate,
  wording: { subject: string; bodyHtml: string },
  association: { name: string; website: string | null },
  values: Record<string, string | null | undefined>,
  lists: SystemMail['lists'] = {},
) {
  const compiled = compile(t, wording.subject, wording.bodyHtml);
  const all: MergeValues = {
    'Association.Name': association.name,
    'Association.Website': association.website ?? '',
    ...values,
  };
  for (const [name, sections] of Object.entries(lists ?? {})) all[name] = listHtml(sections);
  const body = compiled.body.render(all);
  const html = emailDocument(body, '');
  const subject = textOf(compiled.subject.render(all)).replace(/\s+/g, ' ').trim();
  return { subject, html, text: textOf(html) };
}

async function associationOf(tx: Tx, tenantId: string) {
  const [a] = await tx.select().from(tenants).where(eq(tenants.id, tenantId));
  const settings = (a?.settings ?? {}) as { website?: string };
  return { name: a?.name ?? '', website: settings.website ?? null };
}

/** The message as the association's wording (or a draft of it) renders with the declaration's sample values. */
export async function previewSystemTemplate(
  tx: Tx,
  tenantId: string,
  templates: readonly SystemTemplate[],
  key: string,
  draft: SystemTemplateInput | null,
): Promise<{ Subject: string; Html: string }> {
  const t = find(templates, key);
  const row = draft ? null : await rowOf(tx, tenantId, key);
  const wording = draft
    ? { subject: draft.Subject, bodyHtml: sanitizeRichText(draft.BodyHtml) }
    : { subject: row?.subject ?? t.Subject, bodyHtml: row?.bodyHtml ?? withChips(t.BodyHtml, t) };
  const out = render(t, wording, await associationOf(tx, tenantId), systemSamples(t));
  return { Subject: out.subject, Html: out.html };
}

/** Sections of items as HTML built from escaped text: a heading each (when given), then its items; empty ones left out. */
function listHtml(sections: readonly MailListSection[]): SafeHtml {
  return new SafeHtml(
    sections
      .filter((s) => s.items.length > 0)
      .map(
        (s) =>
          `${s.heading ? `<p><strong>${escapeHtml(s.heading)}</strong></p>` : ''}<ul>${s.items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`,
      )
      .join(''),
  );
}

export interface MailListSection {
  heading?: string;
  items: readonly string[];
}

export interface SystemMail {
  to: string;
  /**
   * The contact the message is about (it shows in the contact's communication history); when left out, the
   * association's contact with the recipient's address, if any.
   */
  contactId?: number | null;
  /** Fields whose value is a list (tasks of a reminder): sections of items, written as HTML lists. */
  lists?: Record<string, readonly MailListSection[]>;
  /** The message's values by field name (`Reset.Link`); a field left out renders empty or its default. */
  values: Record<string, string | null | undefined>;
  /** Parts only the delivery carries (a link's token): hidden in the outbox. */
  secrets?: readonly string[];
  attachments?: readonly MailAttachment[];
}

/**
 * Sends a system message in the association's wording (or the default): rendered, kept in the outbox and delivered
 * by the platform mailer. It is logged as a recipient with no mailing (the contact's communication history shows
 * it) and carries a VERP return path naming that row, so a bounce of it is recorded and suppresses the address as
 * a mailing's does; so does a 5xx answer of the SMTP server (logged `bounced`); it is sent whatever the suppression
 * list says (a receipt or a password reset is not a mailing).
 * Opens its own transactions: call it outside any transaction, as the mailer's `send` (on the embedded database a
 * second transaction inside one would wait for it).
 */
export async function sendSystemMail(
  deps: { database: Database; mailer: Mailer; config?: AppConfig },
  tenantId: string,
  template: SystemTemplate,
  mail: SystemMail,
): Promise<{ id: number; delivered: boolean }> {
  const token = randomBytes(16).toString('hex');
  const { out, recipientId } = await withTenantTx(deps.database.db, { tenantId }, async (tx) => {
    const row = await rowOf(tx, tenantId, template.Key);
    const out = render(
      template,
      {
        subject: row?.subject ?? template.Subject,
        bodyHtml: row?.bodyHtml ?? withChips(template.BodyHtml, template),
      },
      await associationOf(tx, tenantId),
      mail.values,
      mail.lists,
    );
    const email = mail.to.trim().toLowerCase();
    const [logged] = await tx
      .insert(mailingRecipients)
      .values({
        tenantId,
        mailingId: null,
        subject: out.subject,
        // The contact named, or the association's contact with that address (its communication history shows it).
        contactId:
          mail.contactId ??
          sql`(select contact_id from contacts where tenant_id = ${tenantId} and lower(email) = ${email}
            and not is_deleted order by contact_id limit 1)`,
        email,
        status: 'sending',
        attempts: 1,
        token,
      })
      .returning({ id: mailingRecipients.recipientId });
    return { out, recipientId: logged?.id ?? null };
  });
  let result: Awaited<ReturnType<Mailer['send']>> | null = null;
  let error: string | null = null;
  try {
    result = await deps.mailer.send(tenantId, {
      to: mail.to,
      subject: out.subject,
      text: out.text,
      html: out.html,
      ...(deps.config ? { returnPath: returnPathOf(deps.config.mailFrom, tenantId, token) } : {}),
      ...(mail.secrets ? { secrets: mail.secrets } : {}),
      ...(mail.attachments ? { attachments: mail.attachments } : {}),
    });
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  if (recipientId !== null) {
    // Without SMTP the outbox keeps it (as a mailing's): sent, for the log.
    const failed = error !== null || (!!deps.config?.smtpUrl && !result?.delivered);
    // Refused for good (a 5xx answer) it is a bounce, as a mailing's: logged `bounced` and the address suppressed
    // for mailings. Refused for now (4xx) or unanswered, it is `failed`: not tried again (a reset link's token is
    // not kept anywhere it could be sent from again; the person asks again).
    const refusal = result?.refusal;
    const bounced = refusal?.code != null && refusal.code >= 500;
    const lastError = error ?? refusal?.message ?? 'The mail server did not take the message.';
    await withTenantTx(deps.database.db, { tenantId }, async (tx) => {
      await tx
        .update(mailingRecipients)
        .set(
          failed
            ? { status: bounced ? 'bounced' : 'failed', lastError, updatedAt: new Date() }
            : { status: 'sent', sentAt: new Date(), updatedAt: new Date() },
        )
        .where(and(eq(mailingRecipients.tenantId, tenantId), eq(mailingRecipients.recipientId, recipientId)));
      if (failed && bounced)
        await tx
          .insert(mailSuppressions)
          .values({ tenantId, email: mail.to.trim().toLowerCase(), reason: 'bounced', detail: lastError })
          .onConflictDoNothing();
    });
  }
  if (error !== null || !result) throw new Error(error ?? 'not sent');
  return result;
}
