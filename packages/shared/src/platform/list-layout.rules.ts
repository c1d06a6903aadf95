/** Screen-layer constants of spec 000 section 9 and spec 001 section 9. */
export const LIST_SEARCH_DEBOUNCE_MS = 350;
export const EXPORT_TOP = 999_999_999;
export const FILE_READY_POLL_MS = 3000;
export const DEFAULT_POLL_TOAST_MS = 5000;
export const EXTRA_ACTIONS_AUTO_HIDE_MS = 4000;
export const NEXT_RECORD_PREFETCH_THRESHOLD = 10;
export const INFINITE_SCROLL_DISTANCE = 0.15;
export const IMAGE_PICKER_MAX_HEIGHT_PX = 500;
export const MOBILE_IMAGE_BREAKPOINT_PX = 520;
export const DASHBOARD_GRID = { columns: 6, maxRows: 100, mobileBreakpointPx: 600 } as const;
export const FILE_PICKER_PAGE_SIZE = 100;
export const QUERY_FILTER_MIN_CHARS = 3;
export const MULTI_SELECT_SEARCH_ABOVE = 5;
export const MODAL_BASE_Z_INDEX = 1050;
export const MODAL_Z_INDEX_STEP = 10;
export const EDITOR_BASE_Z_INDEX = 990;

/** Filter tags: "Tag width is estimated at 7.5 px per character plus 40 px." */
export const FILTER_TAG_PX_PER_CHAR = 7.5;
export const FILTER_TAG_PADDING_PX = 40;

export function filterTagWidth(label: string): number {
  return Array.from(label).length * FILTER_TAG_PX_PER_CHAR + FILTER_TAG_PADDING_PX;
}

/** A criteria tag (spec 000 section 3: DisplayName, CriteriaDisplayValue, PropertyName, ShowValueOnTag). */
export interface CriteriaTag {
  DisplayName: string;
  CriteriaDisplayValue?: string | null;
  PropertyName?: string | null;
  ShowValueOnTag?: boolean | null;
}

/** The text on a tag: the name, and the value after a colon when the tag shows it. */
export function criteriaTagLabel(tag: CriteriaTag): string {
  const value = tag.CriteriaDisplayValue?.trim();
  return tag.ShowValueOnTag && value ? `${tag.DisplayName}: ${value}` : tag.DisplayName;
}

export const overflowTagLabel = (hidden: number): string => `${hidden} more`;

/**
 * Which filter tags fit in a width: tags are kept in order while they fit; when some do not, room is kept for a
 * "{n} more" tag, dropping visible tags until it fits too. At least the overflow tag is always shown.
 */
export function fitFilterTags(
  labels: readonly string[],
  availableWidth: number,
): { visibleCount: number; hiddenCount: number; overflowLabel: string | null } {
  const widths = labels.map(filterTagWidth);
  const total = widths.reduce((sum, width) => sum + width, 0);
  if (total <= availableWidth) return { visibleCount: labels.length, hiddenCount: 0, overflowLabel: null };
  let visible = 0;
  let used = 0;
  while (visible < widths.length && used + (widths[visible] ?? 0) <= availableWidth)
    used += widths[visible++] ?? 0;
  while (visible > 0 && used + filterTagWidth(overflowTagLabel(labels.length - visible)) > availableWidth) {
    used -= widths[--visible] ?? 0;
  }
  const hidden = labels.length - visible;
  return { visibleCount: visible, hiddenCount: hidden, overflowLabel: overflowTagLabel(hidden) };
}

/** "Row actions: more than 2 visible actions collapse into a dropdown." */
export const ROW_ACTIONS_INLINE_MAX = 2;
/** "The count of visible row actions is capped at 3 elsewhere." */
export const ROW_ACTIONS_VISIBLE_CAP = 3;

export function rowActionsLayout<T extends { visible?: boolean | null }>(
  actions: readonly T[],
): { mode: 'inline' | 'dropdown'; actions: T[] } {
  const visible = actions.filter((action) => action.visible !== false);
  return { mode: visible.length > ROW_ACTIONS_INLINE_MAX ? 'dropdown' : 'inline', actions: visible };
}

export function cappedVisibleActionCount(count: number): number {
  return Math.max(0, Math.min(ROW_ACTIONS_VISIBLE_CAP, count));
}

/**
 * "Previous/next record navigation from a record; when fewer than 10 records remain ahead, the next page is
 * fetched." True when the next page should be fetched now.
 */
export function shouldPrefetchNextPage(
  currentIndex: number,
  loadedCount: number,
  totalCount: number,
): boolean {
  const remainingAhead = loadedCount - currentIndex - 1;
  return loadedCount < totalCount && remainingAhead < NEXT_RECORD_PREFETCH_THRESHOLD;
}

/** The neighbour of a record in a loaded list, or null at either end. */
export function adjacentRecordIndex(
  currentIndex: number,
  loadedCount: number,
  direction: 'previous' | 'next',
): number | null {
  const target = direction === 'next' ? currentIndex + 1 : currentIndex - 1;
  return target >= 0 && target < loadedCount ? target : null;
}

/** "Infinite-scroll lists stop loading when a page returns fewer rows than the page size." */
export function hasMoreRows(pageRowCount: number, pageSize: number): boolean {
  return pageRowCount >= pageSize && pageSize > 0;
}

/** `$skip` for a 1-based page. */
export function skipForPage(page: number, pageSize: number): number {
  return Math.max(0, Math.trunc(page) - 1) * Math.max(0, Math.trunc(pageSize));
}

export function pageCount(totalRecords: number, pageSize: number): number {
  return pageSize > 0 ? Math.ceil(Math.max(0, totalRecords) / pageSize) : 0;
}

/**
 * How many rows a list's pages reach: all of them, or, when the search box matched more than it counts exactly
 * (the total is an estimate, decision 0101), the LIST_SEARCH_EXACT_UP_TO matches it lists.
 */
export function reachableRows(total: number, estimate: boolean | undefined, exactUpTo: number): number {
  return estimate ? Math.min(Math.max(0, total), exactUpTo) : Math.max(0, total);
}

/** An estimate shown to two significant digits: 51,234 is "about 51,000". */
export function roundEstimate(n: number): number {
  if (n < 100) return Math.round(n);
  const unit = 10 ** (Math.floor(Math.log10(n)) - 1);
  return Math.round(n / unit) * unit;
}

/** The line above a list: its exact number of records, or a search's estimate said as one, with what is shown. */
export function listTotalLabel(total: number, estimate: boolean | undefined, exactUpTo: number): string {
  const fmt = (n: number) => n.toLocaleString('en-US');
  if (!estimate) return `${fmt(total)} ${total === 1 ? 'record' : 'records'}`;
  const about = total > exactUpTo + 1 ? `About ${fmt(roundEstimate(total))}` : `More than ${fmt(exactUpTo)}`;
  return `${about} matches (estimated); ${fmt(exactUpTo)} of them are listed, narrow the search to list the others`;
}

/** "Modals at 1050 plus 10 per index." (spec 001 section 9) */
export function modalZIndex(index: number): number {
  return MODAL_BASE_Z_INDEX + MODAL_Z_INDEX_STEP * Math.max(0, Math.trunc(index));
}

/** "Query filter applies only when more than 2 characters are typed (minimum 3)." */
export function shouldApplyQueryFilter(text: string): boolean {
  return text.trim().length >= QUERY_FILTER_MIN_CHARS;
}

/** "Multi-select shows the search box above 5 items." */
export function showMultiSelectSearch(itemCount: number): boolean {
  return itemCount > MULTI_SELECT_SEARCH_ABOVE;
}

/** Column display modes of the table-settings dialog: "Truncate = 0, Wrap = 1, Full = 2". */
export const COLUMN_DISPLAY_MODES = { Truncate: 0, Wrap: 1, Full: 2 } as const;

/** "Selector columns and action columns cannot be modified." */
export function canModifyColumn(column: { type?: string | null; field?: string | null }): boolean {
  const type = column.type?.toLowerCase();
  return type !== 'actions' && type !== 'selector' && type !== 'checkbox' && column.field !== '$selector';
}

export interface SortSetting {
  columnName: string;
  direction: 'asc' | 'desc';
}

/**
 * "An invalid sort column clears the saved sort and reloads the list." Keeps the sort when its column is
 * sortable, otherwise answers null with reload true.
 */
export function validateSavedSort(
  sort: SortSetting | null | undefined,
  sortableColumns: readonly string[],
): { sort: SortSetting | null; reload: boolean } {
  if (!sort) return { sort: null, reload: false };
  return sortableColumns.includes(sort.columnName) ? { sort, reload: false } : { sort: null, reload: true };
}

/** `$orderby` for a sort: `LastName desc`. */
export function orderByParam(sort: SortSetting | null | undefined): string | undefined {
  return sort ? `${sort.columnName} ${sort.direction}` : undefined;
}
