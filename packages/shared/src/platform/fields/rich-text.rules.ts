/**
 * Rules of the rich-text editor (spec 001 sections 4, 5 and 9; its stacking level is in list-layout.rules.ts): its set of 56 emoticon faces,
 * and the optional character maximum (`editormaxlength`), counted on the text a reader sees, not the markup.
 */

/** "Editor emoticon set of 56 faces" (spec 001 section 9). */
export const EDITOR_EMOTICONS: readonly string[] = [
  '😀',
  '😃',
  '😄',
  '😁',
  '😆',
  '😅',
  '🤣',
  '😂',
  '🙂',
  '🙃',
  '😉',
  '😊',
  '😇',
  '🥰',
  '😍',
  '🤩',
  '😘',
  '😗',
  '😚',
  '😙',
  '😋',
  '😛',
  '😜',
  '🤪',
  '😝',
  '🤑',
  '🤗',
  '🤭',
  '🤫',
  '🤔',
  '🤐',
  '🤨',
  '😐',
  '😑',
  '😶',
  '😏',
  '😒',
  '🙄',
  '😬',
  '😌',
  '😔',
  '😪',
  '😴',
  '😷',
  '🤒',
  '🤕',
  '🥳',
  '😎',
  '🤓',
  '🧐',
  '😕',
  '😟',
  '🙁',
  '😮',
  '😲',
  '😳',
];

const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/** The text a reader sees in rich text: tags dropped, the common entities read, each merge chip one character. */
export function richTextPlainText(html: string): string {
  return html
    .replace(
      /<span\b(?:[^>"]|"[^"]*")*\sdata-merge-field="[^"]*"(?:[^>"]|"[^"]*")*>[\s\S]*?<\/span>/g,
      '\u2060',
    )
    .replace(/<(br|\/p|\/h\d|\/li|\/div)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_m, e: string) => ENTITY[e] ?? '')
    .replace(/\n+$/, '');
}

/** Characters of rich text as the maximum counts them (emoji count as one each). */
export function richTextLength(html: string): number {
  return [...richTextPlainText(html)].length;
}

/** Whether rich text is within an optional maximum; no maximum allows any length. */
export function withinEditorMaxLength(html: string, max: number | null | undefined): boolean {
  return max === null || max === undefined || max <= 0 || richTextLength(html) <= max;
}
