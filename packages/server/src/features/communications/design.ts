/**
 * The email designer's server half (decision 0153): a design (shared `designSchema`) becomes MJML, every piece of
 * it either validated by the schema (colours, sizes, link and image addresses) or escaped (plain text) or passed
 * through the product's rich-text allow-list (the blocks' rich text), and MJML 5 turns it into responsive email HTML
 * (tables, Outlook's conditional comments, a 520 px breakpoint). The browser never sends HTML of its own for a
 * design: the saved Html is always this rendering of the saved DesignJson.
 */

import { createRequire } from 'node:module';
import { DESIGN_FONTS, DESIGN_MOBILE_BREAKPOINT, type Design, type DesignBlock } from '@guildhall/shared';
import { sanitizeRichText } from '../../platform/html.ts';
import { escapeHtml } from './render.ts';

type Mjml2Html = (
  input: string,
  options: { validationLevel: 'strict' | 'soft' | 'skip'; keepComments: boolean },
) => Promise<{ html: string; errors: { message: string }[] }>;

/**
 * MJML 5 (CommonJS, no types): the one call made of it. `mjml2html` answers a Promise in v5. Loaded when a design is
 * first rendered, not at start: MJML and its components keep about 90 MiB resident once loaded (decision 0086).
 */
let mjml: Mjml2Html | undefined;
const mjml2html: Mjml2Html = (input, options) => {
  mjml ??= createRequire(import.meta.url)('mjml') as Mjml2Html;
  return mjml(input, options);
};

/** An attribute value (already validated by the schema) escaped once more for the MJML markup. */
const attr = (v: string | number) => escapeHtml(String(v));

/** Rich text of a block through the product's allow-list (library images keep their path: absolute when sent). */
const rich = (html: string) => sanitizeRichText(html);

function blockMjml(b: DesignBlock, d: Design): string {
  const bg = d.Settings.ContentBackgroundColor;
  const section = (inner: string, sectionBg = bg, padding = '0 24px') =>
    `<mj-section background-color="${attr(sectionBg)}" padding="${padding}"><mj-column>${inner}</mj-column></mj-section>`;
  switch (b.Type) {
    case 'heading': {
      const size = b.Level === 1 ? 28 : 21;
      const color = b.Color ?? d.Settings.TextColor;
      return section(
        `<mj-text align="${b.Align}" padding="16px 0 8px"><h${b.Level} style="margin: 0; font-size: ${size}px; line-height: 1.25; color: ${attr(color)}; text-align: ${b.Align}">${escapeHtml(b.Text)}</h${b.Level}></mj-text>`,
      );
    }
    case 'text':
      return section(
        `<mj-text padding="8px 0">${rich(b.Html)}</mj-text>`,
        b.BackgroundColor ?? bg,
        b.BackgroundColor ? '8px 24px' : '0 24px',
      );
    case 'footer':
      return section(`<mj-text padding="16px 0" font-size="12px" color="#868e96">${rich(b.Html)}</mj-text>`);
    case 'image': {
      const width = b.Width ? ` width="${b.Width}px"` : '';
      const link = b.Href ? ` href="${attr(b.Href)}"` : '';
      return section(
        `<mj-image src="${attr(b.Src)}" alt="${attr(b.Alt)}"${width}${link} align="${b.Align}" padding="8px 0" fluid-on-mobile="true" />`,
      );
    }
    case 'button':
      return section(
        `<mj-button href="${attr(b.Href)}" background-color="${attr(b.BackgroundColor)}" color="${attr(b.Color)}" align="${b.Align}" border-radius="4px" padding="12px 0" font-weight="bold">${escapeHtml(b.Label)}</mj-button>`,
      );
    case 'divider':
      return section(`<mj-divider border-color="${attr(b.Color)}" border-width="1px" padding="12px 0" />`);
    case 'spacer':
      return section(`<mj-spacer height="${b.Height}px" />`);
    case 'columns':
      return `<mj-section background-color="${attr(bg)}" padding="0 12px">${b.Columns.map(
        (c) => `<mj-column padding="0 12px"><mj-text padding="8px 0">${rich(c)}</mj-text></mj-column>`,
      ).join('')}</mj-section>`;
  }
}

/** The design as MJML markup. */
export function designToMjml(design: Design, subject: string): string {
  const s = design.Settings;
  const font = DESIGN_FONTS.find((f) => f.Id === s.Font)?.Css ?? DESIGN_FONTS[0].Css;
  const preview = s.Preheader ? `<mj-preview>${escapeHtml(s.Preheader)}</mj-preview>` : '';
  return [
    '<mjml>',
    '<mj-head>',
    `<mj-title>${escapeHtml(subject)}</mj-title>`,
    preview,
    `<mj-breakpoint width="${DESIGN_MOBILE_BREAKPOINT}px" />`,
    `<mj-attributes><mj-all font-family="${attr(font)}" /><mj-text color="${attr(s.TextColor)}" font-size="15px" line-height="1.55" /></mj-attributes>`,
    `<mj-style inline="inline">a { color: ${s.LinkColor}; } p { margin: 0 0 12px; } img { max-width: 100%; }</mj-style>`,
    '</mj-head>',
    `<mj-body background-color="${attr(s.BackgroundColor)}" width="${s.Width}px">`,
    '<mj-section padding="12px 0"><mj-column></mj-column></mj-section>',
    ...design.Blocks.map((b) => blockMjml(b, design)),
    '<mj-section padding="12px 0"><mj-column></mj-column></mj-section>',
    '</mj-body>',
    '</mjml>',
  ].join('\n');
}

/** The email HTML of a design (MJML 5's `mjml2html` answers a Promise). */
export async function renderDesign(design: Design, subject: string): Promise<string> {
  const out = await mjml2html(designToMjml(design, subject), {
    validationLevel: 'soft',
    keepComments: false,
  });
  return out.html;
}
