import type { LoginType, Role } from '@guildhall/shared';

/** GET /api/users/:id. */
export interface UserRecord {
  id: number;
  username: string;
  email: string;
  displayName: string;
  loginType: LoginType;
  role: Role;
  isActive: boolean;
  lastSignInAt: string | null;
  featureFlags: Record<string, boolean>;
}

export const usersKey = ['users'] as const;
export const userKey = (id: number) => ['users', id] as const;

export const ROLE_LABEL: Record<Role, string> = { admin: 'Administrator', staff: 'Staff', member: 'Member' };

export const invitationsKey = ['users', 'invitations'] as const;
