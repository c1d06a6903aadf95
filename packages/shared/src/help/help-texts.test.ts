import { describe, expect, it } from 'vitest';
import { contactsResource } from '../contacts/contacts.resource.ts';
import { usersResource } from '../users/users.resource.ts';
import {
  defaultHelpTexts,
  FIXED_SCREEN_STATES,
  resourceStateName,
  resourceTooltips,
  singularTitle,
  tooltipStateName,
  tooltipText,
} from './help-texts.ts';

describe('help texts', () => {
  it('names a resource screen after the resource and its kind', () => {
    expect(resourceStateName(contactsResource, 'List')).toBe('Contacts.List');
    expect(tooltipStateName(contactsResource, 'City')).toBe('Contacts.Tooltip.City');
  });

  it('names one record of a list in the singular', () => {
    expect(singularTitle('Bill frequencies')).toBe('Bill frequency');
    expect(singularTitle('Addresses')).toBe('Address');
    expect(singularTitle('Tax sets')).toBe('Tax set');
    expect(singularTitle('Certification programmes')).toBe('Certification programme');
    expect(singularTitle('Status')).toBe('Status');
    expect(singularTitle('Settings')).toBe('Setting');
  });

  it('gives every fixed screen and every screen of each resource a non-empty text, each once', () => {
    const texts = defaultHelpTexts([contactsResource, usersResource]);
    const names = texts.map((t) => t.stateName);
    expect(new Set(names).size).toBe(names.length);
    for (const s of FIXED_SCREEN_STATES) expect(names).toContain(s);
    for (const kind of ['List', 'Record', 'Preview', 'New'] as const)
      expect(names).toContain(resourceStateName(contactsResource, kind));
    for (const t of texts) {
      expect(t.title.trim()).not.toBe('');
      expect(t.content.trim()).not.toBe('');
    }
  });

  it('reads a help text as plain tooltip text', () => {
    expect(
      tooltipText(
        '<p>Town &amp; city&nbsp;of the <b>main</b>\n address &lt;x&gt; &quot;a&quot; &#39;b&#39;</p>',
      ),
    ).toBe('Town & city of the main address <x> "a" \'b\'');
    expect(tooltipText('&amp;lt;')).toBe('&lt;');
  });

  it('prefers the association’s tooltip over the declared one and leaves out fields without either', () => {
    const resource = {
      name: 'contacts',
      fields: { City: { tooltip: 'Declared' }, Email: {}, Phone: { tooltip: 'Declared phone' } },
    } as unknown as Parameters<typeof resourceTooltips>[0];
    const written = new Map([['Contacts.Tooltip.City', '<p>Where they live</p>']]);
    expect(resourceTooltips(resource, written)).toEqual({ City: 'Where they live', Phone: 'Declared phone' });
  });
});
