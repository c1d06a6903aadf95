import { describe, expect, it } from 'vitest';
import { buildMe } from '../test-support/build-me.ts';
import { isActive, visibleNav } from './nav-items.ts';

const labels = (sections: ReturnType<typeof visibleNav>) =>
  sections.flatMap((s) => s.items.map((i) => i.label));

describe('visibleNav', () => {
  it('shows an entry only with its permission and feature flag', () => {
    const staff = buildMe({ permissions: ['authenticated', 'backoffice', 'users.read', 'mail.read'] });
    expect(labels(visibleNav(staff))).toEqual([
      'Home',
      'Dashboard',
      'Reports',
      'Contacts',
      'Import contacts',
      'Users',
      'Mail outbox',
      'Files',
      'Samples',
      'Help texts',
      'Setup menu',
    ]);
    const noOutbox = buildMe({ permissions: ['users.read', 'mail.read'], featureFlags: { outbox: false } });
    expect(labels(visibleNav(noOutbox))).toEqual(['Home', 'Users']);
  });
  it('drops sections left empty', () => {
    const bare = buildMe({ permissions: ['authenticated'] });
    expect(visibleNav(bare).map((s) => s.label)).toEqual([null]);
  });
  it('gives an administrator every screen', () => {
    const admin = buildMe({
      permissions: [
        'users.read',
        'mail.read',
        'settings.manage',
        'terms.manage',
        'status.manage',
        'audit.read',
      ],
    });
    expect(labels(visibleNav(admin))).toHaveLength(7);
  });
});

describe('isActive', () => {
  it('matches home exactly and other entries by prefix', () => {
    expect(isActive('/a', { to: '/a', end: true })).toBe(true);
    expect(isActive('/a/users', { to: '/a', end: true })).toBe(false);
    expect(isActive('/a/users/3', { to: '/a/users' })).toBe(true);
    expect(isActive('/a/usersx', { to: '/a/users' })).toBe(false);
  });
});
