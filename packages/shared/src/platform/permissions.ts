import type { Role } from './auth.schema.ts';

/**
 * Every permission a route can declare. `public` needs no session; `authenticated` any signed-in user;
 * the others are granted by role. A route that declares none refuses to register.
 */
export const PERMISSIONS = [
  'public',
  'authenticated',
  'backoffice',
  'member-area',
  'users.read',
  'users.impersonate',
  'users.manage',
  'settings.manage',
  'terms.manage',
  'help.manage',
  'status.manage',
  'audit.read',
  'mail.read',
  'querytool.run',
  'querytool.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const STAFF: Permission[] = ['authenticated', 'backoffice', 'users.read', 'help.manage', 'mail.read'];

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  admin: [
    ...STAFF,
    'users.impersonate',
    'users.manage',
    'settings.manage',
    'terms.manage',
    'status.manage',
    'audit.read',
    'querytool.run',
    'querytool.manage',
  ],
  staff: STAFF,
  member: ['authenticated', 'member-area'],
};

export function hasPermission(role: Role, permission: Permission): boolean {
  return permission === 'public' || ROLE_PERMISSIONS[role].includes(permission);
}

/** Per-user feature flags (spec 000 section 1: feature flags gate features, read per user). */
export const FEATURE_FLAGS = [
  { key: 'auditLog', label: 'Audit log', defaultOn: true },
  { key: 'outbox', label: 'Mail outbox', defaultOn: true },
  { key: 'helpEditor', label: 'Edit help texts', defaultOn: true },
  { key: 'betaDashboard', label: 'New dashboard (beta)', defaultOn: false },
] as const;
export type FeatureFlagKey = (typeof FEATURE_FLAGS)[number]['key'];
