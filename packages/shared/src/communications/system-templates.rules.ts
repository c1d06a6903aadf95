/**
 * System messages in communications (decision 0154): the merge fields a system message offers (its own, plus the
 * association's), and its wording as staff edit it: the body as rich text with merge chips, the subject as plain
 * text with `{{Group.Field}}` values.
 */
import { z } from 'zod';
import type { SystemTemplate } from '../platform/system-templates.ts';
import { type MergeField, mergeChipHtml, mergeFieldByName } from './merge-fields.rules.ts';

/** The entity name of a system message in `GET /api/communication/mergefields/{flags}/{type}/{entity}`. */
export const systemTemplateEntity = (key: string) => `system:${key}`;

const SHORTHAND = /\{\{\s*([A-Za-z][A-Za-z0-9]*\.[A-Za-z][A-Za-z0-9]*)\s*\}\}/g;

/** The merge fields of a system message: its own values (text with a default, or a link) and the association's. */
export function systemMergeFields(t: SystemTemplate): MergeField[] {
  const own: MergeField[] = t.Fields.map((f) => ({
    Name: f.Name,
    Description: f.Description,
    GroupName: f.Name.split('.')[0] ?? 'Message',
    IsUber: false,
    Parameters: f.Link
      ? []
      : [
          {
            Name: 'Default',
            Description: 'Shown when there is no value',
            Type: 'text',
            Default: '',
            Options: [],
          },
        ],
  }));
  const association = ['Association.Name', 'Association.Website'].flatMap((n) => {
    const f = mergeFieldByName(n);
    return f && !own.some((o) => o.Name === n) ? [f] : [];
  });
  return [...own, ...association];
}

/** What `templateToLiquid` needs beyond the catalogue for this message. */
export function systemExtra(t: SystemTemplate) {
  return { fields: systemMergeFields(t), links: t.Fields.filter((f) => f.Link).map((f) => f.Name) };
}

function escapeText(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * Text or HTML with `{{Group.Field}}` values as rich text with merge chips: `href="{{X}}"` becomes a merge link,
 * any other `{{X}}` the chip of X (a name the message does not offer stays a chip, which the check refuses).
 * `plain` text is escaped first (a subject).
 */
export function withChips(source: string, t: SystemTemplate, plain = false): string {
  const fields = systemMergeFields(t);
  const html = plain
    ? escapeText(source)
    : source.replace(/href="\{\{\s*([A-Za-z0-9.]+)\s*\}\}"/g, 'href="merge:$1"');
  return html.replace(SHORTHAND, (_m, name: string) => {
    const field = fields.find((f) => f.Name === name) ?? {
      Name: name,
      Description: '',
      GroupName: '',
      IsUber: false,
      Parameters: [],
    };
    return mergeChipHtml(field, field.Parameters.some((p) => p.Name === 'Default') ? { Default: '' } : {});
  });
}

/** The sample values previews use. */
export function systemSamples(t: SystemTemplate): Record<string, string> {
  return Object.fromEntries(t.Fields.map((f) => [f.Name, f.Sample]));
}

export const systemTemplateSchema = z.object({
  Key: z.string(),
  Title: z.string(),
  Description: z.string(),
  Group: z.string(),
  /** Plain text with `{{Group.Field}}` values. */
  Subject: z.string(),
  /** Rich text with merge chips. */
  BodyHtml: z.string(),
  /** Whether the association changed the product's wording (else these are the defaults). */
  IsCustomized: z.boolean(),
  UpdatedAt: z.string().nullable(),
  Fields: z.array(
    z.object({ Name: z.string(), Description: z.string(), Sample: z.string(), Link: z.boolean() }),
  ),
});
export type SystemTemplateView = z.infer<typeof systemTemplateSchema>;

export const systemTemplateInputSchema = z.object({
  Subject: z.string().trim().min(1, 'Subject is required.').max(300),
  BodyHtml: z.string().max(200_000),
});
export type SystemTemplateInput = z.infer<typeof systemTemplateInputSchema>;
