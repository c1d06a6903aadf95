/**
 * Certification programmes (continuing education an association runs) and the registrations of contacts in them
 * (the CertificationRegistration screen, spec 000 s2/s8: a failed save does not scroll to the error block). A
 * registration's progress is the sum of the credits its contact earned by attending events (recorded on check-in,
 * `event_attendees.credits_earned`) within its period; the server's events module keeps it (decision 0142).
 */
import { defineResource } from '../platform/resource.ts';

export const CERTIFICATION_STATUSES = [
  { Id: 'in-progress', Name: 'In progress' },
  { Id: 'completed', Name: 'Completed' },
] as const;

export const certificationProgrammesResource = defineResource({
  name: 'certificationProgrammes',
  feature: 'events',
  subfeature: 'certifications',
  view: 'programme',
  title: 'Certification programmes',
  table: 'certification_programmes',
  key: 'ProgrammeId',
  permissions: { read: 'backoffice', write: 'backoffice' },
  fields: {
    ProgrammeId: { type: 'number', label: 'Id', readOnly: true },
    Name: { type: 'text', label: 'Name', required: true, maxLength: 200 },
    RequiredCredits: {
      type: 'number',
      label: 'Credits required',
      required: true,
      min: 1,
      tooltip: 'Continuing-education credits a member must earn by attending events to complete it.',
    },
    PeriodMonths: {
      type: 'number',
      label: 'Period (months)',
      required: true,
      min: 1,
      max: 120,
      tooltip: "Credits count from the registration's start for this many months.",
    },
    StaffOnly: {
      type: 'boolean',
      label: 'Registered by staff only',
      tooltip: 'Off: members see the programme in the member area and register themselves.',
    },
    Description: { type: 'textarea', label: 'Description', maxLength: 4000 },
    IsDeleted: { type: 'boolean', label: 'Deleted', readOnly: true },
  },
  columns: [
    { field: 'Name', title: 'Programme', sortable: true, rendererInfo: { Key: 'link' } },
    { field: 'RequiredCredits', title: 'Credits required' },
    { field: 'PeriodMonths', title: 'Period (months)' },
    { field: 'StaffOnly', title: 'Staff only', rendererInfo: { Key: 'boolean' } },
  ],
  sortable: ['ProgrammeId', 'Name'],
  filterable: ['ProgrammeId', 'Name'],
  search: ['Name'],
  form: [
    { title: 'Programme', fields: ['Name', 'RequiredCredits', 'PeriodMonths', 'StaffOnly'] },
    { title: 'Description', fields: ['Description'] },
  ],
  rowActions: [
    { key: 'edit', title: 'Edit', kind: 'edit' },
    { key: 'delete', title: 'Delete', kind: 'delete' },
  ],
  defaultSort: { field: 'Name', direction: 'asc' },
  softDelete: { deleted: 'IsDeleted' },
  capabilities: { create: true, update: true, delete: true },
  scale: 'small',
  recordName: (model) => String(model.Name ?? ''),
  screen: {
    recordType: 'MainEntityParentPage',
    menu: { key: 'events-setup', title: 'Events setup', order: 2 },
    children: [{ resource: 'CertificationRegistration', parentField: 'ProgrammeId', title: 'Registrations' }],
  },
});

export const certificationRegistrationResource = defineResource({
  name: 'CertificationRegistration',
  feature: 'events',
  subfeature: 'certification-registrations',
  view: 'certificationRegistration',
  title: 'Certification registrations',
  table: 'certification_registrations',
  key: 'CertificationRegistrationId',
  permissions: { read: 'backoffice', write: 'backoffice' },
  fields: {
    CertificationRegistrationId: { type: 'number', label: 'Id', readOnly: true },
    ProgrammeId: {
      type: 'lookup',
      label: 'Programme',
      required: true,
      lookup: { source: 'certificationProgrammes', display: 'Name' },
    },
    ContactId: {
      type: 'lookup',
      label: 'Contact',
      required: true,
      lookup: { source: 'contacts', display: 'DisplayName' },
    },
    StartsOn: {
      type: 'date',
      label: 'Starts on',
      tooltip: 'Credits earned from this day count; empty for today.',
    },
    EndsOn: { type: 'date', label: 'Ends on', readOnly: true },
    RequiredCredits: { type: 'number', label: 'Credits required', readOnly: true },
    CreditsEarned: { type: 'number', label: 'Credits earned', readOnly: true },
    Status: { type: 'select', label: 'Status', options: CERTIFICATION_STATUSES, readOnly: true },
    CompletedAt: { type: 'datetime', label: 'Completed', readOnly: true },
    CreatedAt: { type: 'datetime', label: 'Registered', readOnly: true },
    IsDeleted: { type: 'boolean', label: 'Deleted', readOnly: true },
  },
  columns: [
    { field: 'ContactId', title: 'Contact', rendererInfo: { Key: 'link' } },
    { field: 'ProgrammeId', title: 'Programme' },
    { field: 'StartsOn', title: 'Starts on', sortable: true },
    { field: 'EndsOn', title: 'Ends on' },
    { field: 'CreditsEarned', title: 'Credits earned' },
    { field: 'RequiredCredits', title: 'Required' },
    { field: 'Status', title: 'Status', sortable: true, rendererInfo: { Key: 'badge' } },
    { field: 'CompletedAt', title: 'Completed', defaultHide: true },
  ],
  sortable: ['CertificationRegistrationId', 'StartsOn', 'Status'],
  filterable: ['CertificationRegistrationId', 'ProgrammeId', 'ContactId', 'Status'],
  search: [],
  filters: [
    {
      Id: 1,
      Name: 'In progress',
      Criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'in-progress' }],
    },
    { Id: 2, Name: 'Completed', Criteria: [{ PropertyName: 'Status', Operator: 'eq', Value: 'completed' }] },
  ],
  form: [
    { title: 'Registration', fields: ['ProgrammeId', 'ContactId', 'StartsOn'] },
    { title: 'Progress', fields: ['EndsOn', 'RequiredCredits', 'CreditsEarned', 'Status', 'CompletedAt'] },
  ],
  rowActions: [
    { key: 'edit', title: 'Edit', kind: 'edit' },
    { key: 'delete', title: 'Delete', kind: 'delete' },
  ],
  defaultSort: { field: 'StartsOn', direction: 'desc' },
  softDelete: { deleted: 'IsDeleted' },
  capabilities: { create: true, update: true, delete: true },
  scale: 'small',
  recordName: (model) =>
    `Certification registration ${String(model.CertificationRegistrationId ?? '')}`.trim(),
  screen: { menu: { key: 'events-setup', title: 'Events setup', order: 3 } },
});
