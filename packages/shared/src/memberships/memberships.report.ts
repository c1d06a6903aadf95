/** Shipped reports over memberships: members by membership type, with the dues they bring per term. */
import { defineReport } from '../platform/report.ts';

export const membersByTypeReport = defineReport({
  ReportId: 'memberships.byType',
  Title: 'Members by type',
  Description: 'Active memberships grouped by membership type and level, with their dues per term.',
  resource: 'memberships',
  columns: ['ContactName', 'Name', 'Status', 'TermEnd', 'TermTotal'],
  criteria: [{ PropertyName: 'Status', Operator: 'in', Value: ['active', 'grace'] }],
  parameters: [],
  defaultSort: { field: 'ContactName', direction: 'asc' },
  pageSize: 25,
  groupBy: [
    { field: 'MembershipTypeId', bucket: 'value' },
    { field: 'MembershipLevelId', bucket: 'value' },
  ],
  aggregates: [
    { fn: 'sum', field: 'TermTotal' },
    { fn: 'avg', field: 'TermTotal' },
  ],
  chart: { type: 'pie', measure: 'count' },
});
