/**
 * Memberships on the generic screen layer (decision 0130): the setup (types with their term rules, levels,
 * chapters, fee price rows, bill frequency options), the memberships themselves (a child list of the contact's
 * record), their fee items and their status history. Lifecycle changes (approve, drop, reinstate) go through the
 * memberships feature's routes, never through a plain save of Status.
 */

import { defineResource } from '../platform/resource.ts';
import { BILL_FREQUENCY_NAMES, RECURRING_FREQUENCY_MONTHS } from '../pricing/bill-frequency.rules.ts';
import { MEMBERSHIP_STATUSES, PRORATION_RULES, RENEWAL_AFTER_GAP, TERM_KINDS } from './memberships.rules.ts';

export const BILL_FREQUENCY_OPTIONS = Object.entries(BILL_FREQUENCY_NAMES).map(([id, name]) => ({
  Id: Number(id),
  Name: name,
}));
export const RECURRING_FREQUENCY_OPTIONS = RECURRING_FREQUENCY_MONTHS.map((id) => ({
  Id: id,
  Name: BILL_FREQUENCY_NAMES[id] ?? `Every ${id} months`,
}));
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
].map((name, i) => ({ Id: i + 1, Name: name }));

const SETUP_MENU = { key: 'memberships-setup', title: 'Membership setup', order: 4 } as const;

export const membershipTypesResource = defineResource({
  name: 'membershipTypes',
  feature: 'memberships',
  subfeature: 'types',
  view: 'type',
  title: 'Membership types',
  table: 'membership_types',
  scale: 'small',
  key: 'MembershipTypeId',
  permissions: { read: 'backoffice', write: 'backoffice' },
  fields: {
    MembershipTypeId: { type: 'number', label: 'Id', readOnly: true },
    Name: { type: 'text', label: 'Name', required: true, maxLength: 100 },
    Description: { type: 'textarea', label: 'Description', maxLength: 2000 },
    IsOrganization: {
      type: 'boolean',
      label: 'Held by an organisation',
      tooltip: 'The organisation holds the membership; its people are added as secondary members.',
    },
    RequiresApproval: {
      type: 'boolean',
      label: 'Applications need approval',
      tooltip: 'A new membership stays pending until staff approve it, even when its first invoice is paid.',
    },
    TermKind: { type: 'select', label: 'Term', options: TERM_KINDS, required: true },
    DurationMonths: { type: 'number', label: 'Term length (months)', min: 1, max: 60, required: true },
    CalendarStartMonth: { type: 'select', label: 'Calendar terms start in', options: MONTHS },
    ProrationRule: {
      type: 'select',
      label: 'Joining late in a calendar term',
      options: PRORATION_RULES,
    },
    CutoffDays: {
      type: 'number',
      label: 'Cut-off (days before the term ends)',
      min: 0,
      max: 366,
      tooltip: 'Joining this close to the end of a calendar term starts the membership in the next term.',
    },
    GraceDays: { type: 'number', label: 'Grace period (days)', min: 0, max: 366 },
    RenewalDaysBefore: {
      type: 'number',
      label: 'Renewal invoice (days before the end)',
      min: 0,
      max: 366,
    },
    ReminderDaysBefore: {
      type: 'number',
      label: 'Renewal reminder mail (days before the end; empty: none)',
      min: 1,
      max: 366,
    },
    ReminderDaysAfter: {
      type: 'number',
      label: 'Overdue reminder mail (days after an unpaid renewal was due; empty: none)',
      min: 1,
      max: 366,
    },
    RenewalAfterGap: { type: 'select', label: 'Renewing after a gap', options: RENEWAL_AFTER_GAP },
    RoundToNearestOnes: { type: 'boolean', label: 'Round prices to whole units' },
    FormulaBasedPricing: { type: 'boolean', label: 'Formula-based pricing' },
    HasLevelPricing: { type: 'boolean', label: 'Prices by level' },
    HasChapterPricing: { type: 'boolean', label: 'Prices by chapter' },
    IsActive: { type: 'boolean', label: 'Open for joining' },
    IsDeleted: { type: 'boolean', label: 'Deleted', readOnly: true },
  },
  columns: [
    { field: 'Name', title: 'Name', sortable: true, rendererInfo: { Key: 'link' } },
    { field: 'TermKind', title: 'Term', sortable: true },
    { field: 'DurationMonths', title: 'Months' },
    { field: 'GraceDays', title: 'Grace days' },
    { field: 'IsOrganization', title: 'Organisations', rendererInfo: { Key: 'boolean' } },
    { field: 'IsActive', title: 'Open', rendererInfo: { Key: 'boolean' } },
  ],
  sortable: ['MembershipTypeId', 'Name', 'TermKind'],
  filterable: ['MembershipTypeId', 'Name', 'TermKind', 'IsActive', 'IsOrganization'],
  search: ['Name'],
  form: [
    { title: 'Type', fields: ['Name', 'Description', 'IsOrganization', 'RequiresApproval', 'IsActive'] },
    {
      title: 'Term',
      fields: [
        'TermKind',
        'DurationMonths',
        'CalendarStartMonth',
        'ProrationRule',
        'CutoffDays',
        'GraceDays',
        'RenewalDaysBefore',
        'ReminderDaysBefore',
        'ReminderDaysAfter',
        'RenewalAfterGap',
      ],
    },
    {
      title: 'Pricing',
      fields: ['RoundToNearestOnes', 'FormulaBasedPricing', 'HasLevelPricing', 'HasChapterPricing'],
    },
  ],
  rowActions: [
    { key: 'edit', title: 'Edit', kind: 'edit' },
    { key: 'delete', title: 'Delete', kind: 'delete' },
  ],
  defaultSort: { field: 'Name', direction: 'asc' },
  softDelete: { deleted: 'IsDeleted' },
  capabilities: { create: true, update: true, delete: true },
  prepare: (model) => ({
    ...model,
    TermKind: model.TermKind ?? 'anniversary',
    DurationMonths: model.DurationMonths ?? 12,
    GraceDays: model.GraceDays ?? 30,
    RenewalDaysBefore: model.RenewalDaysBefore ?? 30,
    IsActive: model.IsActive ?? true,
  }),
  screen: {
    recordType: 'MainEntityParentPage',
    menu: SETUP_MENU,
    children: [
      { resource: 'membershipLevels', parentField: 'MembershipTypeId', title: 'Levels' },
      { resource: 'membershipFees', parentField: 'MembershipTypeId', title: 'Fees' },
      { resource: 'billFrequencyOptions', parentField: 'MembershipTypeId', title: 'Bill frequencies' },
    ],
  },
});

export const membershipLevelsResource = defineResource({
  name: 'membershipLevels',
  feature: 'memberships',
  subfeature: 'levels',
  view: 'level',
  title: 'Membership levels',
  table: 'membership_levels',
  scale: 'small',
  key: 'MembershipLevelId',
  permissions: { read: 'backoffice', write: 'backoffice' },
  fields: {
    MembershipLevelId: { type: 'number', label: 'Id', readOnly: true },
    MembershipTypeId: {
      type: 'lookup',
      label: 'Membership type',
      required: true,
      lookup: { source: 'membershipTypes', display: 'Name' },
    },
    Name: { type: 'text', label: 'Name', required: true, maxLength: 100 },
    SortOrder: { type: 'number', label: 'Order', min: 0, max: 1000 },
    MaxSecondaryMembers: {
      type: 'number',
      label: 'Secondary members allowed',
      min: 0,
      max: 10_000,
      tooltip: 'How many people of an organisation get member access with this level.',
    },
    LevelFieldValues: {
      type: 'text',
      label: 'Chosen by answers',
      maxLength: 500,
      tooltip: 'Answers of the level-selection custom field that pick this level, separated by commas.',
    },
    MinUnits: { type: 'number', label: 'Chosen from (units)' },
    MaxUnits: { type: 'number', label: 'Chosen up to (units)' },
    IsDeleted: { type: 'boolean', label: 'Deleted', readOnly: true },
  },
  columns: [
    { field: 'Name', title: 'Level', sortable: true, rendererInfo: { Key: 'link' } },
    { field: 'SortOrder', title: 'Order', sortable: true },
    { field: 'MaxSecondaryMembers', title: 'Secondary members' },
  ],
  sortable: ['MembershipLevelId', 'Name', 'SortOrder'],
  filterable: ['MembershipLevelId', 'MembershipTypeId', 'Name'],
  search: ['Name'],
  form: [
    { title: 'Level', fields: ['MembershipTypeId', 'Name', 'SortOrder', 'MaxSecondaryMembers'] },
    { title: 'Chosen automatically', fields: ['LevelFieldValues', 'MinUnits', 'MaxUnits'] },
  ],
  rowActions: [
    { key: 'edit', title: 'Edit', kind: 'edit' },
    { key: 'delete', title: 'Delete', kind: 'delete' },
  ],
  defaultSort: { field: 'SortOrder', direction: 'asc' },
  softDelete: { deleted: 'IsDeleted' },
  capabilities: { create: true, update: true, delete: true },
});

export const chaptersResource = defineResource({
  name: 'chapters',
  feature: 'memberships',
  subfeature: 'chapters',
  view: 'chapter',
  title: 'Chapters',
  table: 'chapters',
  scale: 'small',
  key: 'ChapterId',
  permissions: { read: 'backoffice', write: 'backoffice' },
  fields: {
    ChapterId: { type: 'number', label: 'Id', readOnly: true },
    Name: { type: 'text', label: 'Name', required: true, maxLength: 100 },
    Region: { type: 'text', label: 'Region', maxLength: 100 },
    IsDeleted: { type: 'boolean', label: 'Deleted', readOnly: true },
  },
  columns: [
    { field: 'Name', title: 'Chapter', sortable: true, rendererInfo: { Key: 'link' } },
    { field: 'Region', title: 'Region', sortable: true },
  ],
  sortable: ['ChapterId', 'Name', 'Region'],
  filterable: ['ChapterId', 'Name', 'Region'],
  search: ['Name', 'Region'],
  form: [{ title: 'Chapter', fields: ['Name', 'Region'] }],
  rowActions: [
    { key: 'edit', title: 'Edit', kind: 'edit' },
    { key: 'delete', title: 'Delete', kind: 'delete' },
  ],
  defaultSort: { field: 'Name', direction: 'asc' },
  softDelete: { deleted: 'IsDeleted' },
  capabilities: { create: true, update: true, delete: true },
  screen: { menu: SETUP_MENU },
});

/** A fee of a membership type's FeesList: general, or for one level and/or chapter (level and chapter pricing). */
export const membershipFeesResource = defineResource({
  name: 'membershipFees',
  feature: 'memberships',
  subfeature: 'fees',
  view: 'fee',
  title: 'Membership fees',
  table: 'membership_fees',
  scale: 'small',
  key: 'FeePriceId',
  permissions: { read: 'backoffice', write: 'backoffice' },
  fields: {
    FeePriceId: { type: 'number', label: 'Id', readOnly: true },
    MembershipTypeId: {
      type: 'lookup',
      label: 'Membership type',
      required: true,
      lookup: { source: 'membershipTypes', display: 'Name' },
    },
    FeeId: {
      type: 'number',
      label: 'Fee number',
      required: true,
      min: 1,
      tooltip: 'Rows with the same fee number are one fee priced per level or chapter.',
    },
    Name: { type: 'text', label: 'Fee', required: true, maxLength: 100 },
    MembershipLevelId: {
      type: 'lookup',
      label: 'Only for the level',
      lookup: { source: 'membershipLevels', display: 'Name' },
    },
    ChapterId: {
      type: 'lookup',
      label: 'Only for the chapter',
      lookup: { source: 'chapters', display: 'Name' },
    },
    OriginalPrice: { type: 'currency', label: 'Price per term', min: 0, required: true },
    BillFrequencyTypeId: {
      type: 'select',
      label: 'Billed',
      options: BILL_FREQUENCY_OPTIONS,
      required: true,
    },
    PerBillAmount: { type: 'currency', label: 'Amount per bill (Every Bill)', min: 0 },
    Quantity: { type: 'number', label: 'Quantity', min: 0, max: 10_000 },
    IsExcludedFromDiscounts: { type: 'boolean', label: 'Excluded from discounts' },
    IsCollectedWithFirstPayment: { type: 'boolean', label: 'Collected with the first payment' },
    RevenueAccount: { type: 'text', label: 'Dues revenue account', maxLength: 50 },
    IsDeleted: { type: 'boolean', label: 'Deleted', readOnly: true },
  },
  columns: [
    { field: 'Name', title: 'Fee', sortable: true, rendererInfo: { Key: 'link' } },
    { field: 'OriginalPrice', title: 'Price', sortable: true, rendererInfo: { Key: 'currency' } },
    { field: 'BillFrequencyTypeId', title: 'Billed' },
    { field: 'MembershipLevelId', title: 'Level', defaultHide: true },
    { field: 'ChapterId', title: 'Chapter', defaultHide: true },
    { field: 'RevenueAccount', title: 'Revenue account', defaultHide: true },
  ],
  sortable: ['FeePriceId', 'FeeId', 'Name', 'OriginalPrice'],
  filterable: ['FeePriceId', 'MembershipTypeId', 'FeeId', 'MembershipLevelId', 'ChapterId'],
  search: ['Name'],
  form: [
    {
      title: 'Fee',
      fields: ['MembershipTypeId', 'FeeId', 'Name', 'MembershipLevelId', 'ChapterId', 'RevenueAccount'],
    },
    {
      title: 'Price',
      fields: [
        'OriginalPrice',
        'BillFrequencyTypeId',
        'PerBillAmount',
        'Quantity',
        'IsExcludedFromDiscounts',
        'IsCollectedWithFirstPayment',
      ],
    },
  ],
  rowActions: [
    { key: 'edit', title: 'Edit', kind: 'edit' },
    { key: 'delete', title: 'Delete', kind: 'delete' },
  ],
  defaultSort: { field: 'FeeId', direction: 'asc' },
  softDelete: { deleted: 'IsDeleted' },
  capabilities: { create: true, update: true, delete: true },
});

/** A bill frequency a member may choose for a type (Bill frequency option: PriceChangePercentage, PerBillMultipler). */
export const billFrequencyOptionsResource = defineResource({
  name: 'billFrequencyOptions',
  feature: 'memberships',
  subfeature: 'frequencies',
  view: 'frequency',
  title: 'Bill frequencies',
  table: 'bill_frequency_options',
  scale: 'small',
  key: 'OptionId',
  permissions: { read: 'backoffice', write: 'backoffice' },
  fields: {
    OptionId: { type: 'number', label: 'Id', readOnly: true },
    MembershipTypeId: {
      type: 'lookup',
      label: 'Membership type',
      required: true,
      lookup: { source: 'membershipTypes', display: 'Name' },
    },
    BillFrequencyTypeId: {
      type: 'select',
      label: 'Frequency',
      options: RECURRING_FREQUENCY_OPTIONS,
      required: true,
    },
    Name: { type: 'text', label: 'Name shown to members', maxLength: 100 },
    PriceChangePercentage: {
      type: 'text',
      label: 'Price change (%)',
      maxLength: 12,
      tooltip: 'Added to recurring fees for this frequency; negative for a saving (for example 3 or -5).',
    },
    PerBillMultipler: {
      type: 'number',
      label: 'Bills per term',
      min: 1,
      max: 60,
      tooltip: 'Leave empty to divide the term by the frequency (10 for ten school-year payments).',
    },
    IsDefault: { type: 'boolean', label: 'Default' },
    IsDeleted: { type: 'boolean', label: 'Deleted', readOnly: true },
  },
  columns: [
    { field: 'BillFrequencyTypeId', title: 'Frequency', sortable: true },
    { field: 'Name', title: 'Name', rendererInfo: { Key: 'link' } },
    { field: 'PriceChangePercentage', title: 'Price change (%)' },
    { field: 'PerBillMultipler', title: 'Bills per term' },
    { field: 'IsDefault', title: 'Default', rendererInfo: { Key: 'boolean' } },
  ],
  sortable: ['OptionId', 'BillFrequencyTypeId'],
  filterable: ['OptionId', 'MembershipTypeId', 'BillFrequencyTypeId'],
  form: [
    {
      title: 'Frequency',
      fields: [
        'MembershipTypeId',
        'BillFrequencyTypeId',
        'Name',
        'PriceChangePercentage',
        'PerBillMultipler',
        'IsDefault',
      ],
    },
  ],
  rowActions: [
    { key: 'edit', title: 'Edit', kind: 'edit' },
    { key: 'delete', title: 'Delete', kind: 'delete' },
  ],
  defaultSort: { field: 'BillFrequencyTypeId', direction: 'desc' },
  softDelete: { deleted: 'IsDeleted' },
  capabilities: { create: true, update: true, delete: true },
  check: (model) => {
    const pct = model.PriceChangePercentage;
    if (
      pct !== null &&
      pct !== undefined &&
      pct !== '' &&
      !/^-?\d{1,3}(\.\d{1,4})?$/.test(String(pct).trim())
    ) {
      return { Action: 1, Message: 'The price change is a percentage such as 3 or -5.' };
    }
    return null;
  },
});

export const membershipsResource = defineResource({
  name: 'memberships',
  feature: 'memberships',
  subfeature: 'memberships',
  view: 'membership',
  title: 'Memberships',
  table: 'memberships',
  key: 'MembershipId',
  permissions: { read: 'backoffice', write: 'backoffice' },
  fields: {
    MembershipId: { type: 'number', label: 'Id', readOnly: true },
    ContactId: {
      type: 'lookup',
      label: 'Member',
      required: true,
      lookup: { source: 'contacts', display: 'DisplayName' },
    },
    ContactName: { type: 'text', label: 'Member', readOnly: true },
    Name: { type: 'text', label: 'Membership', readOnly: true },
    MembershipTypeId: {
      type: 'lookup',
      label: 'Type',
      required: true,
      readOnly: true,
      lookup: { source: 'membershipTypes', display: 'Name' },
    },
    MembershipLevelId: {
      type: 'lookup',
      label: 'Level',
      readOnly: true,
      lookup: { source: 'membershipLevels', display: 'Name' },
    },
    ChapterId: {
      type: 'lookup',
      label: 'Chapter',
      readOnly: true,
      lookup: { source: 'chapters', display: 'Name' },
    },
    Status: { type: 'select', label: 'Status', options: MEMBERSHIP_STATUSES, readOnly: true },
    StatusDate: { type: 'date', label: 'Status since', readOnly: true },
    JoinDate: { type: 'date', label: 'Joined', readOnly: true },
    TermStart: { type: 'date', label: 'Term from', readOnly: true },
    TermEnd: { type: 'date', label: 'Term to', readOnly: true },
    BillFrequencyTypeId: {
      type: 'select',
      label: 'Billed',
      options: RECURRING_FREQUENCY_OPTIONS,
      readOnly: true,
    },
    TermTotal: { type: 'currency', label: 'Dues per term', readOnly: true },
    AutoPay: { type: 'boolean', label: 'Autopay' },
    DropReason: { type: 'text', label: 'Drop reason', readOnly: true },
    Notes: { type: 'textarea', label: 'Notes', maxLength: 5000 },
    IsDeleted: { type: 'boolean', label: 'Deleted', readOnly: true },
  },
  columns: [
    { field: 'ContactName', title: 'Member', sortable: true, rendererInfo: { Key: 'link' } },
    { field: 'Name', title: 'Membership', sortable: true },
    { field: 'Status', title: 'Status', sortable: true, rendererInfo: { Key: 'badge' } },
    { field: 'TermStart', title: 'From', sortable: true, rendererInfo: { Key: 'date' }, defaultHide: true },
    { field: 'TermEnd', title: 'Term to', sortable: true, rendererInfo: { Key: 'date' } },
    { field: 'TermTotal', title: 'Dues', sortable: true, rendererInfo: { Key: 'currency' } },
    { field: 'BillFrequencyTypeId', title: 'Billed', defaultHide: true },
    { field: 'JoinDate', title: 'Joined', sortable: true, rendererInfo: { Key: 'date' }, defaultHide: true },
    { field: 'AutoPay', title: 'Autopay', rendererInfo: { Key: 'boolean' }, defaultHide: true },
  ],
  sortable: [
    'MembershipId',
    'ContactName',
    'Name',
    'Status',
    'TermEnd',
    'TermStart',
    'JoinDate',
    'TermTotal',
  ],
  filterable: [
    'MembershipId',
    'ContactId',
    'MembershipTypeId',
    'MembershipLevelId',
    'ChapterId',
    'Status',
    'TermEnd',
    'JoinDate',
    'StatusDate',
    'AutoPay',
    'ContactName',
  ],
  search: ['ContactName', 'Name'],
  // Totals from the counts the database keeps (decision 0103).
  counted: true,
  filters: [
    { Id: 1, Name: 'Active', Criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'active' }] },
    { Id: 2, Name: 'Pending', Criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'pending' }] },
    { Id: 3, Name: 'In grace', Criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'grace' }] },
    { Id: 4, Name: 'Lapsed', Criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'lapsed' }] },
    { Id: 5, Name: 'Dropped', Criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'dropped' }] },
  ],
  form: [
    {
      title: 'Membership',
      fields: ['ContactId', 'Name', 'Status', 'StatusDate', 'JoinDate', 'TermStart', 'TermEnd'],
    },
    { title: 'Billing', fields: ['BillFrequencyTypeId', 'TermTotal', 'AutoPay'] },
    { title: 'Notes', fields: ['DropReason', 'Notes'] },
  ],
  rowActions: [{ key: 'edit', title: 'Open', kind: 'edit' }],
  defaultSort: { field: 'TermEnd', direction: 'asc' },
  softDelete: { deleted: 'IsDeleted' },
  capabilities: { update: true },
  recordName: (model) =>
    [model.ContactName, model.Name].filter((part) => typeof part === 'string' && part !== '').join(': ') ||
    `Membership ${String(model.MembershipId ?? '')}`.trim(),
  customFields: { entity: 'Membership', title: 'Memberships' },
  screen: {
    recordType: 'MainEntityParentPage',
    preview: ['ContactName', 'Name', 'Status', 'StatusDate', 'TermStart', 'TermEnd', 'TermTotal', 'AutoPay'],
    widgets: [
      {
        key: 'memberships.expiring',
        title: 'Memberships ending soonest',
        kind: 'list',
        filterId: 1,
        sort: { field: 'TermEnd', direction: 'asc' },
        rows: 5,
      },
    ],
    children: [
      { resource: 'membershipFeeItems', parentField: 'MembershipId', title: 'Fees' },
      { resource: 'membershipHistory', parentField: 'MembershipId', title: 'History' },
    ],
  },
});

/** The fees of one membership as priced for its term (Price, per-bill amounts). */
export const membershipFeeItemsResource = defineResource({
  name: 'membershipFeeItems',
  feature: 'memberships',
  subfeature: 'fee-items',
  view: 'feeItem',
  title: 'Fees',
  table: 'membership_fee_items',
  key: 'ItemId',
  permissions: { read: 'backoffice', write: null },
  fields: {
    ItemId: { type: 'number', label: 'Id', readOnly: true },
    MembershipId: { type: 'number', label: 'Membership', readOnly: true },
    Name: { type: 'text', label: 'Fee', readOnly: true },
    BillFrequencyTypeId: { type: 'select', label: 'Billed', options: BILL_FREQUENCY_OPTIONS, readOnly: true },
    OriginalPrice: { type: 'currency', label: 'Set price', readOnly: true },
    Price: { type: 'currency', label: 'Price per term', readOnly: true },
    Quantity: { type: 'number', label: 'Quantity', readOnly: true },
    BillFrequency: { type: 'number', label: 'Bills per term', readOnly: true },
    PerBillAmount: { type: 'currency', label: 'Per bill', readOnly: true },
    RevenueAccount: { type: 'text', label: 'Revenue account', readOnly: true },
  },
  columns: [
    { field: 'Name', title: 'Fee', sortable: true },
    { field: 'BillFrequencyTypeId', title: 'Billed' },
    { field: 'Price', title: 'Price per term', sortable: true, rendererInfo: { Key: 'currency' } },
    { field: 'Quantity', title: 'Quantity' },
    { field: 'BillFrequency', title: 'Bills' },
    { field: 'PerBillAmount', title: 'Per bill', rendererInfo: { Key: 'currency' } },
  ],
  sortable: ['ItemId', 'Name', 'Price'],
  filterable: ['ItemId', 'MembershipId'],
  form: [
    {
      title: 'Fee',
      fields: [
        'Name',
        'BillFrequencyTypeId',
        'OriginalPrice',
        'Price',
        'Quantity',
        'BillFrequency',
        'PerBillAmount',
      ],
    },
  ],
  defaultSort: { field: 'ItemId', direction: 'asc' },
});

/** Every status change of a membership, with its day and reason (the history on the contact). */
export const membershipHistoryResource = defineResource({
  name: 'membershipHistory',
  feature: 'memberships',
  subfeature: 'history',
  view: 'change',
  title: 'Membership history',
  table: 'membership_history',
  key: 'HistoryId',
  permissions: { read: 'backoffice', write: null },
  fields: {
    HistoryId: { type: 'number', label: 'Id', readOnly: true },
    MembershipId: { type: 'number', label: 'Membership', readOnly: true },
    ContactId: { type: 'number', label: 'Contact', readOnly: true },
    FromStatus: { type: 'select', label: 'From', options: MEMBERSHIP_STATUSES, readOnly: true },
    ToStatus: { type: 'select', label: 'To', options: MEMBERSHIP_STATUSES, readOnly: true },
    ChangedOn: { type: 'date', label: 'On', readOnly: true },
    Event: { type: 'text', label: 'What happened', readOnly: true },
    Reason: { type: 'text', label: 'Reason', readOnly: true },
    ChangedBy: { type: 'text', label: 'By', readOnly: true },
  },
  columns: [
    { field: 'Event', title: 'What happened', rendererInfo: { Key: 'link' } },
    { field: 'ChangedOn', title: 'On', sortable: true, rendererInfo: { Key: 'date' } },
    { field: 'FromStatus', title: 'From', rendererInfo: { Key: 'badge' } },
    { field: 'ToStatus', title: 'To', rendererInfo: { Key: 'badge' } },
    { field: 'Reason', title: 'Reason' },
    { field: 'ChangedBy', title: 'By' },
  ],
  sortable: ['HistoryId', 'ChangedOn'],
  filterable: ['HistoryId', 'MembershipId', 'ContactId', 'ToStatus', 'ChangedOn'],
  form: [
    { title: 'Change', fields: ['ChangedOn', 'Event', 'FromStatus', 'ToStatus', 'Reason', 'ChangedBy'] },
  ],
  defaultSort: { field: 'HistoryId', direction: 'desc' },
});
