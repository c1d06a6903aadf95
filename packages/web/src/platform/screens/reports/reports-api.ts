import {
  REPORT_HEADERS,
  type ReportCatalogueEntry,
  type ReportDefinitionInput,
  type ReportExtraFields,
  type ReportPinInput,
  type ReportRunAnswer,
  type SavedReport,
  type SavedReportInput,
} from '@guildhall/shared';
import { api } from '../../api-client.ts';
import { requestWithHeaders } from '../screens-api.ts';

/** Report state (spec 000 section 3), kept from the Report* response headers. */
export interface ReportState {
  reportSessionKey: string | null;
  reportCurrentPage: number;
  reportPageCount: number;
  reportOrderBy: string | null;
  reportDirection: 'asc' | 'desc' | null;
}

export const INITIAL_REPORT_STATE: ReportState = {
  reportSessionKey: null,
  reportCurrentPage: 1,
  reportPageCount: 0,
  reportOrderBy: null,
  reportDirection: null,
};

export const CATALOGUE_KEY = ['reports', 'catalogue'] as const;

/** The fields the association adds to a list (custom fields) that a report may show, filter and sort by. */
export const fetchReportExtraFields = (resource: string) =>
  api.get<ReportExtraFields>(`/api/reports/fields/${encodeURIComponent(resource)}`);
export const fetchCatalogue = () => api.get<ReportCatalogueEntry[]>('/api/reportExecution/catalogue');

export function setFavourite(reportId: string, favourite: boolean) {
  const action = favourite ? 'SetReportAsFavorite' : 'RemoveReportFromFavorites';
  return api.post<unknown>(`/api/reportExecution/${action}/${encodeURIComponent(reportId)}`);
}

/** Runs a page of a report and reads the state back from the response headers. */
export async function runReport(
  reportId: string,
  state: ReportState,
  parameters: Record<string, unknown>,
): Promise<{ data: ReportRunAnswer; state: ReportState }> {
  const q = new URLSearchParams({ format: 'json', page: String(state.reportCurrentPage) });
  if (state.reportSessionKey) q.set('session', state.reportSessionKey);
  if (state.reportOrderBy) q.set('orderby', state.reportOrderBy);
  if (state.reportDirection) q.set('direction', state.reportDirection);
  const { data, headers } = await requestWithHeaders<ReportRunAnswer>(
    `/api/reportExecution/run/${encodeURIComponent(reportId)}?${q}`,
    { method: 'POST', body: parameters },
  );
  const header = (name: string) => headers.get(name);
  const direction = header(REPORT_HEADERS.direction);
  return {
    data,
    state: {
      reportSessionKey: header(REPORT_HEADERS.sessionKey) ?? data.ReportSessionKey,
      reportCurrentPage: Number(header(REPORT_HEADERS.currentPage) ?? data.ReportCurrentPage),
      reportPageCount: Number(header(REPORT_HEADERS.pageCount) ?? data.ReportPageCount),
      reportOrderBy: header(REPORT_HEADERS.orderBy) ?? data.ReportOrderBy,
      reportDirection: direction === 'asc' || direction === 'desc' ? direction : data.ReportDirection,
    },
  };
}

/** Runs a definition before it is saved (the builder's preview). */
export const previewReport = (definition: ReportDefinitionInput) =>
  api.post<ReportRunAnswer>('/api/reports/preview?format=json', definition);

export const fetchSavedReport = (id: number) => api.get<SavedReport>(`/api/reports/saved/${id}`);
export const saveReport = (input: SavedReportInput, id?: number) =>
  id === undefined
    ? api.post<SavedReport>('/api/reports/saved', input)
    : api.put<SavedReport>(`/api/reports/saved/${id}`, input);
export const deleteSavedReport = (id: number) => api.delete<unknown>(`/api/reports/saved/${id}`);

/** Pins a report (its chart, groups or count; or one total as a figure, with the values it runs with) or unpins it. */
export function setPinned(reportId: string, pinned: boolean, pin: ReportPinInput = {}) {
  const path = `/api/reports/pins/${encodeURIComponent(reportId)}`;
  return pinned ? api.post<unknown>(path, pin) : api.delete<unknown>(path);
}

/** Downloads a report's CSV (every row, or the grouped table) as a file named after the report and the day. */
export async function downloadReportCsv(
  reportId: string,
  title: string,
  parameters: Record<string, unknown> = {},
): Promise<void> {
  const res = await fetch(`/api/reportExecution/run/${encodeURIComponent(reportId)}?format=csv`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(parameters),
  });
  if (!res.ok) throw new Error(await res.text());
  const day = new Date().toISOString().slice(0, 10);
  const name = `${
    title
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase() || 'report'
  }-${day}.csv`;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
