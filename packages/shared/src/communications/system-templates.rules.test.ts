import { describe, expect, it } from 'vitest';
import { defineSystemTemplate } from '../platform/system-templates.ts';
import { MERGE_CHIP_ATTR } from './merge-fields.rules.ts';
import {
  systemExtra,
  systemMergeFields,
  systemSamples,
  systemTemplateEntity,
  systemTemplateInputSchema,
  withChips,
} from './system-templates.rules.ts';

const reminder = defineSystemTemplate({
  Key: 'test.reminder',
  Title: 'Reminder',
  Description: 'A test message',
  Group: 'Staff',
  Subject: 'Hello {{Person.Name}}',
  BodyHtml: '<p>Hello {{Person.Name}}, <a href="{{Link.Url}}">open it</a>.</p>',
  Fields: [
    { Name: 'Person.Name', Description: 'Their name', Sample: 'Ada Lovelace' },
    { Name: 'Link.Url', Description: 'The address', Sample: 'https://example.org/x', Link: true },
  ],
});

describe('system messages', () => {
  it('offers its own values, a text with a default and a link without, then the association’s', () => {
    const fields = systemMergeFields(reminder);
    expect(fields.map((f) => f.Name)).toEqual([
      'Person.Name',
      'Link.Url',
      'Association.Name',
      'Association.Website',
    ]);
    expect(fields[0]?.GroupName).toBe('Person');
    expect(fields[0]?.Parameters.map((p) => p.Name)).toEqual(['Default']);
    expect(fields[1]?.Parameters).toEqual([]);
    expect(systemExtra(reminder).links).toEqual(['Link.Url']);
    expect(systemTemplateEntity(reminder.Key)).toBe('system:test.reminder');
    expect(systemSamples(reminder)).toEqual({
      'Person.Name': 'Ada Lovelace',
      'Link.Url': 'https://example.org/x',
    });
    // A message that offers the association's name itself does not get it twice.
    const own = defineSystemTemplate({
      ...reminder,
      Fields: [{ Name: 'Association.Name', Description: 'Name', Sample: 'Guild' }],
    });
    expect(systemMergeFields(own).map((f) => f.Name)).toEqual(['Association.Name', 'Association.Website']);
  });

  it('turns {{values}} into merge chips and links, escaping a plain subject first', () => {
    const body = withChips(reminder.BodyHtml, reminder);
    expect(body).toContain(`<span ${MERGE_CHIP_ATTR}="Person.Name"`);
    expect(body).toContain('href="merge:Link.Url"');
    expect(body).not.toContain('{{');
    const subject = withChips('Re: <b>{{ Person.Name }}</b> & co', reminder, true);
    expect(subject.startsWith('Re: &lt;b&gt;<span')).toBe(true);
    expect(subject.endsWith('&lt;/b&gt; &amp; co')).toBe(true);
    // A name the message does not offer stays a chip (the template check refuses it).
    expect(withChips('{{Unknown.Thing}}', reminder)).toContain(`${MERGE_CHIP_ATTR}="Unknown.Thing"`);
  });

  it('needs a subject', () => {
    expect(systemTemplateInputSchema.safeParse({ Subject: '  ', BodyHtml: '' }).success).toBe(false);
    expect(systemTemplateInputSchema.parse({ Subject: ' Hi ', BodyHtml: '<p>x</p>' }).Subject).toBe('Hi');
  });
});
