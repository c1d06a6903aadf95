import {
  type FilterCriterion,
  type ResourceDeclaration,
  type SortSetting,
  screenNameOf,
  shouldPrefetchNextPage,
} from '@guildhall/shared';
import { fetchList, type ListParams } from './screens-api.ts';

/** What a list screen was showing, kept per screen for the session: the list comes back as it was left. */
export interface ListState {
  page: number;
  search: string;
  filterId: number;
  criteria: FilterCriterion[];
  sort: SortSetting | null;
}

/** The rows the list had loaded, by absolute position, for previous and next from a record. */
export interface RecordNavigation {
  params: Omit<ListParams, 'skip' | 'top'>;
  pageSize: number;
  offset: number;
  ids: string[];
  total: number;
}

const key = (kind: string, r: Pick<ResourceDeclaration, 'feature' | 'subfeature'>) =>
  `gh:${kind}:${screenNameOf(r)}`;

function read<T>(k: string): T | null {
  try {
    const raw = sessionStorage.getItem(k);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}
function write(k: string, value: unknown): void {
  try {
    sessionStorage.setItem(k, JSON.stringify(value));
  } catch {
    // Storage full or refused: the list simply starts fresh next time.
  }
}

export const loadListState = (r: ResourceDeclaration) => read<ListState>(key('list', r));
export const saveListState = (r: ResourceDeclaration, s: ListState) => write(key('list', r), s);

export const loadNavigation = (r: ResourceDeclaration) => read<RecordNavigation>(key('nav', r));
export const saveNavigation = (r: ResourceDeclaration, n: RecordNavigation) => write(key('nav', r), n);

/** Where a record stands in the loaded rows; null when the list never showed it. */
export function positionOf(nav: RecordNavigation | null, id: string): number | null {
  if (!nav) return null;
  const i = nav.ids.indexOf(id);
  return i < 0 ? null : nav.offset + i;
}

/**
 * Loads the page after (or before) the loaded rows when fewer than 10 remain ahead of the record (or it is the
 * first loaded one), so previous and next cross page boundaries.
 */
export async function extendNavigation(
  r: ResourceDeclaration,
  nav: RecordNavigation,
  position: number,
): Promise<RecordNavigation> {
  let next = nav;
  const loadedEnd = nav.offset + nav.ids.length;
  if (shouldPrefetchNextPage(position, loadedEnd, nav.total)) {
    const page = await fetchList(r, { ...nav.params, skip: loadedEnd, top: nav.pageSize });
    next = {
      ...next,
      total: page.TotalRecordAvailable,
      ids: [...next.ids, ...page.Results.map((row) => String(row[r.key]))],
    };
  }
  if (position === next.offset && next.offset > 0) {
    const skip = Math.max(0, next.offset - nav.pageSize);
    const page = await fetchList(r, { ...nav.params, skip, top: next.offset - skip });
    next = {
      ...next,
      offset: skip,
      total: page.TotalRecordAvailable,
      ids: [...page.Results.map((row) => String(row[r.key])), ...next.ids],
    };
  }
  if (next !== nav) saveNavigation(r, next);
  return next;
}
