import type { Me } from '@guildhall/shared';

/** A signed-in staff administrator; tests override what they need. */
export function buildMe(overrides: Partial<Me> = {}): Me {
  return {
    user: {
      id: 1,
      username: 'dana',
      email: 'd@example.org',
      displayName: 'Dana',
      loginType: 'staff',
      timeZone: null,
    },
    tenant: {
      id: 't1',
      name: 'Demo',
      slug: 'demo',
      settings: {
        listPageSize: 50,
        draftDurationMinutes: 1440,
        notificationDurationMs: 5000,
        defaultTimezone: 'America/Chicago',
        websitePrefix: 'http://',
      },
    },
    area: 'backoffice',
    role: 'admin',
    permissions: ['authenticated', 'backoffice'],
    featureFlags: {},
    uiVersion: 2,
    pendingPrompts: {
      terms: [],
      securityQuestion: false,
      passwordReset: false,
      usernameChange: false,
      privacyPolicy: null,
    },
    impersonation: null,
    ...overrides,
  };
}
