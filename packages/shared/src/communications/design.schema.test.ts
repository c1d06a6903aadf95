import { describe, expect, it } from 'vitest';
import { DEFAULT_FOOTER_HTML, designFromRichText, designSchema } from './design.schema.ts';

describe('designFromRichText', () => {
  it('keeps the rich-text message as one text block above the footer, a valid design', () => {
    const html =
      '<p>Dear <span data-merge-field="Contact.FirstName" data-merge-params="{}">Contact.FirstName</span>,</p><p><a href="https://example.org">Our news</a></p>';
    const design = designFromRichText(html);
    expect(designSchema.parse(design)).toEqual(design);
    expect(design.Blocks).toEqual([
      { Id: 'b1', Type: 'text', Html: html },
      { Id: 'b2', Type: 'footer', Html: DEFAULT_FOOTER_HTML },
    ]);
  });

  it('an empty message starts with an empty paragraph', () => {
    expect(designFromRichText('  ').Blocks[0]).toEqual({ Id: 'b1', Type: 'text', Html: '<p></p>' });
  });
});
