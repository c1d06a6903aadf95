/** Help texts per screen state name: listed, read and written through the generic screens. */
import { defineResource } from '../platform/resource.ts';

export const helpTextsResource = defineResource({
  name: 'helpTexts',
  feature: 'setup',
  subfeature: 'helpTexts',
  view: 'helpText',
  title: 'Help texts',
  table: 'help_texts',
  scale: 'small',
  key: 'StateName',
  permissions: { read: 'backoffice', write: 'help.manage' },
  fields: {
    StateName: { type: 'text', label: 'Screen', required: true, maxLength: 200 },
    Title: { type: 'text', label: 'Title', required: true, maxLength: 200 },
    Content: { type: 'richText', label: 'Content', maxLength: 100_000 },
    UpdatedAt: { type: 'datetime', label: 'Updated', readOnly: true },
  },
  columns: [
    { field: 'StateName', title: 'Screen', sortable: true, rendererInfo: { Key: 'link' } },
    { field: 'Title', title: 'Title', sortable: true },
    { field: 'UpdatedAt', title: 'Updated', sortable: true, rendererInfo: { Key: 'datetime' } },
  ],
  sortable: ['StateName', 'Title', 'UpdatedAt'],
  filterable: ['StateName', 'Title'],
  search: ['StateName', 'Title'],
  form: [{ title: 'Help', fields: ['StateName', 'Title', 'Content'] }],
  rowActions: [{ key: 'edit', title: 'Edit', kind: 'edit' }],
  defaultSort: { field: 'StateName', direction: 'asc' },
  capabilities: { create: true, update: true },
  screen: {
    listVariant: 'ListView',
    menu: { key: 'setup', title: 'Setup', order: 2 },
    externalUrls: [
      {
        key: 'plainLanguage',
        title: 'Plain language guidelines',
        url: 'https://www.plainlanguage.gov/guidelines/',
        description: 'How to write help texts members and staff understand at first reading.',
      },
    ],
  },
});
