import { describe, expect, it } from 'vitest';
import { contactsResource } from '../contacts/contacts.resource.ts';
import { helpTextsResource } from '../help/help.resource.ts';
import { samplesResource } from '../samples/samples.resource.ts';
import { usersResource } from '../users/users.resource.ts';
import {
  calendarDateField,
  defineResource,
  listVariantsOf,
  type ResourceInput,
  resourceProblems,
  safeExternalUrl,
} from './resource.ts';

describe('safeExternalUrl', () => {
  it.each([
    ['/api/docs', true],
    ['https://www.plainlanguage.gov/guidelines/', false],
    ['https://example.org:8443/a?b=c#d', false],
  ])('accepts %s', (url, sameSite) => {
    expect(safeExternalUrl(url)).toEqual({ href: url, sameSite });
  });
  it.each([
    'javascript:alert(1)',
    'http://example.org/',
    '//evil.example/',
    'https://user:pass@example.org/',
    'https://example.org/ a',
    '/\\evil.example',
    'data:text/html,hi',
  ])('refuses %s', (url) => {
    expect(safeExternalUrl(url)).toBeNull();
  });
});

describe('screen declarations', () => {
  it('keeps the test fixture out of every product surface', () => {
    expect(samplesResource.fixture).toBe(true);
    expect(samplesResource.screen?.widgets ?? []).toEqual([]);
    expect(samplesResource.screen?.menu).toBeUndefined();
    expect(usersResource.screen?.children ?? []).toEqual([]);
  });
  it('the resources declare every screen type they demonstrate', () => {
    expect(usersResource.screen?.recordType).toBe('MainEntityParentPage');
    expect(helpTextsResource.screen?.listVariant).toBe('ListView');
    expect(usersResource.screen?.widgets?.map((w) => w.kind)).toEqual(['count']);
    expect(contactsResource.screen?.widgets?.map((w) => w.kind)).toEqual(['list']);
    for (const r of [usersResource, helpTextsResource, samplesResource, contactsResource])
      expect(resourceProblems(r)).toEqual([]);
  });
  it('refuses an unknown preview field, an unsortable widget sort and an unsafe external page', () => {
    expect(() =>
      defineResource({
        ...helpTextsResource,
        screen: {
          preview: ['Nope'],
          widgets: [{ key: 'w', title: 'W', kind: 'list', sort: { field: 'Content', direction: 'asc' } }],
          externalUrls: [{ key: 'x', title: 'X', url: 'javascript:alert(1)' }],
        },
      }),
    ).toThrow(/screen preview names unknown field Nope.*widget w sorts by Content.*external page x/);
  });
});

describe('calendar variant', () => {
  it('is offered only where the records have a date', () => {
    expect(calendarDateField(samplesResource)).toBe('StartDate');
    expect(listVariantsOf(samplesResource)).toContain('DeluxeListViewWithCalendar');
    // Contacts are dated by their creation (the dashboard counts the month's new ones): the calendar places them there.
    expect(calendarDateField(contactsResource)).toBe('CreatedAt');
    const undated = { fields: { Name: { type: 'text' as const, label: 'Name' } }, filterable: [] };
    expect(listVariantsOf(undated)).toEqual([
      'ListView',
      'DeluxeListView',
      'DeluxeListViewWithCards',
      'InfiniteScroll',
    ]);
  });

  it('refuses a resource whose default list is a calendar without a date', () => {
    expect(() =>
      defineResource({
        name: 'undated',
        feature: 'x',
        subfeature: 'y',
        view: 'z',
        title: 'Undated',
        table: 'undated',
        key: 'Id',
        permissions: { read: 'backoffice', write: null },
        fields: { Id: { type: 'number', label: 'Id' } },
        columns: [],
        sortable: ['Id'],
        filterable: [],
        form: [],
        defaultSort: { field: 'Id', direction: 'asc' },
        screen: { listVariant: 'DeluxeListViewWithCalendar' },
      }),
    ).toThrow(/needs a date/);
  });
});

describe('server call with confirm', () => {
  it("fills the path and question with the row's values, encoded in the path, and refuses a missing one", async () => {
    const { fillServerCall } = await import('./resource.ts');
    expect(fillServerCall('/api/users/{UserId}/send-password-reset', { UserId: 7 })).toBe(
      '/api/users/7/send-password-reset',
    );
    expect(fillServerCall('/api/x/{Name}', { Name: 'a/b c' })).toBe('/api/x/a%2Fb%20c');
    expect(fillServerCall('Email {DisplayName}?', { DisplayName: 'Ana Díaz' }, false)).toBe(
      'Email Ana Díaz?',
    );
    expect(fillServerCall('/api/x/{Missing}', {})).toBeNull();
  });

  it('is declared only with a call inside the API, naming declared fields', () => {
    const base: ResourceInput<'Id'> = {
      name: 'calls',
      feature: 'x',
      subfeature: 'y',
      view: 'z',
      title: 'Calls',
      table: 'calls',
      key: 'Id',
      permissions: { read: 'backoffice', write: null },
      fields: { Id: { type: 'number', label: 'Id' } },
      columns: [],
      sortable: ['Id'],
      filterable: [],
      form: [],
      defaultSort: { field: 'Id', direction: 'asc' },
    };
    const call = (path: string): ResourceInput<'Id'> => ({
      ...base,
      rowActions: [
        {
          key: 'go',
          title: 'Go',
          kind: 'serverCall' as const,
          call: { method: 'POST' as const, path, confirm: 'Sure?' },
        },
      ],
    });
    expect(() => defineResource(call('/api/calls/{Id}/go'))).not.toThrow();
    expect(() => defineResource(call('https://elsewhere.example/{Id}'))).toThrow(/outside \/api/);
    expect(() => defineResource(call('/api/calls/{Nope}/go'))).toThrow(/unknown field Nope/);
    expect(() =>
      defineResource({ ...base, rowActions: [{ key: 'go', title: 'Go', kind: 'serverCall' as const }] }),
    ).toThrow(/has a call/);
  });
});
