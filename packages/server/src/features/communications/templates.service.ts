/** Email templates beyond the generic screens: duplicate, archive and restore, and the save-time checks. */
import { emailTemplates, type Tx } from '@guildhall/db';
import type { Model } from '@guildhall/shared';
import { and, eq } from 'drizzle-orm';
import type { AuthContext } from '../../platform/context.ts';
import { badRequest, notFound } from '../../platform/errors.ts';
import { sanitizeRichText } from '../../platform/html.ts';
import type { ResourceHooks } from '../../platform/resources/hooks.ts';
import { compileTemplate, TemplateError } from './render.ts';

async function templateRow(tx: Tx, auth: AuthContext, id: number) {
  const [row] = await tx
    .select()
    .from(emailTemplates)
    .where(and(eq(emailTemplates.tenantId, auth.tenantId), eq(emailTemplates.templateId, id)));
  if (!row) throw notFound();
  return row;
}

/** A copy named "Copy of …", not archived, with the same body and design. */
export async function duplicateTemplate(tx: Tx, auth: AuthContext, id: number): Promise<number> {
  const row = await templateRow(tx, auth, id);
  const [copy] = await tx
    .insert(emailTemplates)
    .values({
      tenantId: auth.tenantId,
      name: `Copy of ${row.name}`.slice(0, 200),
      kind: row.kind,
      purpose: row.purpose,
      subject: row.subject,
      bodyHtml: row.bodyHtml,
      designJson: row.designJson,
    })
    .returning({ id: emailTemplates.templateId });
  if (!copy) throw new Error('template insert returned nothing');
  return copy.id;
}

export async function setArchived(tx: Tx, auth: AuthContext, id: number, archived: boolean): Promise<string> {
  const row = await templateRow(tx, auth, id);
  await tx
    .update(emailTemplates)
    .set({ isArchived: archived, updatedAt: new Date() })
    .where(and(eq(emailTemplates.tenantId, auth.tenantId), eq(emailTemplates.templateId, id)));
  return row.name;
}

/** The body checked as the renderer will read it: every merge chip names a field with valid parameters. */
export function checkBody(html: string, field = 'BodyHtml'): void {
  try {
    compileTemplate(html);
  } catch (e) {
    if (e instanceof TemplateError) throw badRequest(e.messages.join(' '), { [field]: e.messages });
    throw e;
  }
}

/** Server hooks of the templates resource: the body sanitized (again) and its merge fields checked on every save. */
export const templateHooks: ResourceHooks = {
  async beforeSave(tx, auth, model: Model, context) {
    if (typeof model.BodyHtml !== 'string') return model;
    // A designed template's Html is the server's rendering of its design (decision 0153): the generic form's
    // copy of it is not taken, whatever it holds.
    const id = Number(context.key);
    if (!context.creating && Number.isInteger(id) && id > 0) {
      const [row] = await tx
        .select({ designJson: emailTemplates.designJson, bodyHtml: emailTemplates.bodyHtml })
        .from(emailTemplates)
        .where(and(eq(emailTemplates.tenantId, auth.tenantId), eq(emailTemplates.templateId, id)));
      if (row?.designJson) {
        if (typeof model.Subject === 'string') checkBody(model.Subject, 'Subject');
        return { ...model, BodyHtml: row.bodyHtml ?? '' };
      }
    }
    const body = sanitizeRichText(model.BodyHtml);
    checkBody(body);
    if (typeof model.Subject === 'string') checkBody(model.Subject, 'Subject');
    return { ...model, BodyHtml: body };
  },
};
