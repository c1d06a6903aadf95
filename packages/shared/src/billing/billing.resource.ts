/**
 * Billing on the generic screen layer (issue 15): invoices, payments, credits and deposits as lists and records
 * (read-only there: money moves only through the billing routes, which post to the ledger), and the setup staff
 * edit: revenue and other ledger accounts, tax sets.
 */
import { defineResource } from '../platform/resource.ts';
import { INVOICE_STATUS_LABELS, INVOICE_STATUSES } from './invoice.rules.ts';

const BILLING_MENU = { key: 'billing-setup', title: 'Billing setup', order: 5 } as const;
const STATUS_OPTIONS = INVOICE_STATUSES.map((s) => ({ Id: s, Name: INVOICE_STATUS_LABELS[s] }));
const METHOD_OPTIONS = [
  { Id: 'cash', Name: 'Cash' },
  { Id: 'check', Name: 'Check' },
  { Id: 'bank_transfer', Name: 'Bank transfer' },
  { Id: 'card', Name: 'Card' },
];

export const invoicesResource = defineResource({
  name: 'invoices',
  feature: 'billing',
  subfeature: 'invoices',
  view: 'invoice',
  title: 'Invoices',
  table: 'invoices',
  key: 'InvoiceId',
  permissions: { read: 'backoffice', write: null },
  fields: {
    InvoiceId: { type: 'number', label: 'Id', readOnly: true },
    Number: { type: 'text', label: 'Number', readOnly: true },
    ContactId: {
      type: 'lookup',
      label: 'Bill to',
      readOnly: true,
      lookup: { source: 'contacts', display: 'DisplayName' },
    },
    ContactName: { type: 'text', label: 'Bill to', readOnly: true },
    Status: { type: 'select', label: 'Status', readOnly: true, options: STATUS_OPTIONS },
    IssueDate: { type: 'date', label: 'Date', readOnly: true },
    DueDate: { type: 'date', label: 'Due', readOnly: true },
    SubtotalCents: { type: 'currency', label: 'Subtotal', readOnly: true },
    DiscountCents: { type: 'currency', label: 'Discount', readOnly: true },
    TaxCents: { type: 'currency', label: 'Tax', readOnly: true },
    TotalCents: { type: 'currency', label: 'Total', readOnly: true },
    AppliedCents: { type: 'currency', label: 'Paid', readOnly: true },
    BalanceCents: { type: 'currency', label: 'Balance', readOnly: true },
    Memo: { type: 'textarea', label: 'Memo', readOnly: true },
  },
  columns: [
    { field: 'Number', title: 'Number', sortable: true, rendererInfo: { Key: 'link' } },
    { field: 'ContactName', title: 'Bill to', sortable: true },
    { field: 'IssueDate', title: 'Date', sortable: true, rendererInfo: { Key: 'date' } },
    { field: 'DueDate', title: 'Due', sortable: true, rendererInfo: { Key: 'date' } },
    { field: 'Status', title: 'Status', sortable: true },
    { field: 'TotalCents', title: 'Total', sortable: true, rendererInfo: { Key: 'currency' } },
    { field: 'BalanceCents', title: 'Balance', sortable: true, rendererInfo: { Key: 'currency' } },
  ],
  sortable: [
    'InvoiceId',
    'Number',
    'ContactName',
    'IssueDate',
    'DueDate',
    'Status',
    'TotalCents',
    'BalanceCents',
  ],
  filterable: ['InvoiceId', 'ContactId', 'Status', 'IssueDate', 'DueDate', 'Number', 'BalanceCents'],
  search: ['Number', 'ContactName'],
  // Totals from the counts the database keeps (decision 0103).
  counted: true,
  filters: [
    { Id: 1, Name: 'Open', Criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'open' }] },
    {
      Id: 2,
      Name: 'Partially paid',
      Criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'partially_paid' }],
    },
    { Id: 3, Name: 'Paid', Criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'paid' }] },
    { Id: 4, Name: 'Void', Criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'void' }] },
    {
      Id: 5,
      Name: 'Written off',
      Criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'written_off' }],
    },
  ],
  form: [
    { title: 'Invoice', fields: ['Number', 'ContactId', 'Status', 'IssueDate', 'DueDate', 'Memo'] },
    {
      title: 'Amounts',
      fields: ['SubtotalCents', 'DiscountCents', 'TaxCents', 'TotalCents', 'AppliedCents', 'BalanceCents'],
    },
  ],
  rowActions: [{ key: 'view', title: 'View', kind: 'edit' }],
  defaultSort: { field: 'IssueDate', direction: 'desc' },
  capabilities: { create: false, update: false, delete: false },
  // The record opens on its header and the invoice as a document (lines, totals, payments); billing's web module
  // adds the actions (download the PDF, send it by mail, record a payment).
  screen: {
    recordType: 'MainEntityParentPage',
    preview: ['ContactName', 'Status', 'IssueDate', 'DueDate', 'TotalCents', 'BalanceCents'],
  },
});

export const paymentsResource = defineResource({
  name: 'payments',
  feature: 'billing',
  subfeature: 'payments',
  view: 'payment',
  title: 'Payments',
  table: 'payments',
  key: 'PaymentId',
  permissions: { read: 'backoffice', write: null },
  fields: {
    PaymentId: { type: 'number', label: 'Id', column: 'id', readOnly: true },
    ContactId: {
      type: 'lookup',
      label: 'Paid by',
      readOnly: true,
      lookup: { source: 'contacts', display: 'DisplayName' },
    },
    ContactName: { type: 'text', label: 'Paid by', readOnly: true },
    PaidAt: { type: 'datetime', label: 'Received', readOnly: true },
    Method: { type: 'select', label: 'Method', readOnly: true, options: METHOD_OPTIONS },
    CheckNumber: { type: 'text', label: 'Check number', readOnly: true },
    Reference: { type: 'text', label: 'Reference', readOnly: true },
    AmountCents: { type: 'currency', label: 'Amount', readOnly: true },
    AppliedCents: { type: 'currency', label: 'Applied', readOnly: true },
    RefundedCents: { type: 'currency', label: 'Refunded', readOnly: true },
    Status: {
      type: 'select',
      label: 'Status',
      readOnly: true,
      options: [
        { Id: 'completed', Name: 'Received' },
        { Id: 'bounced', Name: 'Bounced' },
      ],
    },
    DepositId: { type: 'number', label: 'Deposit', readOnly: true },
    IsDeleted: { type: 'boolean', label: 'Deleted', readOnly: true },
  },
  columns: [
    { field: 'PaymentId', title: 'Payment', sortable: true, rendererInfo: { Key: 'link' } },
    { field: 'ContactName', title: 'Paid by', sortable: true },
    { field: 'PaidAt', title: 'Received', sortable: true, rendererInfo: { Key: 'datetime' } },
    { field: 'Method', title: 'Method', sortable: true },
    { field: 'CheckNumber', title: 'Check' },
    { field: 'AmountCents', title: 'Amount', sortable: true, rendererInfo: { Key: 'currency' } },
    { field: 'RefundedCents', title: 'Refunded', rendererInfo: { Key: 'currency' } },
    { field: 'Status', title: 'Status', sortable: true },
  ],
  sortable: ['PaymentId', 'ContactName', 'PaidAt', 'Method', 'AmountCents', 'Status'],
  filterable: ['PaymentId', 'ContactId', 'PaidAt', 'Method', 'Status', 'DepositId', 'AmountCents'],
  search: ['ContactName', 'CheckNumber', 'Reference'],
  // Totals from the counts the database keeps (decision 0103).
  counted: true,
  filters: [
    { Id: 1, Name: 'Checks', Criteria: [{ PropertyName: 'Method', Operator: 'eq', Value: 'check' }] },
    { Id: 2, Name: 'Cards', Criteria: [{ PropertyName: 'Method', Operator: 'eq', Value: 'card' }] },
    { Id: 3, Name: 'Bounced', Criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'bounced' }] },
  ],
  form: [
    {
      title: 'Payment',
      fields: ['ContactId', 'PaidAt', 'Method', 'CheckNumber', 'Reference', 'Status', 'DepositId'],
    },
    { title: 'Amounts', fields: ['AmountCents', 'AppliedCents', 'RefundedCents'] },
  ],
  rowActions: [{ key: 'view', title: 'View', kind: 'edit' }],
  defaultSort: { field: 'PaidAt', direction: 'desc' },
  softDelete: { deleted: 'IsDeleted' },
  capabilities: { create: false, update: false, delete: false },
  // Billing's web module adds Refund… and Check bounced… to the record's header.
  screen: {
    recordType: 'MainEntityParentPage',
    preview: ['ContactName', 'PaidAt', 'Method', 'AmountCents', 'RefundedCents', 'Status'],
  },
});

export const creditsResource = defineResource({
  name: 'credits',
  feature: 'billing',
  subfeature: 'credits',
  view: 'credit',
  title: 'Credits',
  table: 'credits',
  key: 'CreditId',
  permissions: { read: 'backoffice', write: null },
  fields: {
    CreditId: { type: 'number', label: 'Id', readOnly: true },
    ContactId: {
      type: 'lookup',
      label: 'Contact',
      readOnly: true,
      lookup: { source: 'contacts', display: 'DisplayName' },
    },
    ContactName: { type: 'text', label: 'Contact', readOnly: true },
    Reason: { type: 'text', label: 'Reason', readOnly: true },
    AmountCents: { type: 'currency', label: 'Amount', readOnly: true },
    AppliedCents: { type: 'currency', label: 'Applied', readOnly: true },
    CreatedAt: { type: 'datetime', label: 'Given', readOnly: true },
  },
  columns: [
    { field: 'CreditId', title: 'Credit', sortable: true, rendererInfo: { Key: 'link' } },
    { field: 'ContactName', title: 'Contact', sortable: true },
    { field: 'Reason', title: 'Reason' },
    { field: 'CreatedAt', title: 'Given', sortable: true, rendererInfo: { Key: 'datetime' } },
    { field: 'AmountCents', title: 'Amount', sortable: true, rendererInfo: { Key: 'currency' } },
    { field: 'AppliedCents', title: 'Applied', rendererInfo: { Key: 'currency' } },
  ],
  sortable: ['CreditId', 'ContactName', 'CreatedAt', 'AmountCents'],
  filterable: ['CreditId', 'ContactId', 'CreatedAt', 'AmountCents'],
  search: ['ContactName', 'Reason'],
  // Totals from the counts the database keeps (decision 0103).
  counted: true,
  form: [{ title: 'Credit', fields: ['ContactId', 'Reason', 'CreatedAt', 'AmountCents', 'AppliedCents'] }],
  rowActions: [{ key: 'view', title: 'View', kind: 'edit' }],
  defaultSort: { field: 'CreatedAt', direction: 'desc' },
  capabilities: { create: false, update: false, delete: false },
});

export const depositsResource = defineResource({
  name: 'deposits',
  feature: 'billing',
  subfeature: 'deposits',
  view: 'deposit',
  title: 'Deposits',
  table: 'deposits',
  scale: 'small',
  key: 'DepositId',
  permissions: { read: 'backoffice', write: null },
  fields: {
    DepositId: { type: 'number', label: 'Deposit', readOnly: true },
    DepositDate: { type: 'date', label: 'Date', readOnly: true },
    TotalCents: { type: 'currency', label: 'Total', readOnly: true },
    PaymentCount: { type: 'number', label: 'Payments', readOnly: true },
    Reference: { type: 'text', label: 'Slip reference', readOnly: true },
    Status: {
      type: 'select',
      label: 'Status',
      readOnly: true,
      options: [
        { Id: 'deposited', Name: 'Deposited' },
        { Id: 'reversed', Name: 'Reversed' },
      ],
    },
  },
  columns: [
    { field: 'DepositId', title: 'Deposit', sortable: true, rendererInfo: { Key: 'link' } },
    { field: 'DepositDate', title: 'Date', sortable: true, rendererInfo: { Key: 'date' } },
    { field: 'PaymentCount', title: 'Payments' },
    { field: 'TotalCents', title: 'Total', sortable: true, rendererInfo: { Key: 'currency' } },
    { field: 'Reference', title: 'Slip reference' },
    { field: 'Status', title: 'Status', sortable: true },
  ],
  sortable: ['DepositId', 'DepositDate', 'TotalCents', 'Status'],
  filterable: ['DepositId', 'DepositDate', 'Status'],
  search: ['Reference'],
  form: [{ title: 'Deposit', fields: ['DepositDate', 'PaymentCount', 'TotalCents', 'Reference', 'Status'] }],
  rowActions: [{ key: 'view', title: 'View', kind: 'edit' }],
  defaultSort: { field: 'DepositDate', direction: 'desc' },
  capabilities: { create: false, update: false, delete: false },
  // Billing's web module adds Print deposit slip to the record's header.
  screen: {
    recordType: 'MainEntityParentPage',
    preview: ['DepositDate', 'PaymentCount', 'TotalCents', 'Reference', 'Status'],
  },
});

export const ledgerAccountsResource = defineResource({
  name: 'ledgerAccounts',
  feature: 'billing',
  subfeature: 'accounts',
  view: 'account',
  title: 'Ledger accounts',
  table: 'ledger_accounts',
  scale: 'small',
  key: 'AccountId',
  permissions: { read: 'backoffice', write: 'settings.manage' },
  fields: {
    AccountId: { type: 'number', label: 'Id', readOnly: true },
    Code: { type: 'text', label: 'Code', required: true, maxLength: 20 },
    Name: { type: 'text', label: 'Name', required: true, maxLength: 100 },
    Kind: {
      type: 'select',
      label: 'Kind',
      required: true,
      options: [
        { Id: 'revenue', Name: 'Revenue' },
        { Id: 'asset', Name: 'Asset' },
        { Id: 'liability', Name: 'Liability' },
        { Id: 'expense', Name: 'Expense' },
        { Id: 'equity', Name: 'Equity' },
      ],
    },
    Role: { type: 'text', label: 'Used by billing for', readOnly: true },
    IsActive: { type: 'boolean', label: 'In use' },
  },
  columns: [
    { field: 'Code', title: 'Code', sortable: true, rendererInfo: { Key: 'link' } },
    { field: 'Name', title: 'Name', sortable: true },
    { field: 'Kind', title: 'Kind', sortable: true },
    { field: 'Role', title: 'Used for' },
    { field: 'IsActive', title: 'In use', rendererInfo: { Key: 'boolean' } },
  ],
  sortable: ['AccountId', 'Code', 'Name', 'Kind'],
  filterable: ['AccountId', 'Kind', 'IsActive'],
  search: ['Code', 'Name'],
  form: [{ title: 'Account', fields: ['Code', 'Name', 'Kind', 'Role', 'IsActive'] }],
  rowActions: [{ key: 'edit', title: 'Edit', kind: 'edit' }],
  defaultSort: { field: 'Code', direction: 'asc' },
  capabilities: { create: true, update: true, delete: false },
  prepare: (model) => ({ ...model, Kind: model.Kind ?? 'revenue', IsActive: model.IsActive ?? true }),
  screen: { menu: BILLING_MENU },
});

export const taxSetsResource = defineResource({
  name: 'taxSets',
  feature: 'billing',
  subfeature: 'taxSets',
  view: 'taxSet',
  title: 'Tax sets',
  table: 'tax_sets',
  scale: 'small',
  key: 'TaxSetId',
  permissions: { read: 'backoffice', write: 'settings.manage' },
  fields: {
    TaxSetId: { type: 'number', label: 'Id', readOnly: true },
    Name: { type: 'text', label: 'Name', required: true, maxLength: 100 },
    Rate: {
      type: 'text',
      label: 'Rate (%)',
      maxLength: 10,
      tooltip: 'A percentage of the taxable amount, like 8.25.',
    },
    FloatAmountCents: {
      type: 'currency',
      label: 'Flat amount per unit',
      min: 0,
      tooltip: 'A fixed amount charged per unit sold, on top of the rate.',
    },
    IsDeleted: { type: 'boolean', label: 'Deleted', readOnly: true },
  },
  columns: [
    { field: 'Name', title: 'Name', sortable: true, rendererInfo: { Key: 'link' } },
    { field: 'Rate', title: 'Rate (%)' },
    { field: 'FloatAmountCents', title: 'Per unit', rendererInfo: { Key: 'currency' } },
  ],
  sortable: ['TaxSetId', 'Name'],
  filterable: ['TaxSetId', 'Name'],
  search: ['Name'],
  form: [{ title: 'Tax set', fields: ['Name', 'Rate', 'FloatAmountCents'] }],
  rowActions: [
    { key: 'edit', title: 'Edit', kind: 'edit' },
    { key: 'delete', title: 'Delete', kind: 'delete' },
  ],
  defaultSort: { field: 'Name', direction: 'asc' },
  softDelete: { deleted: 'IsDeleted' },
  capabilities: { create: true, update: true, delete: true },
  prepare: (model) => ({ ...model, Rate: model.Rate ?? '0', FloatAmountCents: model.FloatAmountCents ?? 0 }),
  screen: { menu: BILLING_MENU },
});
