/** The users of the association: a read-only list and record (changes go through the users feature). */
import { LOGIN_TYPES, ROLES } from '../platform/auth.schema.ts';
import { defineResource } from '../platform/resource.ts';

export const usersResource = defineResource({
  name: 'users',
  feature: 'setup',
  subfeature: 'users',
  view: 'user',
  title: 'Users',
  table: 'user_directory',
  scale: 'small',
  key: 'UserId',
  permissions: { read: 'users.read', write: null },
  fields: {
    UserId: { type: 'number', label: 'Id', readOnly: true },
    Username: { type: 'text', label: 'Username', readOnly: true },
    Email: { type: 'email', label: 'Email', readOnly: true },
    DisplayName: { type: 'text', label: 'Name', readOnly: true },
    LoginType: {
      type: 'select',
      label: 'Login type',
      readOnly: true,
      options: LOGIN_TYPES.map((t) => ({ Id: t, Name: t })),
    },
    Role: { type: 'select', label: 'Role', readOnly: true, options: ROLES.map((r) => ({ Id: r, Name: r })) },
    IsActive: { type: 'boolean', label: 'Status', readOnly: true },
    LastSignInAt: { type: 'datetime', label: 'Last sign-in', readOnly: true },
  },
  // Name, role, status and last sign-in at a glance beside the preview pane (1280 px); username and email are a
  // click away in the table settings and show in the preview.
  columns: [
    { field: 'DisplayName', title: 'Name', sortable: true, rendererInfo: { Key: 'link' } },
    { field: 'Role', title: 'Role', sortable: true },
    { field: 'IsActive', title: 'Status', rendererInfo: { Key: 'boolean' } },
    { field: 'LastSignInAt', title: 'Last sign-in', sortable: true, rendererInfo: { Key: 'datetime' } },
    { field: 'Username', title: 'Username', sortable: true, defaultHide: true },
    { field: 'Email', title: 'Email', sortable: true, defaultHide: true },
  ],
  sortable: ['UserId', 'DisplayName', 'Username', 'Email', 'Role', 'LastSignInAt'],
  filterable: ['Role', 'LoginType', 'IsActive', 'DisplayName', 'Email'],
  search: ['DisplayName', 'Username', 'Email'],
  filters: [
    { Id: 1, Name: 'Staff', Criteria: [{ PropertyName: 'LoginType', Operator: 'eq', Value: 'staff' }] },
    { Id: 2, Name: 'Members', Criteria: [{ PropertyName: 'LoginType', Operator: 'eq', Value: 'member' }] },
  ],
  form: [
    {
      title: 'User',
      fields: ['DisplayName', 'Username', 'Email', 'LoginType', 'Role', 'IsActive', 'LastSignInAt'],
    },
  ],
  rowActions: [
    { key: 'view', title: 'View', kind: 'edit' },
    {
      key: 'sendPasswordReset',
      title: 'Send password reset',
      kind: 'serverCall',
      permission: 'users.manage',
      // An inactive user cannot reset their password.
      showCondition: { field: 'IsActive', equals: true },
      call: {
        method: 'POST',
        path: '/api/users/{UserId}/send-password-reset',
        confirm: 'Email {DisplayName} a link to choose a new password?',
      },
    },
  ],
  defaultSort: { field: 'DisplayName', direction: 'asc' },
  screen: {
    recordType: 'MainEntityParentPage',
    preview: ['DisplayName', 'Username', 'Email', 'Role', 'IsActive', 'LastSignInAt'],
    widgets: [{ key: 'users.count', title: 'Users', kind: 'count' }],
    menu: { key: 'setup', title: 'Setup', order: 3 },
  },
});
