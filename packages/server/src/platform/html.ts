/**
 * Rich text as the product keeps it: every rich-text value is passed through one allow-list (sanitize-html) on every
 * save, whatever screen or route wrote it. What survives is formatting, links and images over http(s), tables, and
 * the merge chips of the editors; no script, no style sheet, no event handler attribute, no javascript: or data: URL
 * (decision 0150). The browser sanitizes again (DOMPurify) before it shows stored HTML.
 */
import sanitizeHtml from 'sanitize-html';

const SAFE_STYLE = {
  color: [/^#[0-9a-f]{3,8}$/i, /^rgba?\([\d\s.,%]+\)$/i, /^[a-z]+$/i],
  'background-color': [/^#[0-9a-f]{3,8}$/i, /^rgba?\([\d\s.,%]+\)$/i, /^[a-z]+$/i],
  'text-align': [/^(left|right|center|justify)$/],
  'font-size': [/^\d+(\.\d+)?(px|pt|em|rem|%)$/],
  'font-weight': [/^(normal|bold|\d00)$/],
  'font-style': [/^(normal|italic)$/],
  'text-decoration': [/^(none|underline|line-through)$/],
  width: [/^\d+(\.\d+)?(px|%)?$/],
  'max-width': [/^\d+(\.\d+)?(px|%)$/],
  height: [/^(auto|\d+(\.\d+)?(px|%)?)$/],
  padding: [/^(\d+(px|em)?\s*){1,4}$/],
  margin: [/^((\d+(px|em)?|auto)\s*){1,4}$/],
  'line-height': [/^\d+(\.\d+)?(px|em|%)?$/],
  'vertical-align': [/^(top|middle|bottom|baseline)$/],
  border: [/^[\w\s#().,%-]{1,60}$/],
};

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'strike',
    'sub',
    'sup',
    'mark',
    'blockquote',
    'code',
    'pre',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'span',
    'div',
    'hr',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'td',
    'th',
    'caption',
    'colgroup',
    'col',
    'center',
    'font',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    span: ['data-merge-field', 'data-merge-params', 'data-signature'],
    div: ['data-signature'],
    td: ['colspan', 'rowspan', 'align', 'valign', 'width', 'bgcolor'],
    th: ['colspan', 'rowspan', 'align', 'valign', 'width', 'bgcolor'],
    table: ['width', 'align', 'cellpadding', 'cellspacing', 'border', 'bgcolor', 'role'],
    col: ['width', 'span'],
    font: ['color', 'face', 'size'],
    '*': ['style', 'class', 'dir', 'lang'],
  },
  allowedStyles: { '*': SAFE_STYLE },
  allowedClasses: { '*': [/^gh-[\w-]+$/, 'mention'] },
  // `merge:` links point at a merge field's address (MERGE_LINK_FIELDS), filled in when the message is rendered.
  allowedSchemes: ['http', 'https', 'mailto', 'tel', 'merge'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  // Relative addresses stay (an image of the library at /api/files/…); a scheme not allowed drops the attribute.
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'noscript', 'iframe', 'object', 'embed', 'template', 'title'],
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: attribs.target === '_blank' ? { ...attribs, rel: 'noopener noreferrer' } : attribs,
    }),
  },
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

/** Rich text through the product's allow-list. Idempotent: sanitizing twice changes nothing more. */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
