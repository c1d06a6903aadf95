/**
 * Email templates and newsletters of an association on the generic screen layer: listed, edited in the rich-text
 * editor (templates) or the designer (newsletters, which keep their Html and DesignJson), duplicated and archived.
 * The server sanitizes the body on every save and refuses a merge field the catalogue lacks
 * (packages/server/src/features/communications/communications.hooks.ts).
 */
import { defineResource } from '../platform/resource.ts';

export const TEMPLATE_KINDS = [
  { Id: 'template', Name: 'Email template' },
  { Id: 'newsletter', Name: 'Newsletter' },
] as const;

/** What a template is for: staff choose it for mailings, or another feature's message uses it. */
export const TEMPLATE_PURPOSES = [
  { Id: 'general', Name: 'General' },
  { Id: 'invoice', Name: 'Invoice' },
  { Id: 'receipt', Name: 'Payment receipt' },
  { Id: 'renewal', Name: 'Renewal reminder' },
  { Id: 'eventConfirmation', Name: 'Event confirmation' },
  { Id: 'passwordReset', Name: 'Password reset' },
] as const;

export const emailTemplatesResource = defineResource({
  name: 'emailTemplates',
  feature: 'communication',
  subfeature: 'templates',
  view: 'template',
  title: 'Email templates',
  table: 'email_templates',
  scale: 'small',
  key: 'TemplateId',
  permissions: { read: 'backoffice', write: 'backoffice' },
  fields: {
    TemplateId: { type: 'number', label: 'Id', readOnly: true },
    Name: { type: 'text', label: 'Name', required: true, maxLength: 200 },
    Kind: { type: 'select', label: 'Kind', options: TEMPLATE_KINDS, required: true },
    Purpose: { type: 'select', label: 'Used for', options: TEMPLATE_PURPOSES, required: true },
    Subject: { type: 'text', label: 'Subject', required: true, maxLength: 300 },
    BodyHtml: { type: 'richText', label: 'Message', maxLength: 500_000 },
    IsArchived: { type: 'boolean', label: 'Archived', readOnly: true },
    UpdatedAt: { type: 'datetime', label: 'Updated', readOnly: true },
  },
  columns: [
    { field: 'Name', title: 'Name', sortable: true, rendererInfo: { Key: 'link' } },
    { field: 'Kind', title: 'Kind', sortable: true, rendererInfo: { Key: 'badge' } },
    { field: 'Purpose', title: 'Used for', sortable: true },
    { field: 'Subject', title: 'Subject' },
    { field: 'IsArchived', title: 'Archived', rendererInfo: { Key: 'boolean' } },
    { field: 'UpdatedAt', title: 'Updated', sortable: true, rendererInfo: { Key: 'datetime' } },
  ],
  sortable: ['TemplateId', 'Name', 'Kind', 'Purpose', 'UpdatedAt'],
  filterable: ['Name', 'Kind', 'Purpose', 'IsArchived'],
  search: ['Name', 'Subject'],
  filters: [
    { Id: 1, Name: 'In use', Criteria: [{ PropertyName: 'IsArchived', Operator: 'eq', Value: false }] },
    { Id: 2, Name: 'Archived', Criteria: [{ PropertyName: 'IsArchived', Operator: 'eq', Value: true }] },
    { Id: 3, Name: 'Newsletters', Criteria: [{ PropertyName: 'Kind', Operator: 'eq', Value: 'newsletter' }] },
  ],
  form: [
    { title: 'Template', fields: ['Name', 'Kind', 'Purpose', 'Subject'] },
    { title: 'Content', fields: ['BodyHtml'] },
  ],
  rowActions: [
    { key: 'edit', title: 'Edit', kind: 'edit' },
    {
      key: 'duplicate',
      title: 'Duplicate',
      kind: 'serverCall',
      call: {
        method: 'POST',
        path: '/api/communication/templates/{TemplateId}/duplicate',
        confirm: 'Make a copy of "{Name}"?',
      },
    },
    {
      key: 'archive',
      title: 'Archive',
      kind: 'serverCall',
      showCondition: { field: 'IsArchived', equals: false },
      call: {
        method: 'POST',
        path: '/api/communication/templates/{TemplateId}/archive',
        confirm: 'Archive "{Name}"? It stays readable and can be restored.',
      },
    },
    {
      key: 'restore',
      title: 'Restore',
      kind: 'serverCall',
      showCondition: { field: 'IsArchived', equals: true },
      call: {
        method: 'POST',
        path: '/api/communication/templates/{TemplateId}/restore',
        confirm: 'Restore "{Name}"?',
      },
    },
  ],
  defaultSort: { field: 'Name', direction: 'asc' },
  capabilities: { create: true, update: true },
  recordName: (model) => (typeof model.Name === 'string' ? model.Name : 'Template'),
});
