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

/** Payments received by method (cash, check, transfer, card): how many and how much, and what was refunded. */
export const paymentsByMethodReport = defineReport({
  ReportId: 'payments.byMethod',
  Title: 'Payments by method',
  Description:
    'Payments received grouped by how they were made: how many, their total, and what was refunded.',
  resource: 'payments',
  columns: ['PaymentId', 'ContactName', 'PaidAt', 'Method', 'AmountCents', 'RefundedCents', 'Status'],
  criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'completed' }],
  parameters: [],
  defaultSort: { field: 'PaidAt', direction: 'desc' },
  pageSize: 25,
  groupBy: [{ field: 'Method', bucket: 'value' }],
  aggregates: [
    { fn: 'count', field: null },
    { fn: 'sum', field: 'AmountCents' },
    { fn: 'sum', field: 'RefundedCents' },
  ],
  chart: { type: 'pie', measure: 'sum_AmountCents' },
});

/** Bank deposits by month: how many deposits, how many payments they carried, and their total. */
export const depositsByMonthReport = defineReport({
  ReportId: 'deposits.byMonth',
  Title: 'Deposits by month',
  Description:
    'Bank deposits of cash and checks, month by month: how many, the payments they carried, their total.',
  resource: 'deposits',
  columns: ['DepositId', 'DepositDate', 'PaymentCount', 'TotalCents', 'Reference'],
  criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'deposited' }],
  parameters: [],
  defaultSort: { field: 'DepositDate', direction: 'desc' },
  pageSize: 25,
  groupBy: [{ field: 'DepositDate', bucket: 'month' }],
  aggregates: [
    { fn: 'count', field: null },
    { fn: 'sum', field: 'PaymentCount' },
    { fn: 'sum', field: 'TotalCents' },
  ],
  chart: { type: 'bar', measure: 'sum_TotalCents' },
});
