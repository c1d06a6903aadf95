/**
 * System messages (decision 0154): the transactional mail other features send (a password reset, an invitation, an
 * invoice, an event confirmation, a renewal reminder), each declared by its feature with default wording and values
 * (`mailTemplates` of its module). Staff reword one for their association in Communications (a `system_templates`
 * row; deleting it restores the default). When the feature sends it, the association's wording (or the default) is
 * rendered with the message's values by the strict Liquid renderer of decision 0151 and delivered by the platform
 * mailer (outbox, then SMTP), secrets hidden from the outbox as before.
 */
import { type Database, systemTemplates, type Tx, tenants, withTenantTx } from '@guildhall/db';
import {
  type SystemTemplate,
  type SystemTemplateInput,
  type SystemTemplateView,
  systemExtra,
  systemSamples,
  withChips,
} from '@guildhall/shared';
import { and, eq } from 'drizzle-orm';
import type { AppConfig } from '../../platform/config.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { sanitizeRichText } from '../../platform/html.ts';
import type { MailAttachment, Mailer } from '../../platform/mailer.ts';
import { emailDocument, textOf } from './mailings.service.ts';
import { compileTemplate, type MergeValues, TemplateError } from './render.ts';

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
) {
  const compiled = compile(t, wording.subject, wording.bodyHtml);
  const all: MergeValues = {
    'Association.Name': association.name,
    'Association.Website': association.website ?? '',
    ...values,
  };
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

export interface SystemMail {
  to: string;
  /** The message's values by field name (`Reset.Link`); a field left out renders empty or its default. */
  values: Record<string, string | null | undefined>;
  /** Parts only the delivery carries (a link's token): hidden in the outbox. */
  secrets?: readonly string[];
  attachments?: readonly MailAttachment[];
}

/**
 * Sends a system message in the association's wording (or the default): rendered, kept in the outbox and delivered
 * by the platform mailer. Opens its own transaction to read the wording: call it outside any transaction, as the
 * mailer's `send` (on the embedded database a second transaction inside one would wait for it).
 */
export async function sendSystemMail(
  deps: { database: Database; mailer: Mailer; config?: AppConfig },
  tenantId: string,
  template: SystemTemplate,
  mail: SystemMail,
): Promise<{ id: number; delivered: boolean }> {
  const out = await withTenantTx(deps.database.db, { tenantId }, async (tx) => {
    const row = await rowOf(tx, tenantId, template.Key);
    return render(
      template,
      {
        subject: row?.subject ?? template.Subject,
        bodyHtml: row?.bodyHtml ?? withChips(template.BodyHtml, template),
      },
      await associationOf(tx, tenantId),
      mail.values,
    );
  });
  return deps.mailer.send(tenantId, {
    to: mail.to,
    subject: out.subject,
    text: out.text,
    html: out.html,
    ...(mail.secrets ? { secrets: mail.secrets } : {}),
    ...(mail.attachments ? { attachments: mail.attachments } : {}),
  });
}
