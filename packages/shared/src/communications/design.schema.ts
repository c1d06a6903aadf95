/**
 * The email designer's model (spec 001 section 3, "Newsletter design: Html, DesignJson"): a newsletter is a list of
 * blocks on a page of chosen width and colours. The browser edits this model; the server validates it with these
 * schemas, sanitizes every block's rich text with the product's allow-list and renders the email HTML from it
 * through MJML (decision 0153), so the saved Html is always the server's own rendering of the saved DesignJson.
 */
import { z } from 'zod';

export const DESIGN_VERSION = 1;
/** Spec 001 section 9: below 520 px the layout stacks and images take the full width. */
export const DESIGN_MOBILE_BREAKPOINT = 520;
export const DESIGN_MAX_BLOCKS = 200;

const color = z.string().regex(/^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/, 'A colour is written #rgb or #rrggbb.');
/** A link of a button or an image: http(s), mailto, or a merge link (unsubscribe, preferences, the website). */
const href = z
  .string()
  .trim()
  .max(2000)
  .regex(
    /^(https?:\/\/[^\s"'<>]+|mailto:[^\s"'<>]+|merge:[A-Za-z.]+)$/i,
    'A link starts with https://, mailto: or is a merge link.',
  );
/** Images are shown by address: absolute http(s), or the library's own path (made absolute when sent). */
const imageSrc = z
  .string()
  .trim()
  .max(2000)
  .regex(
    /^(https?:\/\/|\/api\/)[^\s"'<>]+$/i,
    'An image address starts with https:// or is an image of the library.',
  );
const blockId = z.string().regex(/^[A-Za-z0-9_-]{1,40}$/);
const align = z.enum(['left', 'center', 'right']);
const richHtml = z.string().max(200_000);

export const DESIGN_FONTS = [
  { Id: 'sans', Name: 'Sans serif', Css: 'Helvetica, Arial, sans-serif' },
  { Id: 'serif', Name: 'Serif', Css: 'Georgia, Times New Roman, serif' },
  { Id: 'mono', Name: 'Monospace', Css: 'Courier New, Courier, monospace' },
] as const;

export const designBlockSchema = z.discriminatedUnion('Type', [
  z.object({
    Id: blockId,
    Type: z.literal('heading'),
    Text: z.string().max(300),
    Level: z.union([z.literal(1), z.literal(2)]),
    Align: align,
    Color: color.optional(),
  }),
  /** Rich text from the product's editor: merge chips, signatures, links, images. */
  z.object({ Id: blockId, Type: z.literal('text'), Html: richHtml, BackgroundColor: color.optional() }),
  z.object({
    Id: blockId,
    Type: z.literal('image'),
    Src: imageSrc,
    Alt: z.string().max(300),
    Href: href.optional().or(z.literal('')),
    /** Pixels; the full width of the page when absent. */
    Width: z.number().int().min(20).max(800).optional(),
    Align: align,
  }),
  z.object({
    Id: blockId,
    Type: z.literal('button'),
    Label: z.string().trim().min(1).max(100),
    Href: href,
    BackgroundColor: color,
    Color: color,
    Align: align,
  }),
  z.object({ Id: blockId, Type: z.literal('divider'), Color: color }),
  z.object({ Id: blockId, Type: z.literal('spacer'), Height: z.number().int().min(4).max(200) }),
  z.object({ Id: blockId, Type: z.literal('columns'), Columns: z.tuple([richHtml, richHtml]) }),
  /** The association's address and the unsubscribe and preferences links every newsletter should end with. */
  z.object({ Id: blockId, Type: z.literal('footer'), Html: richHtml }),
]);
export type DesignBlock = z.infer<typeof designBlockSchema>;
export type DesignBlockType = DesignBlock['Type'];

export const designSchema = z.object({
  Version: z.literal(DESIGN_VERSION),
  Settings: z.object({
    /** The text some clients show after the subject, before the message is opened. */
    Preheader: z.string().max(200),
    BackgroundColor: color,
    ContentBackgroundColor: color,
    TextColor: color,
    LinkColor: color,
    Font: z.enum(['sans', 'serif', 'mono']),
    /** Width of the message on a wide screen, in pixels. */
    Width: z.number().int().min(480).max(800),
  }),
  Blocks: z.array(designBlockSchema).max(DESIGN_MAX_BLOCKS),
});
export type Design = z.infer<typeof designSchema>;

/** What the designer loads and saves: the design, and the server's rendering of it. */
export const designedMessageSchema = z.object({
  Name: z.string(),
  Subject: z.string(),
  Html: z.string(),
  DesignJson: designSchema,
  Version: z.number().optional(),
  /** A mailing that is no longer a draft: its design is shown as it was sent, never changed. */
  ReadOnly: z.boolean().optional(),
});
export type DesignedMessage = z.infer<typeof designedMessageSchema>;

export const designSaveSchema = z.object({
  Subject: z.string().trim().min(1, 'Subject is required.').max(300).optional(),
  DesignJson: designSchema,
});
export type DesignSave = z.infer<typeof designSaveSchema>;

/** `GET /api/communication/emaildesigner/designTags`: the merge tags the designer offers, by group. */
export const designTagSchema = z.object({
  Name: z.string(),
  Description: z.string(),
  GroupName: z.string(),
  /** The Liquid tag the field renders as. */
  Value: z.string(),
  /** The chip the designer's text blocks insert. */
  Html: z.string(),
});
export type DesignTag = z.infer<typeof designTagSchema>;

/** The custom content tools of the designer (`GET /api/unlayercustomtools/{tool}`): HTML from the tenant's data. */
export const DESIGN_CUSTOM_TOOLS = [
  { Id: 'NewMembers', Name: 'New members', Description: 'Members who joined in the last 30 days' },
  { Id: 'events', Name: 'Upcoming events', Description: 'The next published events' },
  { Id: 'webcontent', Name: 'Association details', Description: 'Your website and contact details' },
  { Id: 'forumstopics', Name: 'Forum topics', Description: 'Recent discussion topics' },
] as const;
export type DesignCustomTool = (typeof DESIGN_CUSTOM_TOOLS)[number]['Id'];

/** A new design: a heading, a greeting with the first-name chip, and the footer with the unsubscribe link. */
export function emptyDesign(): Design {
  return {
    Version: DESIGN_VERSION,
    Settings: {
      Preheader: '',
      BackgroundColor: '#f1f3f5',
      ContentBackgroundColor: '#ffffff',
      TextColor: '#212529',
      LinkColor: '#1c7ed6',
      Font: 'sans',
      Width: 600,
    },
    Blocks: [
      { Id: 'b1', Type: 'heading', Text: 'Newsletter', Level: 1, Align: 'left' },
      {
        Id: 'b2',
        Type: 'text',
        Html: '<p>Dear <span data-merge-field="Contact.FirstName" data-merge-params="{}">Contact.FirstName</span>,</p><p>Write your news here.</p>',
      },
      { Id: 'b3', Type: 'footer', Html: DEFAULT_FOOTER_HTML },
    ],
  };
}

/**
 * "Design it": a design started from a rich-text message. Its content becomes one text block (merge chips, links and
 * images kept as they are), under the new design's page settings and above the designer's footer with the
 * unsubscribe and preferences links; an empty message starts with an empty paragraph.
 */
export function designFromRichText(html: string): Design {
  const base = emptyDesign();
  const content = html.trim() === '' ? '<p></p>' : html;
  return {
    ...base,
    Blocks: [
      { Id: 'b1', Type: 'text', Html: content },
      { Id: 'b2', Type: 'footer', Html: DEFAULT_FOOTER_HTML },
    ],
  };
}

export const DEFAULT_FOOTER_HTML =
  '<p style="text-align: center">You receive this message as a contact of <span data-merge-field="Association.Name" data-merge-params="{}">Association.Name</span>. <a href="merge:Mailing.PreferencesUrl">Email preferences</a> · <a href="merge:Mailing.UnsubscribeUrl">Unsubscribe</a></p>';

/** A block id not yet used in the design. */
export function nextBlockId(design: Pick<Design, 'Blocks'>): string {
  let n = design.Blocks.length + 1;
  const used = new Set(design.Blocks.map((b) => b.Id));
  while (used.has(`b${n}`)) n++;
  return `b${n}`;
}
