import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EDITOR_EMOTICONS,
  richTextLength,
  richTextPlainText,
  withinEditorMaxLength,
} from './rich-text.rules.ts';

describe('rich-text editor rules', () => {
  it('has 56 distinct emoticon faces', () => {
    expect(EDITOR_EMOTICONS).toHaveLength(56);
    expect(new Set(EDITOR_EMOTICONS).size).toBe(56);
  });

  it.each([
    ['', 0],
    ['<p>Hello</p>', 5],
    ['<p>a &amp; b</p>', 5],
    [
      '<p>Hi <span data-merge-field="Contact.FirstName" data-merge-params="{}">Contact.FirstName</span>!</p>',
      5,
    ],
    ['<p>😀😃</p>', 2],
    ['<p>a</p><p>b</p>', 3],
    ['<p>a<br>b</p>', 3],
  ])('counts %s as %i characters', (html, n) => {
    expect(richTextLength(html)).toBe(n);
  });

  it('applies the optional maximum', () => {
    expect(withinEditorMaxLength('<p>Hello</p>', 5)).toBe(true);
    expect(withinEditorMaxLength('<p>Hello!</p>', 5)).toBe(false);
    expect(withinEditorMaxLength('<p>Hello!</p>', undefined)).toBe(true);
    expect(withinEditorMaxLength('<p>Hello!</p>', null)).toBe(true);
    expect(withinEditorMaxLength('<p>Hello!</p>', 0)).toBe(true);
    expect(richTextPlainText('<p>x&nbsp;y &lt;z&gt; &quot;q&quot; &#39;s&#39;</p>')).toBe(
      'x y <z> "q" \'s\'',
    );
  });

  it('never counts markup: wrapping text in formatting keeps its length (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }).filter((s) => !/[<>&]/.test(s)),
        (s) => {
          expect(richTextLength(`<p><strong><em>${s}</em></strong></p>`)).toBe(richTextLength(`<p>${s}</p>`));
        },
      ),
    );
  });
});
