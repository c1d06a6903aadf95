/** The association's settings: a single-record edit screen over the tenant row. */
import { CONTACT_STATUSES } from '../contacts/contacts.rules.ts';
import { defineResource, type FieldOption } from '../platform/resource.ts';

/** The currencies an association may keep its money in (ISO 4217), by code, named in English. */
export const CURRENCY_OPTIONS: readonly FieldOption[] = (() => {
  const names = new Intl.DisplayNames(['en'], { type: 'currency' });
  const codes = [
    'USD',
    'CAD',
    'EUR',
    'GBP',
    'AUD',
    'NZD',
    'CHF',
    'SEK',
    'NOK',
    'DKK',
    'PLN',
    'JPY',
    'INR',
    'ZAR',
    'MXN',
    'BRL',
    'SGD',
    'HKD',
  ];
  return codes.map((code) => ({ Id: code, Name: `${code}: ${names.of(code) ?? code}` }));
})();

export const tenantSettingsResource = defineResource({
  name: 'tenantSettings',
  feature: 'settings',
  subfeature: 'tenantSettings',
  view: 'tenantSettings',
  title: 'Association settings',
  table: 'tenants',
  key: 'TenantId',
  singleRecord: true,
  permissions: { read: 'settings.manage', write: 'settings.manage' },
  fields: {
    TenantId: { type: 'text', label: 'Id', column: 'id', readOnly: true },
    Name: { type: 'text', label: 'Association name', required: true, maxLength: 200 },
    ListPageSize: {
      type: 'number',
      label: 'List page size',
      column: 'settings.listPageSize',
      required: true,
      min: 5,
      max: 500,
    },
    DraftDurationMinutes: {
      type: 'number',
      label: 'Draft duration (minutes)',
      column: 'settings.draftDurationMinutes',
      required: true,
      min: 1,
      max: 10_080,
    },
    NotificationDurationMs: {
      type: 'number',
      label: 'Notification duration (ms)',
      column: 'settings.notificationDurationMs',
      required: true,
      min: 1000,
      max: 60_000,
    },
    DefaultTimezone: {
      type: 'timezone',
      label: 'Default time zone',
      column: 'settings.defaultTimezone',
      required: true,
    },
    WebsitePrefix: {
      type: 'text',
      label: 'Website prefix',
      column: 'settings.websitePrefix',
      required: true,
      maxLength: 16,
    },
    Currency: {
      type: 'select',
      label: 'Currency',
      column: 'settings.currency',
      options: CURRENCY_OPTIONS,
      tooltip: 'The money of invoices, payments and prices. Amounts already recorded keep their value.',
    },
    Address: {
      type: 'textarea',
      label: 'Postal address',
      column: 'settings.address',
      maxLength: 500,
      tooltip: 'As it appears on letters, invoices and receipts.',
    },
    DirectoryStatuses: {
      type: 'multiSelect',
      label: 'Statuses listed in the member directory',
      column: 'settings.directoryStatuses',
      options: CONTACT_STATUSES,
      required: true,
    },
    PrivacyPolicy: {
      type: 'textarea',
      label: 'Privacy policy',
      column: 'settings.privacyPolicy',
      maxLength: 50_000,
      tooltip:
        'Shown to every user until they accept it; a changed text is asked again. Leave empty for none.',
    },
    PrivacyPolicyUrl: {
      type: 'website',
      label: 'Full privacy policy (link)',
      column: 'settings.privacyPolicyUrl',
      maxLength: 500,
    },
  },
  columns: [],
  sortable: ['Name'],
  filterable: [],
  form: [
    { title: 'Association', fields: ['Name', 'DefaultTimezone', 'Currency', 'WebsitePrefix', 'Address'] },
    { title: 'Member directory', fields: ['DirectoryStatuses'] },
    { title: 'Privacy policy', fields: ['PrivacyPolicy', 'PrivacyPolicyUrl'] },
    {
      title: 'Lists and notices',
      fields: ['ListPageSize', 'DraftDurationMinutes', 'NotificationDurationMs'],
    },
  ],
  defaultSort: { field: 'Name', direction: 'asc' },
  capabilities: { update: true },
});
