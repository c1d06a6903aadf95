import type { SearchHit } from '@guildhall/shared';

/** The named screens a search hit opens (spec 000 section 2). */
export type SearchScreen =
  | 'ContactsInfo.General'
  | 'DirectoryContactDetail.General'
  | 'EventsDetail.General'
  | 'EventDetail.General'
  | 'TasksProject.General';

/**
 * Where a hit leads: a named screen with its parameters; an event screen once
 * GET /api/events/getEventId/{id} answered its parameters; a download (file hits); or nowhere (an unknown type).
 */
export type SearchTarget =
  | { kind: 'screen'; screen: SearchScreen; params: Record<string, string> }
  | { kind: 'event'; screen: 'EventsDetail.General' | 'EventDetail.General'; lookupUrl: string }
  | { kind: 'download'; url: string }
  | { kind: 'none' };

export type SearchArea = 'backoffice' | 'member';

/** The hit's target by its type and the area searched (spec 000 sections 2, 3 and 7). */
export function searchTarget(hit: Pick<SearchHit, 'Type' | 'Id'>, area: SearchArea): SearchTarget {
  const id = encodeURIComponent(String(hit.Id));
  switch (hit.Type) {
    case 'Contact':
      return { kind: 'screen', screen: 'ContactsInfo.General', params: { ContactId: String(hit.Id) } };
    case 'DirectoryContact':
      return {
        kind: 'screen',
        screen: 'DirectoryContactDetail.General',
        params: { DirectoryContactId: String(hit.Id) },
      };
    case 'Event':
      return {
        kind: 'event',
        screen: area === 'backoffice' ? 'EventsDetail.General' : 'EventDetail.General',
        lookupUrl: `/api/events/getEventId/${id}`,
      };
    case 'Project':
      return { kind: 'screen', screen: 'TasksProject.General', params: { ProjectId: String(hit.Id) } };
    case 'Task': {
      // A task's id is "<project>-<task>": it opens its project's screen on the tasks ("0-<task>": no project).
      const [projectId = '', taskId = ''] = String(hit.Id).split('-');
      return {
        kind: 'screen',
        screen: 'TasksProject.General',
        params: { ProjectId: projectId, TaskId: taskId },
      };
    }
    case 'File':
      return { kind: 'download', url: `/api/files/download/${id}` };
    default:
      return { kind: 'none' };
  }
}

/**
 * The address of a named screen in this product, or null while the feature that owns it does not exist yet.
 */
export function screenPath(screen: SearchScreen, params: Record<string, string>): string | null {
  const p = (name: string) => encodeURIComponent(params[name] ?? '');
  switch (screen) {
    case 'ContactsInfo.General':
      return params.ContactId ? `/micronet/list/contacts/contacts/${p('ContactId')}` : null;
    case 'DirectoryContactDetail.General':
      return params.DirectoryContactId ? `/m/directory/${p('DirectoryContactId')}` : null;
    case 'EventsDetail.General':
      return params.EventId ? `/a/events/${p('EventId')}` : null;
    case 'EventDetail.General':
      return params.EventId ? `/m/events/${p('EventId')}` : null;
    case 'TasksProject.General':
      if (params.ProjectId && params.ProjectId !== '0')
        return `/micronet/list/tasks/projects/${p('ProjectId')}${params.TaskId ? '?tab=tasks' : ''}`;
      return params.TaskId ? `/micronet/list/tasks/tasks/${p('TaskId')}` : null;
    default:
      return null;
  }
}

/** Whether the product can open the hit today (a screen it has, a download, an event screen it has). */
export function isReachable(target: SearchTarget): boolean {
  if (target.kind === 'screen') return screenPath(target.screen, target.params) !== null;
  if (target.kind === 'event') return screenPath(target.screen, { EventId: '0' }) !== null;
  return target.kind === 'download';
}

/** The title of a group of hits in the search box. */
export function hitGroupTitle(type: string): string {
  switch (type) {
    case 'Contact':
      return 'Contacts';
    case 'DirectoryContact':
      return 'Directory';
    case 'Event':
      return 'Events';
    case 'Project':
      return 'Projects';
    case 'Task':
      return 'Tasks';
    case 'File':
      return 'Files';
    default:
      return type;
  }
}

/** The search call's address: the area and the encoded lowercase query, version 2. */
export function globalSearchUrl(area: SearchArea, query: string): string {
  return `/api/search/global/${area}/${encodeURIComponent(query.trim().toLowerCase())}?v=2`;
}

/** Hits grouped by type, in the order the server ranked their first hit. */
export function groupHits<H extends Pick<SearchHit, 'Type'>>(
  hits: readonly H[],
): { type: string; hits: H[] }[] {
  const groups = new Map<string, H[]>();
  for (const hit of hits) {
    const list = groups.get(hit.Type);
    if (list) list.push(hit);
    else groups.set(hit.Type, [hit]);
  }
  return [...groups].map(([type, list]) => ({ type, hits: list }));
}
