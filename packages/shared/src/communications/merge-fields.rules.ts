/**
 * Merge fields (spec 001 sections 3, 7 and 8): the catalogue of values a template may insert, which of them a
 * context offers (`GET /api/communication/mergefields/{flags}/{templateType}/{entity}`), their parameters, and the
 * Liquid tag a chosen field with its parameters becomes. Rendering happens on the server with liquidjs in strict
 * mode; a field that has no value renders its default, never the raw tag.
 */
import { z } from 'zod';

/** "default flags 1 for the rich-text editor, 65536 for the designer" (spec 001 section 7). */
export const MERGE_FLAGS = { RichText: 1, Designer: 65536 } as const;

/** Kinds of template a merge field list is asked for (the `{templateType}` part). */
export const TEMPLATE_TYPES = { Email: 1, Newsletter: 2, Transactional: 3, Signature: 4 } as const;

export const mergeFieldParameterSchema = z.object({
  Name: z.string(),
  Description: z.string(),
  /** Select, Number, Date, or text (anything else). */
  Type: z.string(),
  Default: z.string().nullable(),
  Options: z.array(z.object({ Key: z.string(), Value: z.string() })),
});
export type MergeFieldParameter = z.infer<typeof mergeFieldParameterSchema>;

export const mergeFieldSchema = z.object({
  Name: z.string(),
  Description: z.string(),
  GroupName: z.string(),
  /** A block field (several lines of HTML: a list of upcoming events), not a single value inside a sentence. */
  IsUber: z.boolean(),
  Parameters: z.array(mergeFieldParameterSchema),
});
export type MergeField = z.infer<typeof mergeFieldSchema>;

/** The groups of merge fields and the entities (`{entity}`) that bring each. */
export const MERGE_GROUPS = {
  Contact: 'Contact',
  Association: 'Association',
  Sender: 'Sender',
  Mailing: 'Mailing',
  Events: 'Events',
} as const;

const text = (Name: string, Description: string, Default: string | null = ''): MergeFieldParameter => ({
  Name,
  Description,
  Type: 'text',
  Default,
  Options: [],
});

const fallback = (d = '') => text('Default', 'Shown when the recipient has no value', d);

interface CatalogueEntry extends MergeField {
  /** Where the field may be used: a bit of MERGE_FLAGS each. */
  flags: number;
}

const BOTH = MERGE_FLAGS.RichText | MERGE_FLAGS.Designer;

/** Every merge field of the product. Names are `Group.Field` (Liquid variables of the render context). */
export const MERGE_FIELD_CATALOGUE: readonly CatalogueEntry[] = [
  {
    Name: 'Contact.FirstName',
    Description: 'First name of the recipient',
    GroupName: 'Contact',
    IsUber: false,
    flags: BOTH,
    Parameters: [fallback('Friend')],
  },
  {
    Name: 'Contact.LastName',
    Description: 'Last name of the recipient',
    GroupName: 'Contact',
    IsUber: false,
    flags: BOTH,
    Parameters: [fallback()],
  },
  {
    Name: 'Contact.DisplayName',
    Description: 'Full name of the recipient (or the organisation’s name)',
    GroupName: 'Contact',
    IsUber: false,
    flags: BOTH,
    Parameters: [fallback('Member')],
  },
  {
    Name: 'Contact.Salutation',
    Description: 'Greeting with the recipient’s name',
    GroupName: 'Contact',
    IsUber: false,
    flags: BOTH,
    Parameters: [
      {
        Name: 'Style',
        Description: 'How formal the greeting is',
        Type: 'Select',
        Default: 'informal',
        Options: [
          { Key: 'informal', Value: 'Dear {first name}' },
          { Key: 'formal', Value: 'Dear {title} {last name}' },
        ],
      },
      fallback('Dear member'),
    ],
  },
  {
    Name: 'Contact.Email',
    Description: 'Email address of the recipient',
    GroupName: 'Contact',
    IsUber: false,
    flags: BOTH,
    Parameters: [fallback()],
  },
  {
    Name: 'Contact.AccountNumber',
    Description: 'Account number of the recipient (A0000251)',
    GroupName: 'Contact',
    IsUber: false,
    flags: BOTH,
    Parameters: [fallback()],
  },
  {
    Name: 'Contact.City',
    Description: 'City of the recipient’s address',
    GroupName: 'Contact',
    IsUber: false,
    flags: BOTH,
    Parameters: [fallback()],
  },
  {
    Name: 'Contact.MemberSince',
    Description: 'Date the recipient became a contact',
    GroupName: 'Contact',
    IsUber: false,
    flags: BOTH,
    Parameters: [
      {
        Name: 'Format',
        Description: 'How the date is written',
        Type: 'Select',
        Default: 'long',
        Options: [
          { Key: 'long', Value: 'March 4, 2024' },
          { Key: 'short', Value: '03/04/2024' },
        ],
      },
      fallback(),
    ],
  },
  {
    Name: 'Association.Name',
    Description: 'Name of the association',
    GroupName: 'Association',
    IsUber: false,
    flags: BOTH,
    Parameters: [],
  },
  {
    Name: 'Association.Website',
    Description: 'Website of the association',
    GroupName: 'Association',
    IsUber: false,
    flags: BOTH,
    Parameters: [fallback()],
  },
  {
    Name: 'Sender.DisplayName',
    Description: 'Name of the staff member sending the message',
    GroupName: 'Sender',
    IsUber: false,
    flags: BOTH,
    Parameters: [fallback()],
  },
  {
    Name: 'Sender.Email',
    Description: 'Email address of the staff member sending the message',
    GroupName: 'Sender',
    IsUber: false,
    flags: BOTH,
    Parameters: [fallback()],
  },
  {
    Name: 'Mailing.UnsubscribeUrl',
    Description: 'Address where the recipient stops receiving mailings',
    GroupName: 'Mailing',
    IsUber: false,
    flags: BOTH,
    Parameters: [],
  },
  {
    Name: 'Mailing.PreferencesUrl',
    Description: 'Address of the recipient’s email preferences',
    GroupName: 'Mailing',
    IsUber: false,
    flags: BOTH,
    Parameters: [],
  },
  {
    Name: 'Mailing.Date',
    Description: 'Date the message is sent',
    GroupName: 'Mailing',
    IsUber: false,
    flags: BOTH,
    Parameters: [],
  },
  {
    Name: 'Events.Upcoming',
    Description: 'List of the association’s upcoming events',
    GroupName: 'Events',
    IsUber: true,
    flags: MERGE_FLAGS.Designer,
    Parameters: [
      { Name: 'Count', Description: 'How many events at most', Type: 'Number', Default: '3', Options: [] },
    ],
  },
  {
    Name: 'Contact.NewMembers',
    Description: 'List of the members who joined in the last period',
    GroupName: 'Contact',
    IsUber: true,
    flags: MERGE_FLAGS.Designer,
    Parameters: [
      {
        Name: 'Days',
        Description: 'Joined within this many days',
        Type: 'Number',
        Default: '30',
        Options: [],
      },
    ],
  },
];

/** The groups each entity of a template brings (`{entity}`); every context has the association and the sender. */
const ENTITY_GROUPS: Record<string, readonly string[]> = {
  contact: ['Contact', 'Association', 'Sender', 'Mailing', 'Events'],
  mailing: ['Contact', 'Association', 'Sender', 'Mailing', 'Events'],
  newsletter: ['Contact', 'Association', 'Sender', 'Mailing', 'Events'],
  signature: ['Sender', 'Association'],
  user: ['Sender', 'Association'],
  association: ['Association', 'Sender', 'Events'],
};

/**
 * The merge fields a context offers: those whose flags share a bit with `flags` and whose group the entity brings.
 * An unknown entity gets the groups that need no record (association and sender).
 */
export function mergeFieldsFor(flags: number, entity: string): MergeField[] {
  const groups = ENTITY_GROUPS[entity.toLowerCase()] ?? ['Association', 'Sender'];
  return MERGE_FIELD_CATALOGUE.filter((f) => (f.flags & flags) !== 0 && groups.includes(f.GroupName)).map(
    ({ flags: _flags, ...field }) => field,
  );
}

export function mergeFieldByName(name: string): MergeField | undefined {
  const entry = MERGE_FIELD_CATALOGUE.find((f) => f.Name === name);
  if (!entry) return undefined;
  const { flags: _flags, ...field } = entry;
  return field;
}

/** "Merge field "{name}" is not available within the current context" (spec 001 section 8). */
export const mergeFieldUnavailable = (name: string) =>
  `Merge field "${name}" is not available within the current context`;
export const NO_MERGE_FIELDS = 'No merge fields are available within the current context';

export type MergeParams = Record<string, string>;

/** The parameters as they will be used: each declared one filled (its default when missing); errors by name. */
export function checkMergeParams(
  field: MergeField,
  input: Record<string, unknown>,
): { params: MergeParams; errors: Record<string, string> } {
  const params: MergeParams = {};
  const errors: Record<string, string> = {};
  for (const p of field.Parameters) {
    const raw = input[p.Name];
    const value = raw === undefined || raw === null || raw === '' ? (p.Default ?? '') : String(raw);
    if (p.Type === 'Number' && value !== '' && !/^\d{1,6}$/.test(value))
      errors[p.Name] = `${p.Name} must be a whole number.`;
    else if (p.Type === 'Select' && value !== '' && !p.Options.some((o) => o.Key === value))
      errors[p.Name] = `${p.Name} must be one of ${p.Options.map((o) => o.Key).join(', ')}.`;
    else if (p.Type === 'Date' && value !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(value))
      errors[p.Name] = `${p.Name} must be a date (yyyy-mm-dd).`;
    else if (value.length > 200) errors[p.Name] = `${p.Name} has at most 200 characters.`;
    params[p.Name] = value;
  }
  return { params, errors };
}

/** A string as a Liquid string literal: double quotes, with quotes and backslashes escaped. */
function literal(value: string): string {
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"').replaceAll('\n', ' ')}"`;
}

/**
 * The Liquid tag of a field with its parameters: `{{ Contact.FirstName | default: "Friend" }}`; parameters other
 * than Default travel as arguments of the `param` filter the renderer knows (`| param: "Style", "formal"`).
 */
export function mergeTag(field: MergeField, params: MergeParams): string {
  let tag = `{{ ${field.Name}`;
  for (const p of field.Parameters) {
    if (p.Name === 'Default') continue;
    tag += ` | param: ${literal(p.Name)}, ${literal(params[p.Name] ?? '')}`;
  }
  if (field.Parameters.some((p) => p.Name === 'Default'))
    tag += ` | default: ${literal(params.Default ?? '')}`;
  return `${tag} }}`;
}

/** How a chip shows the field in an editor: its name, and its default in brackets when one is set. */
export function mergeChipLabel(field: MergeField, params: MergeParams): string {
  const extra = field.Parameters.filter((p) => p.Name !== 'Default' && params[p.Name])
    .map((p) => `${p.Name}: ${params[p.Name]}`)
    .join(', ');
  return extra ? `${field.Name} (${extra})` : field.Name;
}

/** The attribute that marks a merge chip in rich text, and the one carrying its parameters (JSON). */
export const MERGE_CHIP_ATTR = 'data-merge-field';
export const MERGE_PARAMS_ATTR = 'data-merge-params';

// Attribute values in double quotes may hold ">" (a browser's serializer leaves it unescaped).
const CHIP = /<span\b((?:[^>"]|"[^"]*")*\sdata-merge-field="[^"]*"(?:[^>"]|"[^"]*")*)>[\s\S]*?<\/span>/g;
const ATTR = (name: string) => new RegExp(`\\s${name}="([^"]*)"`);

const ENTITIES: Record<string, string> = {
  '&quot;': '"',
  '&#34;': '"',
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&#39;': "'",
};
function decodeAttr(v: string): string {
  return v.replace(/&(quot|amp|lt|gt|#34|#39);/g, (m) => ENTITIES[m] ?? m);
}

/** The chips of rich text: each one's field name and parameters, in order. */
export function mergeChipsOf(html: string): { name: string; params: Record<string, unknown> }[] {
  const out: { name: string; params: Record<string, unknown> }[] = [];
  for (const m of html.matchAll(CHIP)) {
    const attrs = m[1] ?? '';
    const name = decodeAttr(ATTR(MERGE_CHIP_ATTR).exec(attrs)?.[1] ?? '');
    let params: Record<string, unknown> = {};
    const raw = ATTR(MERGE_PARAMS_ATTR).exec(attrs)?.[1];
    if (raw) {
      try {
        const parsed: unknown = JSON.parse(decodeAttr(raw));
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
          params = parsed as Record<string, unknown>;
      } catch {
        params = {};
      }
    }
    out.push({ name, params });
  }
  return out;
}

/** Fields a link may point to (`href="merge:Mailing.UnsubscribeUrl"`): addresses the server makes itself. */
export const MERGE_LINK_FIELDS = [
  'Mailing.UnsubscribeUrl',
  'Mailing.PreferencesUrl',
  'Association.Website',
] as const;
const MERGE_LINK = /href="merge:([A-Za-z.]+)"/g;

/** Literal HTML inside a Liquid `raw` block: an `endraw` in it cannot end the block (% becomes its entity). */
function rawText(html: string): string {
  if (html === '') return '';
  return `{% raw %}${html.replace(/\{%(-?\s*endraw)/g, '{&#37;$1')}{% endraw %}`;
}

/** Literal HTML whose merge links (`href="merge:Field"`) become the field's tag. */
function rawBlock(html: string, errors: string[], links: readonly string[] = []): string {
  let out = '';
  let last = 0;
  for (const m of html.matchAll(MERGE_LINK)) {
    const name = m[1] ?? '';
    out += rawText(html.slice(last, m.index));
    last = (m.index ?? 0) + m[0].length;
    if ((MERGE_LINK_FIELDS as readonly string[]).includes(name) || links.includes(name))
      out += `href="{{ ${name} }}"`;
    else {
      errors.push(mergeFieldUnavailable(name));
      out += rawText('href="#"');
    }
  }
  return out + rawText(html.slice(last));
}

/**
 * Rich text (sanitized HTML with merge chips) as a Liquid template: the text stays literal (braces a writer typed
 * are never evaluated) and each chip becomes its field's tag. A chip naming no field of the catalogue, or with
 * parameters that do not check, is reported in `errors` and renders nothing.
 */
export function templateToLiquid(
  html: string,
  /** Fields beyond the catalogue (a system message's own, decision 0154); `links` those a link may point to. */
  extra: { fields: readonly MergeField[]; links: readonly string[] } = { fields: [], links: [] },
): { liquid: string; fields: string[]; errors: string[] } {
  let liquid = '';
  let last = 0;
  const fields: string[] = [];
  const errors: string[] = [];
  const chips = mergeChipsOf(html);
  let i = 0;
  for (const m of html.matchAll(CHIP)) {
    const chip = chips[i++];
    liquid += rawBlock(html.slice(last, m.index), errors, extra.links);
    last = (m.index ?? 0) + m[0].length;
    if (!chip) continue;
    const field = extra.fields.find((f) => f.Name === chip.name) ?? mergeFieldByName(chip.name);
    if (!field) {
      errors.push(mergeFieldUnavailable(chip.name));
      continue;
    }
    const { params, errors: paramErrors } = checkMergeParams(field, chip.params);
    const messages = Object.values(paramErrors);
    if (messages.length > 0) {
      errors.push(...messages);
      continue;
    }
    fields.push(field.Name);
    liquid += mergeTag(field, params);
  }
  liquid += rawBlock(html.slice(last), errors, extra.links);
  return { liquid, fields, errors };
}

/** The chip markup of a field (what the editors insert and the sanitizer keeps). */
export function mergeChipHtml(field: MergeField, params: MergeParams): string {
  const json = JSON.stringify(params)
    .replaceAll('&', '&amp;')
    .replaceAll('"', '&quot;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;');
  const label = mergeChipLabel(field, params).replaceAll('&', '&amp;').replaceAll('<', '&lt;');
  return `<span ${MERGE_CHIP_ATTR}="${field.Name}" ${MERGE_PARAMS_ATTR}="${json}">${label}</span>`;
}
