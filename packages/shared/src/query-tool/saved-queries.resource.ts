/**
 * The association's own queries for the developer query tool: SQL its administrators write over the query views,
 * listed and edited through the generic screens, run by the tool beside the shipped ones. The server refuses to
 * save SQL that the query guard refuses (decision 0170).
 */
import { defineResource } from '../platform/resource.ts';

export const savedQueriesResource = defineResource({
  name: 'savedQueries',
  feature: 'dev',
  subfeature: 'queries',
  view: 'query',
  title: 'Our queries',
  table: 'saved_queries',
  scale: 'small',
  key: 'QueryId',
  permissions: { read: 'querytool.manage', write: 'querytool.manage' },
  fields: {
    QueryId: { type: 'number', label: 'Id', readOnly: true },
    Title: { type: 'text', label: 'Title', required: true, maxLength: 200 },
    Description: { type: 'textarea', label: 'Description', maxLength: 2000 },
    GroupName: { type: 'text', label: 'Group', required: true, maxLength: 100 },
    Sql: {
      type: 'textarea',
      label: 'SQL',
      required: true,
      maxLength: 20_000,
      tooltip:
        'One SELECT over gh_query.contacts, gh_query.contact_entries and gh_query.contact_links. Write parameters as :name (cast them where needed, :since::date); the tool asks for each one.',
    },
    UpdatedAt: { type: 'datetime', label: 'Updated', readOnly: true },
    IsDeleted: { type: 'boolean', label: 'Deleted', readOnly: true },
  },
  columns: [
    { field: 'Title', title: 'Title', sortable: true, rendererInfo: { Key: 'link' } },
    { field: 'GroupName', title: 'Group', sortable: true },
    { field: 'Description', title: 'Description' },
    { field: 'UpdatedAt', title: 'Updated', sortable: true, rendererInfo: { Key: 'datetime' } },
  ],
  sortable: ['QueryId', 'Title', 'GroupName', 'UpdatedAt'],
  filterable: ['Title', 'GroupName'],
  search: ['Title', 'Description'],
  form: [
    { title: 'Query', fields: ['Title', 'GroupName', 'Description'] },
    { title: 'SQL', fields: ['Sql'] },
  ],
  rowActions: [
    { key: 'edit', title: 'Edit', kind: 'edit' },
    { key: 'delete', title: 'Delete', kind: 'delete' },
  ],
  defaultSort: { field: 'Title', direction: 'asc' },
  softDelete: { deleted: 'IsDeleted' },
  capabilities: { create: true, update: true, delete: true },
  screen: { listVariant: 'ListView' },
});
