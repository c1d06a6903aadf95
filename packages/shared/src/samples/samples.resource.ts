/**
 * The sample entity: one field of every field type, to prove the generic screen layer end to end. A test fixture
 * (`fixture: true`): its screens answer for the tests, but no product surface lists it.
 */
import { DATE_RANGE_OPTIONS } from '../platform/fields/date-range.rules.ts';
import { defineResource, ERROR_VALIDATION_ACTIONS } from '../platform/resource.ts';

export const SAMPLE_STATUSES = [
  { Id: 'draft', Name: 'Draft' },
  { Id: 'open', Name: 'Open' },
  { Id: 'closed', Name: 'Closed' },
] as const;
export const SAMPLE_CATEGORIES = [
  { Id: 'gold', Name: 'Gold' },
  { Id: 'silver', Name: 'Silver' },
  { Id: 'bronze', Name: 'Bronze' },
] as const;
export const SAMPLE_TAGS = [
  { Id: 'board', Name: 'Board' },
  { Id: 'volunteer', Name: 'Volunteer' },
  { Id: 'notify', Name: 'Notify after save' },
] as const;
/** Flags: Id is the bit key (1, 2, 4, …). */
export const SAMPLE_WEEKDAYS = [
  { Id: 1, Name: 'Monday' },
  { Id: 2, Name: 'Tuesday' },
  { Id: 4, Name: 'Wednesday' },
  { Id: 8, Name: 'Thursday' },
  { Id: 16, Name: 'Friday' },
] as const;

/** Above this price (in cents) a save asks for confirmation (ErrorValidation Proceed). */
export const SAMPLE_PRICE_CONFIRM_ABOVE = 1_000_000;

export const samplesResource = defineResource({
  name: 'samples',
  feature: 'setup',
  subfeature: 'samples',
  view: 'sample',
  title: 'Samples',
  table: 'samples',
  scale: 'small',
  fixture: true,
  key: 'SampleId',
  permissions: { read: 'backoffice', write: 'backoffice' },
  fields: {
    SampleId: { type: 'number', label: 'Id', readOnly: true },
    Name: { type: 'text', label: 'Name', required: true, maxLength: 100 },
    Description: { type: 'textarea', label: 'Description', maxLength: 2000 },
    Quantity: { type: 'number', label: 'Quantity', min: 0, max: 1000 },
    Price: { type: 'currency', label: 'Price', min: 0, tooltip: 'In cents on the wire; shown as money.' },
    Total: { type: 'currency', label: 'Total', readOnly: true },
    IsActive: { type: 'boolean', label: 'Active' },
    StartDate: { type: 'date', label: 'Start date' },
    HappensAt: { type: 'datetime', label: 'Happens at' },
    StartTime: { type: 'time', label: 'Start time' },
    Phone: { type: 'phone', label: 'Phone' },
    Website: { type: 'website', label: 'Website', maxLength: 300 },
    Email: { type: 'email', label: 'Email', maxLength: 200 },
    Status: { type: 'select', label: 'Status', options: SAMPLE_STATUSES, required: true },
    Category: { type: 'selectValid', label: 'Category', options: SAMPLE_CATEGORIES },
    Tags: { type: 'multiSelect', label: 'Tags', options: SAMPLE_TAGS },
    Weekdays: { type: 'flags', label: 'Weekdays', options: SAMPLE_WEEKDAYS },
    ScoreRange: { type: 'decimalRange', label: 'Score range' },
    Period: {
      type: 'dateRange',
      label: 'Period',
      options: DATE_RANGE_OPTIONS.map((o) => ({ Id: o.Id, Name: o.Name })),
    },
    Timezone: { type: 'timezone', label: 'Time zone' },
    OwnerUserId: { type: 'lookup', label: 'Owner', lookup: { source: 'users', display: 'DisplayName' } },
    Notes: { type: 'richText', label: 'Notes', maxLength: 100_000 },
    IsDeleted: { type: 'boolean', label: 'Deleted', readOnly: true },
    IsVoided: { type: 'boolean', label: 'Voided', readOnly: true },
  },
  columns: [
    { field: 'Name', title: 'Name', sortable: true, rendererInfo: { Key: 'link' }, width: 220 },
    { field: 'Status', title: 'Status', sortable: true, rendererInfo: { Key: 'badge' } },
    { field: 'Category', title: 'Category', sortable: true },
    { field: 'Quantity', title: 'Quantity', sortable: true },
    { field: 'Price', title: 'Price', sortable: true, rendererInfo: { Key: 'currency' } },
    { field: 'StartDate', title: 'Start date', sortable: true, rendererInfo: { Key: 'date' } },
    { field: 'Email', title: 'Email', defaultHide: true },
    { field: 'IsActive', title: 'Active', rendererInfo: { Key: 'boolean' } },
  ],
  sortable: ['SampleId', 'Name', 'Status', 'Category', 'Quantity', 'Price', 'StartDate', 'HappensAt'],
  filterable: [
    'SampleId',
    'Name',
    'Status',
    'Category',
    'Quantity',
    'Price',
    'StartDate',
    'IsActive',
    'Email',
    'Tags',
    'Weekdays',
    'OwnerUserId',
  ],
  search: ['Name', 'Email', 'Description'],
  filters: [
    { Id: 1, Name: 'Active', Criteria: [{ PropertyName: 'IsActive', Operator: 'eq', Value: true }] },
    { Id: 2, Name: 'Open', Criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'open' }] },
  ],
  form: [
    { title: 'General', fields: ['Name', 'Description', 'Status', 'Category', 'IsActive'] },
    { title: 'Amounts', fields: ['Quantity', 'Price', 'Total', 'ScoreRange'] },
    { title: 'Schedule', fields: ['StartDate', 'HappensAt', 'StartTime', 'Period', 'Timezone', 'Weekdays'] },
    { title: 'Contact', fields: ['Phone', 'Website', 'Email', 'OwnerUserId'] },
    { title: 'More', fields: ['Tags', 'Notes'] },
  ],
  rowActions: [
    { key: 'edit', title: 'Edit', kind: 'edit' },
    { key: 'void', title: 'Void', kind: 'void', showCondition: { field: 'IsVoided', equals: false } },
    { key: 'delete', title: 'Delete', kind: 'delete' },
  ],
  defaultSort: { field: 'Name', direction: 'asc' },
  softDelete: { deleted: 'IsDeleted', voided: 'IsVoided' },
  capabilities: {
    create: true,
    update: true,
    delete: true,
    void: true,
    inlineEdit: true,
    draft: true,
    duplicateCheck: true,
  },
  screen: {
    highlightChanges: true,
    preview: ['Name', 'Status', 'Category', 'Price', 'StartDate', 'Email', 'IsActive'],
  },
  watchedFields: ['Quantity', 'Price'],
  uniqueFields: ['Name'],
  recalculate: (model) => {
    const q = typeof model.Quantity === 'number' ? model.Quantity : 0;
    const p = typeof model.Price === 'number' ? model.Price : 0;
    return { Total: q * p };
  },
  check: (model, extras) => {
    if (model.Status === 'closed' && typeof model.Quantity === 'number' && model.Quantity > 0) {
      return { Action: ERROR_VALIDATION_ACTIONS.Error, Message: 'A closed sample cannot have a quantity.' };
    }
    if (typeof model.Price === 'number' && model.Price > SAMPLE_PRICE_CONFIRM_ABOVE && !extras.ForceSave) {
      return {
        Action: ERROR_VALIDATION_ACTIONS.Proceed,
        Message: 'The price is unusually high. Save anyway?',
      };
    }
    if (model.IsActive === false && model.Status === 'open' && extras.Answer === null) {
      return {
        Action: ERROR_VALIDATION_ACTIONS.YesNo,
        Message: 'The sample is open but inactive. Close it as well?',
      };
    }
    return null;
  },
  prepare: (model, extras) =>
    extras.Answer === 'Yes' && model.IsActive === false && model.Status === 'open'
      ? { ...model, Status: 'closed' }
      : model,
  afterSave: (model, extras) => {
    const tags = Array.isArray(model.Tags) ? model.Tags : [];
    return {
      ...(extras.Answer === 'Yes' ? { Message: 'Saved and closed.' } : {}),
      ...(tags.includes('notify')
        ? { PostActions: [{ Type: 1 as const, Message: 'The board will be told about this sample.' }] }
        : {}),
      Events: { sampleSaved: String(model.SampleId ?? '') },
    };
  },
});
