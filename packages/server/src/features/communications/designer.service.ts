/**
 * The email designer's reads and writes (decision 0153): a template's or a draft mailing's design loaded and saved
 * (the server renders the Html from the design, checks its merge fields and keeps both), a preview of an unsaved
 * design, the design tags, and the custom content tools that answer HTML from the association's own data.
 */
import { emailTemplates, mailings, rowsOf, type Tx } from '@guildhall/db';
import {
  type Design,
  type DesignCustomTool,
  type DesignedMessage,
  type DesignTag,
  designSchema,
  emptyDesign,
  MERGE_FLAGS,
  mergeChipHtml,
  mergeFieldsFor,
  mergeTag,
} from '@guildhall/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/context.ts';
import { HttpError, notFound } from '../../platform/errors.ts';
import { renderDesign } from './design.ts';
import { escapeHtml } from './render.ts';
import { checkBody } from './templates.service.ts';

/** A message that has no design yet starts from the default one, its rich text kept as the first text block. */
function designOf(stored: unknown, bodyHtml: string | null, name: string): Design {
  if (stored) return designSchema.parse(stored);
  const d = emptyDesign();
  if (d.Blocks[0]?.Type === 'heading') d.Blocks[0].Text = name.slice(0, 300);
  if (bodyHtml?.trim() && !/^\s*<!doctype/i.test(bodyHtml)) {
    d.Blocks[1] = { Id: 'b2', Type: 'text', Html: bodyHtml };
  }
  return d;
}

async function rendered(design: Design, subject: string): Promise<string> {
  const html = await renderDesign(design, subject);
  checkBody(html, 'DesignJson');
  return html;
}

async function templateRow(tx: Tx, auth: AuthContext, id: number) {
  const [row] = await tx
    .select()
    .from(emailTemplates)
    .where(and(eq(emailTemplates.tenantId, auth.tenantId), eq(emailTemplates.templateId, id)));
  if (!row) throw notFound();
  return row;
}

export async function loadTemplateDesign(tx: Tx, auth: AuthContext, id: number): Promise<DesignedMessage> {
  const row = await templateRow(tx, auth, id);
  const design = designOf(row.designJson, row.bodyHtml, row.name);
  // A design stored without its rendering (the demo's) is rendered when read.
  const html = row.designJson ? row.bodyHtml || (await rendered(design, row.subject)) : '';
  return { Name: row.name, Subject: row.subject, Html: html, DesignJson: design, Version: row.version };
}

/** Saves a template's design: it becomes a newsletter (designed), its Html the server's rendering. */
export async function saveTemplateDesign(
  tx: Tx,
  auth: AuthContext,
  id: number,
  design: Design,
  subject: string | undefined,
): Promise<DesignedMessage> {
  const row = await templateRow(tx, auth, id);
  const subj = subject ?? row.subject;
  checkBody(escapeHtml(subj), 'Subject');
  const html = await rendered(design, subj);
  await tx
    .update(emailTemplates)
    .set({ kind: 'newsletter', subject: subj, bodyHtml: html, designJson: design, updatedAt: new Date() })
    .where(and(eq(emailTemplates.tenantId, auth.tenantId), eq(emailTemplates.templateId, id)));
  return loadTemplateDesign(tx, auth, id);
}

/** A new designed template (a newsletter) with the default design. */
export async function createDesignedTemplate(
  tx: Tx,
  auth: AuthContext,
  name: string,
  subject: string,
): Promise<number> {
  const design = emptyDesign();
  if (design.Blocks[0]?.Type === 'heading') design.Blocks[0].Text = name.slice(0, 300);
  const html = await rendered(design, subject);
  const [row] = await tx
    .insert(emailTemplates)
    .values({
      tenantId: auth.tenantId,
      name,
      kind: 'newsletter',
      purpose: 'general',
      subject,
      bodyHtml: html,
      designJson: design,
    })
    .returning({ id: emailTemplates.templateId });
  if (!row) throw new Error('template insert returned nothing');
  return Number(row.id);
}

async function mailingRow(tx: Tx, auth: AuthContext, id: number) {
  const [row] = await tx
    .select()
    .from(mailings)
    .where(and(eq(mailings.tenantId, auth.tenantId), eq(mailings.mailingId, id)));
  if (!row) throw notFound();
  return row;
}

export async function loadMailingDesign(tx: Tx, auth: AuthContext, id: number): Promise<DesignedMessage> {
  const row = await mailingRow(tx, auth, id);
  return {
    Name: row.name,
    Subject: row.subject,
    Html: row.designJson ? row.bodyHtml : '',
    DesignJson: designOf(row.designJson, row.bodyHtml, row.name),
    ReadOnly: row.status !== 'draft',
  };
}

export async function saveMailingDesign(
  tx: Tx,
  auth: AuthContext,
  id: number,
  design: Design,
  subject: string | undefined,
): Promise<DesignedMessage> {
  const row = await mailingRow(tx, auth, id);
  if (row.status !== 'draft')
    throw new HttpError(409, 'This mailing is sent or scheduled; it can no longer change.');
  const subj = subject ?? row.subject;
  checkBody(escapeHtml(subj), 'Subject');
  const html = await rendered(design, subj);
  await tx
    .update(mailings)
    .set({ subject: subj, bodyHtml: html, designJson: design, updatedAt: new Date() })
    .where(and(eq(mailings.tenantId, auth.tenantId), eq(mailings.mailingId, id)));
  return loadMailingDesign(tx, auth, id);
}

/** An unsaved design as the server would render it (the designer's preview). */
export async function previewDesign(design: Design, subject: string): Promise<string> {
  return rendered(design, subject);
}

/** The merge fields the designer offers, with their Liquid tag and the chip its text blocks insert. */
export function designTags(): DesignTag[] {
  return mergeFieldsFor(MERGE_FLAGS.Designer, 'newsletter').map((f) => {
    const params = Object.fromEntries(f.Parameters.map((p) => [p.Name, p.Default ?? '']));
    return {
      Name: f.Name,
      Description: f.Description,
      GroupName: f.GroupName,
      Value: mergeTag(f, params),
      Html: mergeChipHtml(f, {}),
    };
  });
}

const dateFmt = (d: Date | string, timeZone: string) =>
  new Intl.DateTimeFormat('en-US', { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(new Date(d));

async function tenantInfo(tx: Tx, tenantId: string) {
  const [t] = rowsOf<{ name: string; settings: Record<string, unknown> | null }>(
    await tx.execute(sql`select name, settings from tenants where id = ${tenantId}`),
  );
  const s = (t?.settings ?? {}) as { defaultTimezone?: string; website?: string };
  return {
    name: t?.name ?? '',
    timeZone: s.defaultTimezone ?? 'America/Chicago',
    website: s.website ?? null,
  };
}

/**
 * A custom content tool's HTML (`GET /api/unlayercustomtools/{tool}`), built from escaped values of the
 * association's data and passed through the rich-text allow-list when a text block holding it is saved.
 */
export async function customTool(tx: Tx, auth: AuthContext, tool: DesignCustomTool): Promise<string> {
  const info = await tenantInfo(tx, auth.tenantId);
  switch (tool) {
    case 'NewMembers': {
      const rows = rowsOf<{ name: string; membership: string; join_date: string }>(
        await tx.execute(sql`
          select contact_name as name, name as membership, join_date::text as join_date
          from memberships
          where tenant_id = ${auth.tenantId} and not is_deleted and status in ('active', 'grace')
            and join_date >= current_date - 30
          order by join_date desc, contact_name limit 12`),
      );
      if (rows.length === 0)
        return '<h3>Welcome to our new members</h3><p>No one joined in the last 30 days.</p>';
      return `<h3>Welcome to our new members</h3><ul>${rows
        .map((r) => `<li><strong>${escapeHtml(r.name)}</strong> (${escapeHtml(r.membership)})</li>`)
        .join('')}</ul>`;
    }
    case 'events': {
      const rows = rowsOf<{ name: string; starts_at: string; location: string | null }>(
        await tx.execute(sql`
          select name, starts_at, location from events
          where tenant_id = ${auth.tenantId} and not is_deleted and status = 'published'
            and visibility = 'public' and ends_at >= now()
          order by starts_at limit 6`),
      );
      if (rows.length === 0) return '<h3>Upcoming events</h3><p>No events are planned yet.</p>';
      return `<h3>Upcoming events</h3><ul>${rows
        .map(
          (r) =>
            `<li><strong>${escapeHtml(r.name)}</strong>, ${escapeHtml(dateFmt(r.starts_at, info.timeZone))}${r.location ? ` (${escapeHtml(r.location)})` : ''}</li>`,
        )
        .join('')}</ul>`;
    }
    case 'webcontent': {
      const site = info.website && /^https?:\/\//.test(info.website) ? info.website : null;
      return `<h3>${escapeHtml(info.name)}</h3><p>${
        site
          ? `Read more on <a href="${escapeHtml(site)}">${escapeHtml(site)}</a>.`
          : 'Reply to this message to reach us.'
      }</p>`;
    }
    case 'forumstopics':
      return '<h3>From the forum</h3><p>No discussion topics yet: the association has no forum.</p>';
  }
}
