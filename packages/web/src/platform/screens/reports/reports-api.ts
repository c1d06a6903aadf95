import { REPORT_HEADERS, type ReportCatalogueItem, type ReportRunResponse } from '@guildhall/shared';
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

export const fetchCatalogue = () => api.get<ReportCatalogueItem[]>('/api/reportExecution/catalogue');

export function setFavourite(reportId: string, favourite: boolean) {
  const action = favourite ? 'SetReportAsFavorite' : 'RemoveReportFromFavorites';
  return api.post<unknown>(`/api/reportExecution/${action}/${encodeURIComponent(reportId)}`);
}

/** Runs a page of a report and reads the state back from the response headers. */
export async function runReport(
  reportId: string,
  state: ReportState,
  parameters: Record<string, unknown>,
): Promise<{ data: ReportRunResponse; state: ReportState }> {
  const q = new URLSearchParams({ format: 'json', page: String(state.reportCurrentPage) });
  if (state.reportSessionKey) q.set('session', state.reportSessionKey);
  if (state.reportOrderBy) q.set('orderby', state.reportOrderBy);
  if (state.reportDirection) q.set('direction', state.reportDirection);
  const { data, headers } = await requestWithHeaders<ReportRunResponse>(
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
