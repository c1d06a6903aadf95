import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkMergeParams,
  MERGE_FIELD_CATALOGUE,
  MERGE_FLAGS,
  mergeChipHtml,
  mergeChipLabel,
  mergeChipsOf,
  mergeFieldByName,
  mergeFieldsFor,
  mergeFieldUnavailable,
  mergeTag,
  NO_MERGE_FIELDS,
  templateToLiquid,
} from './merge-fields.rules.ts';

const field = (name: string) => {
  const f = mergeFieldByName(name);
  if (!f) throw new Error(name);
  return f;
};

describe('merge field lists by context', () => {
  it.each([
    [MERGE_FLAGS.RichText, 'contact', 'Contact.FirstName', true],
    [MERGE_FLAGS.RichText, 'contact', 'Events.Upcoming', false],
    [MERGE_FLAGS.Designer, 'contact', 'Events.Upcoming', true],
    [MERGE_FLAGS.RichText, 'signature', 'Contact.FirstName', false],
    [MERGE_FLAGS.RichText, 'signature', 'Sender.DisplayName', true],
    [MERGE_FLAGS.RichText, 'Contact', 'Contact.Email', true],
    [MERGE_FLAGS.RichText, 'unknown', 'Association.Name', true],
    [MERGE_FLAGS.RichText, 'unknown', 'Contact.Email', false],
    [0, 'contact', 'Contact.Email', false],
  ])('flags %i, entity %s: %s offered is %s', (flags, entity, name, offered) => {
    expect(mergeFieldsFor(flags, entity).some((f) => f.Name === name)).toBe(offered);
  });

  it('answers the wire shape without the catalogue flags', () => {
    for (const f of mergeFieldsFor(MERGE_FLAGS.Designer | MERGE_FLAGS.RichText, 'contact')) {
      expect(Object.keys(f).sort()).toEqual(['Description', 'GroupName', 'IsUber', 'Name', 'Parameters']);
    }
    expect(mergeFieldByName('Nope.Field')).toBeUndefined();
    expect(mergeFieldUnavailable('X')).toBe('Merge field "X" is not available within the current context');
    expect(NO_MERGE_FIELDS).toBe('No merge fields are available within the current context');
  });

  it('names every field Group.Field, once', () => {
    const names = MERGE_FIELD_CATALOGUE.map((f) => f.Name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[A-Z][A-Za-z]+\.[A-Z][A-Za-z]+$/);
  });
});

describe('merge parameters', () => {
  it.each([
    ['Contact.Salutation', {}, { Style: 'informal', Default: 'Dear member' }, {}],
    ['Contact.Salutation', { Style: 'formal' }, { Style: 'formal', Default: 'Dear member' }, {}],
    [
      'Contact.Salutation',
      { Style: 'rude' },
      { Style: 'rude', Default: 'Dear member' },
      { Style: 'Style must be one of informal, formal.' },
    ],
    ['Events.Upcoming', { Count: 5 }, { Count: '5' }, {}],
    ['Events.Upcoming', { Count: 'many' }, { Count: 'many' }, { Count: 'Count must be a whole number.' }],
    [
      'Contact.FirstName',
      { Default: 'x'.repeat(201) },
      { Default: 'x'.repeat(201) },
      { Default: 'Default has at most 200 characters.' },
    ],
  ])('%s with %j', (name, input, params, errors) => {
    expect(checkMergeParams(field(name), input)).toEqual({ params, errors });
  });

  it('checks Date parameters', () => {
    const f = {
      ...field('Contact.FirstName'),
      Parameters: [{ Name: 'On', Description: '', Type: 'Date', Default: null, Options: [] }],
    };
    expect(checkMergeParams(f, { On: '2026-11-25' }).errors).toEqual({});
    expect(checkMergeParams(f, { On: '25/11/2026' }).errors).toEqual({
      On: 'On must be a date (yyyy-mm-dd).',
    });
    expect(checkMergeParams(f, {}).params).toEqual({ On: '' });
  });
});

describe('tags and chips', () => {
  it('writes the Liquid tag of a field with its parameters', () => {
    expect(mergeTag(field('Contact.FirstName'), { Default: 'Friend' })).toBe(
      '{{ Contact.FirstName | default: "Friend" }}',
    );
    expect(mergeTag(field('Association.Name'), {})).toBe('{{ Association.Name }}');
    expect(mergeTag(field('Contact.Salutation'), { Style: 'formal', Default: 'a"b\\c\nd' })).toBe(
      '{{ Contact.Salutation | param: "Style", "formal" | default: "a\\"b\\\\c d" }}',
    );
    expect(mergeChipLabel(field('Contact.Salutation'), { Style: 'formal', Default: 'x' })).toBe(
      'Contact.Salutation (Style: formal)',
    );
  });

  it('reads back the chips it writes, whatever the parameters (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MERGE_FIELD_CATALOGUE.map((f) => f.Name)),
        fc.dictionary(
          fc.constantFrom('Default', 'Style', 'Count', 'Format', 'Days'),
          fc.string({ maxLength: 30 }),
        ),
        (name, params) => {
          const html = `<p>a ${mergeChipHtml(field(name), params)} b</p>`;
          expect(mergeChipsOf(html)).toEqual([{ name, params }]);
        },
      ),
    );
  });

  it('keeps typed text literal: no input makes a tag out of text (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        const clean = text.replaceAll('<', '&lt;');
        const { liquid, fields } = templateToLiquid(`<p>${clean}</p>`);
        expect(fields).toEqual([]);
        // Outside raw blocks there is nothing: every character of the text is inside one.
        const outside = liquid.replace(/\{% raw %\}[\s\S]*?\{% endraw %\}/g, '');
        expect(outside).toBe('');
      }),
    );
  });

  it('reports unknown fields, bad parameters, unknown and known merge links', () => {
    const r = templateToLiquid(
      '<span data-merge-field="Contact.ShoeSize" data-merge-params="{}">x</span><span data-merge-field="Contact.Salutation" data-merge-params="{&quot;Style&quot;:&quot;rude&quot;}">y</span><a href="merge:Contact.Email">e</a><a href="merge:Mailing.UnsubscribeUrl">u</a><span data-merge-field="Contact.FirstName" data-merge-params="not json">z</span>',
    );
    expect(r.errors).toEqual([
      'Merge field "Contact.ShoeSize" is not available within the current context',
      'Style must be one of informal, formal.',
      'Merge field "Contact.Email" is not available within the current context',
    ]);
    expect(r.liquid).toContain('href="{{ Mailing.UnsubscribeUrl }}"');
    expect(r.fields).toEqual(['Contact.FirstName']);
    expect(templateToLiquid('').liquid).toBe('');
  });

  it('cannot be broken out of by an endraw typed in the text', () => {
    const { liquid } = templateToLiquid('<p>{% endraw %}{{ Contact.Email }}{%- endraw -%}</p>');
    expect(liquid).toBe('{% raw %}<p>{&#37; endraw %}{{ Contact.Email }}{&#37;- endraw -%}</p>{% endraw %}');
  });
});
