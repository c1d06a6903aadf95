/** Published terms of use: a read-only list and record (publishing goes through POST /api/setup/terms). */
import { LOGIN_TYPES } from '../platform/auth.schema.ts';
import { defineResource } from '../platform/resource.ts';

export const termsResource = defineResource({
  name: 'terms',
  feature: 'Setup',
  subfeature: 'TermsofUse',
  view: 'terms',
  title: 'Terms of use',
  table: 'terms_of_use',
  scale: 'small',
  key: 'TermsOfUseId',
  permissions: { read: 'terms.manage', write: null },
  fields: {
    TermsOfUseId: { type: 'number', label: 'Id', column: 'id', readOnly: true },
    LoginType: {
      type: 'select',
      label: 'Login type',
      readOnly: true,
      options: LOGIN_TYPES.map((t) => ({ Id: t, Name: t })),
    },
    Title: { type: 'text', label: 'Title', maxLength: 200, readOnly: true },
    Description: { type: 'richText', label: 'Terms', readOnly: true },
    PublishedAt: { type: 'datetime', label: 'Published', readOnly: true },
  },
  columns: [
    { field: 'Title', title: 'Title', sortable: true, rendererInfo: { Key: 'link' } },
    { field: 'LoginType', title: 'Login type', sortable: true },
    { field: 'PublishedAt', title: 'Published', sortable: true, rendererInfo: { Key: 'datetime' } },
  ],
  sortable: ['TermsOfUseId', 'Title', 'LoginType', 'PublishedAt'],
  filterable: ['LoginType', 'Title', 'PublishedAt'],
  search: ['Title'],
  form: [{ title: 'Terms', fields: ['Title', 'LoginType', 'PublishedAt', 'Description'] }],
  rowActions: [{ key: 'view', title: 'View', kind: 'edit' }],
  defaultSort: { field: 'PublishedAt', direction: 'desc' },
});
