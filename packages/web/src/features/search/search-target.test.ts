import { describe, expect, it } from 'vitest';
import { globalSearchUrl, groupHits, isReachable, screenPath, searchTarget } from './search-target.ts';

describe('searchTarget', () => {
  it.each([
    ['Contact', 'backoffice', { kind: 'screen', screen: 'ContactsInfo.General', params: { ContactId: '7' } }],
    [
      'DirectoryContact',
      'member',
      { kind: 'screen', screen: 'DirectoryContactDetail.General', params: { DirectoryContactId: '7' } },
    ],
    [
      'Event',
      'backoffice',
      { kind: 'event', screen: 'EventsDetail.General', lookupUrl: '/api/events/getEventId/7' },
    ],
    [
      'Event',
      'member',
      { kind: 'event', screen: 'EventDetail.General', lookupUrl: '/api/events/getEventId/7' },
    ],
    ['Project', 'backoffice', { kind: 'screen', screen: 'TasksProject.General', params: { ProjectId: '7' } }],
    [
      'Task',
      'backoffice',
      { kind: 'screen', screen: 'TasksProject.General', params: { ProjectId: '7', TaskId: '' } },
    ],
    ['File', 'member', { kind: 'download', url: '/api/files/download/7' }],
    ['Invoice', 'backoffice', { kind: 'none' }],
  ] as const)('a %s hit in the %s area', (type, area, expected) => {
    expect(searchTarget({ Type: type, Id: '7' }, area)).toEqual(expected);
  });

  it('opens only the screens the product has today', () => {
    expect(screenPath('ContactsInfo.General', { ContactId: '7' })).toBe('/micronet/list/contacts/contacts/7');
    expect(screenPath('DirectoryContactDetail.General', { DirectoryContactId: '7' })).toBe('/m/directory/7');
    expect(isReachable(searchTarget({ Type: 'Contact', Id: '1' }, 'backoffice'))).toBe(true);
    expect(isReachable(searchTarget({ Type: 'Event', Id: '1' }, 'backoffice'))).toBe(true);
    expect(isReachable(searchTarget({ Type: 'Event', Id: '1' }, 'member'))).toBe(true);
    expect(screenPath('EventsDetail.General', { EventId: '7' })).toBe('/a/events/7');
    expect(screenPath('EventDetail.General', { EventId: '7' })).toBe('/m/events/7');
    expect(isReachable(searchTarget({ Type: 'Project', Id: '1' }, 'backoffice'))).toBe(true);
    expect(screenPath('TasksProject.General', { ProjectId: '7' })).toBe('/micronet/list/tasks/projects/7');
    expect(screenPath('TasksProject.General', { ProjectId: '7', TaskId: '9' })).toBe(
      '/micronet/list/tasks/projects/7?tab=tasks',
    );
    expect(screenPath('TasksProject.General', { ProjectId: '0', TaskId: '9' })).toBe(
      '/micronet/list/tasks/tasks/9',
    );
    expect(screenPath('TasksProject.General', { ProjectId: '0' })).toBe(null);
    expect(isReachable(searchTarget({ Type: 'Invoice', Id: '1' }, 'backoffice'))).toBe(false);
  });

  it('encodes the lowercase query and groups hits by type in ranked order', () => {
    expect(globalSearchUrl('backoffice', ' Ada L/ove ')).toBe(
      '/api/search/global/backoffice/ada%20l%2Fove?v=2',
    );
    const groups = groupHits([
      { Type: 'Contact', n: 1 },
      { Type: 'DirectoryContact', n: 2 },
      { Type: 'Contact', n: 3 },
    ]);
    expect(groups.map((g) => [g.type, g.hits.map((h) => h.n)])).toEqual([
      ['Contact', [1, 3]],
      ['DirectoryContact', [2]],
    ]);
  });
});
