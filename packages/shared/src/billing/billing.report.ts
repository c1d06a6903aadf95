/** Shipped reports over billing: invoices by status, with their totals and what is still owed. */
import { defineReport } from '../platform/report.ts';

export const invoicesByStatusReport = defineReport({
  ReportId: 'invoices.byStatus',
  Title: 'Invoices by status',
  Description: 'Every invoice grouped by status: how many, their total, what is still owed, and the largest.',
  resource: 'invoices',
  columns: ['Number', 'ContactName', 'IssueDate', 'Status', 'TotalCents', 'BalanceCents'],
  criteria: [],
  parameters: [],
  defaultSort: { field: 'IssueDate', direction: 'desc' },
  pageSize: 25,
  groupBy: [{ field: 'Status', bucket: 'value' }],
  aggregates: [
    { fn: 'sum', field: 'TotalCents' },
    { fn: 'sum', field: 'BalanceCents' },
    { fn: 'max', field: 'TotalCents' },
  ],
  chart: { type: 'bar', measure: 'sum_TotalCents' },
});
