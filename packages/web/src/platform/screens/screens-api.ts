import {
  type BulkRequest,
  type BulkResponse,
  concurrencyConflictSchema,
  type ErrorValidation,
  EXPORT_TOP,
  errorValidationSchema,
  type FilterCriterion,
  type ListResponse,
  type Model,
  orderByParam,
  type ResourceDeclaration,
  type SaveResponse,
  type SortSetting,
  type TableSettings,
  type TableSettingsAnswer,
} from '@guildhall/shared';
import { ApiError, api, toApiError } from '../api-client.ts';
import { apiBase } from './resources.ts';

/** A business exception of the server (422, class ErrorValidation): the screen acts on its Action. */
export class ErrorValidationError extends Error {
  readonly answer: ErrorValidation;
  constructor(answer: ErrorValidation) {
    super(answer.Message);
    this.name = 'ErrorValidationError';
    this.answer = answer;
  }
}

/** 409: someone else saved the record since the version this client loaded (decision 0095). */
export class ConcurrencyConflictError extends Error {
  /** The record as it is now, with its current `Version`. */
  readonly current: Model;
  constructor(message: string, current: Model) {
    super(message);
    this.name = 'ConcurrencyConflictError';
    this.current = current;
  }
}

export interface Answer<T> {
  data: T;
  headers: Headers;
}

/**
 * Like the shared API client, but keeps the response headers (report state, `evt_` events) and tells an
 * ErrorValidation answer from other errors.
 */
export async function requestWithHeaders<T>(
  path: string,
  init: { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; body?: unknown; signal?: AbortSignal } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const options: RequestInit = { method: init.method ?? 'GET', credentials: 'same-origin', headers };
  if (init.signal) options.signal = init.signal;
  if (init.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(init.body);
  }
  let response: Response;
  try {
    response = await fetch(path, options);
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, 'We could not reach the server. Check your connection and try again.', {
      isKnown: true,
    });
  }
  const text = await response.text();
  let payload: unknown;
  try {
    payload = text === '' ? undefined : JSON.parse(text);
  } catch {
    payload = undefined;
  }
  if (response.ok) {
    broadcastEvents(response.headers);
    return { data: payload as T, headers: response.headers };
  }
  const business = errorValidationSchema.safeParse(payload);
  if (business.success) throw new ErrorValidationError(business.data);
  const conflict = concurrencyConflictSchema.safeParse(payload);
  if (response.status === 409 && conflict.success)
    throw new ConcurrencyConflictError(conflict.data.message, conflict.data.Current);
  throw toApiError(response.status, payload);
}

/** "Response headers beginning evt_ are re-broadcast to the page" (spec 000 section 7). */
export const SCREEN_EVENT = 'guildhall:screen-event';
function broadcastEvents(headers: Headers): void {
  headers.forEach((value, name) => {
    if (name.toLowerCase().startsWith('evt_')) {
      window.dispatchEvent(new CustomEvent(SCREEN_EVENT, { detail: { name: name.slice(4), value } }));
    }
  });
}

export interface ListParams {
  skip: number;
  top: number;
  sort: SortSetting | null;
  search: string;
  filterId: number;
  criteria: FilterCriterion[];
  columns?: string[];
}

export function listBody(p: ListParams) {
  return {
    Id: p.filterId,
    ...(p.criteria.length > 0 ? { Criteria: p.criteria } : {}),
    ...(p.search.trim() ? { SearchText: p.search.trim() } : {}),
    ...(p.columns ? { ColumnsToShow: p.columns } : {}),
  };
}

function listQuery(p: Pick<ListParams, 'skip' | 'top' | 'sort'>): string {
  const q = new URLSearchParams({ $skip: String(p.skip), $top: String(p.top) });
  const order = orderByParam(p.sort);
  if (order) q.set('$orderby', order);
  return q.toString();
}

export function fetchList(
  r: ResourceDeclaration,
  p: ListParams,
  signal?: AbortSignal,
): Promise<ListResponse> {
  return api.post<ListResponse>(`${apiBase(r)}/${r.view}Data?${listQuery(p)}`, listBody(p), { signal });
}

/** Starts an export: `$skip 0`, `$top 999999999`; the answer names the file to poll for. */
export async function startExport(r: ResourceDeclaration, p: ListParams): Promise<string> {
  const answer = await api.post<ListResponse>(
    `${apiBase(r)}/${r.view}Data?${listQuery({ ...p, skip: 0, top: EXPORT_TOP })}`,
    listBody(p),
  );
  if (!answer.PendingDownloadFileId) throw new ApiError(500, 'The export did not start.', { isKnown: true });
  return answer.PendingDownloadFileId;
}

export const fetchRecord = (r: ResourceDeclaration, id: string | number | null) =>
  api.post<Model>(`${apiBase(r)}/${r.view}Get`, id === null ? {} : { id });

export interface SaveBody extends Model {
  ForceSave?: boolean;
  Answer?: 'Yes' | 'No';
}

export const saveRecord = (r: ResourceDeclaration, body: SaveBody) =>
  requestWithHeaders<SaveResponse>(`${apiBase(r)}/${r.view}Save`, { method: 'POST', body });

export const inlineEdit = (r: ResourceDeclaration, id: string | number, changes: Model) =>
  requestWithHeaders<SaveResponse>(`${apiBase(r)}/${r.view}InlineEdit/${encodeURIComponent(String(id))}`, {
    method: 'POST',
    body: JSON.stringify(changes),
  });

/** Deletes or voids a record; with the version the user saw, a record changed since answers 409. */
export const removeRecord = (
  r: ResourceDeclaration,
  id: string | number,
  kind: 'delete' | 'void',
  version?: number,
) =>
  requestWithHeaders<{ Success: boolean }>(
    `${apiBase(r)}/${encodeURIComponent(String(id))}${version === undefined ? '' : `?Version=${version}`}`,
    { method: kind === 'delete' ? 'DELETE' : 'PUT' },
  );

/** Deletes the selected records, or sets the same fields on each, in one request. */
export const bulkAction = (r: ResourceDeclaration, body: BulkRequest) =>
  api.post<BulkResponse>(`${apiBase(r)}/${r.view}Bulk`, body);

export const recalculate = (r: ResourceDeclaration, model: Model) =>
  api.post<Model>(`${apiBase(r)}/${r.view}Recalculate`, model);

export const loadTableSettings = (screenName: string) =>
  api.get<TableSettingsAnswer>(`/api/settings/TableSettings/${encodeURIComponent(screenName)}`);

export const saveTableSettings = (settings: TableSettings) =>
  api.post<TableSettingsAnswer>('/api/settings/TableSettings', settings);
