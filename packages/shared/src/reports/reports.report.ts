/**
 * The reports of the association (staff users, contacts by status), and the generic layer's test fixture report
 * over samples, which the catalogue does not list.
 */
import { defineReport } from '../platform/report.ts';

export const staffUsersReport = defineReport({
  ReportId: 'users.staff',
  Title: 'Staff users',
  Description: 'Everyone who signs in to the back office, with their role and last sign-in.',
  resource: 'users',
  columns: ['DisplayName', 'Username', 'Email', 'Role', 'LastSignInAt'],
  criteria: [{ PropertyName: 'LoginType', Operator: 'eq', Value: 'staff' }],
  parameters: [{ name: 'Role', label: 'Role', field: 'Role' }],
  defaultSort: { field: 'DisplayName', direction: 'asc' },
  pageSize: 25,
});

export const contactsByStatusReport = defineReport({
  ReportId: 'contacts.byStatus',
  Title: 'Contacts by status',
  Description: 'Every contact with its type, status and city; optionally only those of one status or type.',
  resource: 'contacts',
  columns: ['DisplayName', 'ContactType', 'Status', 'AccountNumber', 'City'],
  criteria: [],
  parameters: [
    { name: 'Status', label: 'Status', field: 'Status' },
    { name: 'ContactType', label: 'Contact type', field: 'ContactType' },
  ],
  defaultSort: { field: 'DisplayName', direction: 'asc' },
  pageSize: 25,
});

export const samplesByPriceReport = defineReport({
  ReportId: 'samples.byPrice',
  Title: 'Samples by price',
  Description: 'Samples with their status, quantity and price; optionally only those of one status or price.',
  resource: 'samples',
  columns: ['Name', 'Status', 'Category', 'Quantity', 'Price'],
  criteria: [],
  parameters: [
    { name: 'Status', label: 'Status', field: 'Status' },
    { name: 'Price', label: 'Price', field: 'Price' },
  ],
  defaultSort: { field: 'Price', direction: 'desc' },
  pageSize: 2,
});
