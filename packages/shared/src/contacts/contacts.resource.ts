/**
 * Contacts on the generic screen layer: the contacts list and record (ContactsInfo.General, parameter ContactId),
 * their contact-info entries and the links between contacts. The server adds what needs the database (duplicate
 * check, search index, counters) in packages/server/src/features/contacts/contacts.hooks.ts.
 */
import { defineResource } from '../platform/resource.ts';
import {
  CONTACT_LINK_TYPES,
  CONTACT_STATUSES,
  CONTACT_TYPES,
  contactDisplayName,
  contactLabel,
  DEFAULT_PUBLISHED_FIELDS,
  DIRECTORY_FIELDS,
} from './contacts.rules.ts';
import { CONTACT_ENTRY_TYPES } from './entry.rules.ts';

export const contactsResource = defineResource({
  name: 'contacts',
  feature: 'contacts',
  subfeature: 'contacts',
  view: 'contact',
  title: 'Contacts',
  table: 'contacts',
  key: 'ContactId',
  permissions: { read: 'backoffice', write: 'backoffice' },
  fields: {
    ContactId: { type: 'number', label: 'Id', readOnly: true },
    ContactType: { type: 'select', label: 'Contact type', options: CONTACT_TYPES, required: true },
    FirstName: { type: 'text', label: 'First name', maxLength: 100 },
    LastName: { type: 'text', label: 'Last name', maxLength: 100 },
    OrganizationName: { type: 'text', label: 'Organization', maxLength: 200 },
    DisplayName: { type: 'text', label: 'Name', readOnly: true },
    Status: { type: 'select', label: 'Status', options: CONTACT_STATUSES, required: true },
    AccountNumber: { type: 'text', label: 'Account number', maxLength: 50 },
    Email: { type: 'email', label: 'Email', maxLength: 200 },
    Phone: { type: 'phone', label: 'Phone' },
    Website: { type: 'website', label: 'Website', maxLength: 300 },
    Address1: { type: 'text', label: 'Address 1', maxLength: 200 },
    Address2: { type: 'text', label: 'Address 2', maxLength: 200 },
    City: { type: 'text', label: 'City', maxLength: 100 },
    StateProvince: { type: 'text', label: 'State or province', maxLength: 100 },
    PostalCode: { type: 'text', label: 'Postal code', maxLength: 20 },
    CountryCode: { type: 'country', label: 'Country' },
    IsListed: { type: 'boolean', label: 'Listed in the member directory' },
    PublishedFields: { type: 'flags', label: 'Published in the directory', options: DIRECTORY_FIELDS },
    Notes: { type: 'textarea', label: 'Notes', maxLength: 20_000 },
    CreatedAt: { type: 'datetime', label: 'Created', readOnly: true },
    IsDeleted: { type: 'boolean', label: 'Deleted', readOnly: true },
  },
  columns: [
    { field: 'DisplayName', title: 'Name', sortable: true, rendererInfo: { Key: 'link' } },
    // At 1,280 px the default columns fit without scrolling sideways: the type is in the name (an organisation's).
    { field: 'ContactType', title: 'Type', sortable: true, defaultHide: true },
    { field: 'Status', title: 'Status', sortable: true, rendererInfo: { Key: 'badge' } },
    { field: 'AccountNumber', title: 'Account', sortable: true },
    { field: 'Email', title: 'Email' },
    { field: 'Phone', title: 'Phone', rendererInfo: { Key: 'phone' } },
    { field: 'City', title: 'City', sortable: true },
    { field: 'StateProvince', title: 'State', defaultHide: true },
    { field: 'IsListed', title: 'Listed', defaultHide: true, rendererInfo: { Key: 'boolean' } },
  ],
  sortable: [
    'ContactId',
    'DisplayName',
    'LastName',
    'FirstName',
    'ContactType',
    'Status',
    'AccountNumber',
    'City',
  ],
  filterable: [
    'ContactId',
    'ContactType',
    'Status',
    'IsListed',
    'DisplayName',
    'LastName',
    'AccountNumber',
    'Email',
    'City',
    'StateProvince',
    'PostalCode',
    'CountryCode',
    'CreatedAt',
  ],
  search: ['DisplayName', 'Email', 'AccountNumber'],
  // The search box reads the global search index (contacts.hooks.ts), not a trigram index of these fields.
  ownSearchIndex: true,
  lookupExtra: ['AccountNumber', 'City'],
  filters: [
    { Id: 1, Name: 'Active', Criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'active' }] },
    { Id: 2, Name: 'Prospects', Criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'prospect' }] },
    {
      Id: 3,
      Name: 'Organizations',
      Criteria: [{ PropertyName: 'ContactType', Operator: 'eq', Value: 'organization' }],
    },
    {
      Id: 4,
      Name: 'In the directory',
      Criteria: [{ PropertyName: 'IsListed', Operator: 'eq', Value: true }],
    },
  ],
  form: [
    {
      title: 'Details',
      fields: ['ContactType', 'FirstName', 'LastName', 'OrganizationName', 'Status', 'AccountNumber'],
    },
    {
      title: 'Contact info',
      fields: [
        'Email',
        'Phone',
        'Website',
        'Address1',
        'Address2',
        'City',
        'StateProvince',
        'PostalCode',
        'CountryCode',
      ],
    },
    { title: 'Directory', fields: ['IsListed', 'PublishedFields'] },
    { title: 'Notes', fields: ['Notes'] },
  ],
  rowActions: [
    { key: 'edit', title: 'Edit', kind: 'edit' },
    { key: 'delete', title: 'Delete', kind: 'delete' },
  ],
  defaultSort: { field: 'DisplayName', direction: 'asc' },
  softDelete: { deleted: 'IsDeleted' },
  capabilities: { create: true, update: true, delete: true, inlineEdit: true },
  watchedFields: ['ContactType', 'FirstName', 'LastName', 'OrganizationName'],
  recalculate: (model) => ({ DisplayName: contactDisplayName(model) }),
  recordName: (model) =>
    contactLabel({
      DisplayName:
        typeof model.DisplayName === 'string' && model.DisplayName !== ''
          ? model.DisplayName
          : contactDisplayName(model),
      AccountNumber: model.AccountNumber,
    }),
  prepare: (model) =>
    model.PublishedFields === null || model.PublishedFields === undefined
      ? { ...model, PublishedFields: DEFAULT_PUBLISHED_FIELDS }
      : model,
  customFields: { entity: 'Contact', title: 'Contacts' },
  screen: {
    recordType: 'MainEntityParentPage',
    preview: ['DisplayName', 'ContactType', 'Status', 'AccountNumber', 'Email', 'Phone', 'Website', 'City'],
    widgets: [
      {
        key: 'contacts.latest',
        title: 'Latest contacts',
        kind: 'list',
        sort: { field: 'ContactId', direction: 'desc' },
        rows: 5,
      },
    ],
    children: [
      { resource: 'contactEntries', parentField: 'ContactId', title: 'Contact info' },
      { resource: 'contactLinks', parentField: 'ContactId', title: 'Related contacts' },
      { resource: 'memberships', parentField: 'ContactId', title: 'Memberships' },
    ],
  },
});

/** Contact-info entries (CommType and Value), the record screen's contact info tab. */
export const contactEntriesResource = defineResource({
  name: 'contactEntries',
  feature: 'contacts',
  subfeature: 'entries',
  view: 'entry',
  title: 'Contact info',
  table: 'contact_entries',
  key: 'EntryId',
  permissions: { read: 'backoffice', write: 'backoffice' },
  fields: {
    EntryId: { type: 'number', label: 'Id', readOnly: true },
    ContactId: {
      type: 'lookup',
      label: 'Contact',
      required: true,
      lookup: { source: 'contacts', display: 'DisplayName' },
    },
    CommType: {
      type: 'select',
      label: 'Type',
      readOnly: true,
      options: CONTACT_ENTRY_TYPES.map((t) => ({ Id: t, Name: t })),
    },
    Value: { type: 'text', label: 'Value', required: true, maxLength: 300 },
    IsDeleted: { type: 'boolean', label: 'Deleted', readOnly: true },
  },
  columns: [
    { field: 'CommType', title: 'Type', sortable: true },
    { field: 'Value', title: 'Value', sortable: true, rendererInfo: { Key: 'contactEntry' } },
  ],
  sortable: ['EntryId', 'CommType', 'Value'],
  filterable: ['ContactId', 'CommType'],
  search: ['Value'],
  form: [{ title: 'Contact info', fields: ['ContactId', 'Value'] }],
  rowActions: [
    { key: 'edit', title: 'Edit', kind: 'edit' },
    { key: 'delete', title: 'Delete', kind: 'delete' },
  ],
  defaultSort: { field: 'EntryId', direction: 'asc' },
  softDelete: { deleted: 'IsDeleted' },
  capabilities: { create: true, update: true, delete: true },
});

/** Links between contacts: an individual is an employee of an organisation or its primary contact. */
export const contactLinksResource = defineResource({
  name: 'contactLinks',
  feature: 'contacts',
  subfeature: 'links',
  view: 'link',
  title: 'Related contacts',
  table: 'contact_links',
  key: 'LinkId',
  permissions: { read: 'backoffice', write: 'backoffice' },
  fields: {
    LinkId: { type: 'number', label: 'Id', readOnly: true },
    ContactId: {
      type: 'lookup',
      label: 'Contact',
      required: true,
      lookup: { source: 'contacts', display: 'DisplayName' },
    },
    RelatedContactId: {
      type: 'lookup',
      label: 'Related contact',
      required: true,
      lookup: { source: 'contacts', display: 'DisplayName' },
    },
    LinkType: { type: 'select', label: 'Link', required: true, options: CONTACT_LINK_TYPES },
    IsDeleted: { type: 'boolean', label: 'Deleted', readOnly: true },
  },
  columns: [
    { field: 'LinkType', title: 'Link', sortable: true },
    { field: 'RelatedContactId', title: 'Related contact' },
  ],
  sortable: ['LinkId', 'LinkType'],
  filterable: ['ContactId', 'RelatedContactId', 'LinkType'],
  form: [{ title: 'Link', fields: ['ContactId', 'LinkType', 'RelatedContactId'] }],
  rowActions: [{ key: 'delete', title: 'Delete', kind: 'delete' }],
  defaultSort: { field: 'LinkId', direction: 'asc' },
  softDelete: { deleted: 'IsDeleted' },
  capabilities: { create: true, update: true, delete: true },
});
