import { describe, expect, it } from 'vitest';
import { isActive, navSections, visibleNav, visibleWidgets } from '../platform/modules/modules-context.tsx';
import { buildMe } from '../test-support/build-me.ts';
import { WEB_MODULES } from './modules.ts';
import { buildRoutes } from './routes.tsx';

const labels = (sections: ReturnType<typeof visibleNav>) =>
  sections.flatMap((s) => s.items.map((i) => i.label));

describe('the navigation assembled from the modules', () => {
  it('shows an entry only with its permission and feature flag', () => {
    const staff = buildMe({ permissions: ['authenticated', 'backoffice', 'users.read', 'mail.read'] });
    expect(labels(visibleNav(staff, WEB_MODULES))).toEqual([
      'Home',
      'Dashboard',
      'Reports',
      'Events',
      'Events calendar',
      'My tasks',
      'Projects',
      'Contacts',
      'Import contacts',
      'Memberships',
      'Join a member',
      'Renewal run',
      'Invoices',
      'Payments',
      'Record a payment',
      'Deposits',
      'Make a deposit',
      'Billing reports',
      'Users',
      'Mailings',
      'Email templates',
      'System messages',
      'Mail outbox',
      'Files',
      'Membership setup',
      'Online join page',
      'Billing setup',
      'Project templates',
      'Help texts',
      'Setup menu',
    ]);
    const noOutbox = buildMe({ permissions: ['users.read', 'mail.read'], featureFlags: { outbox: false } });
    expect(labels(visibleNav(noOutbox, WEB_MODULES))).toEqual(['Home', 'Users']);
  });
  it('drops sections left empty', () => {
    const bare = buildMe({ permissions: ['authenticated'] });
    expect(visibleNav(bare, WEB_MODULES).map((s) => s.label)).toEqual([null]);
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
    const visible = labels(visibleNav(admin, WEB_MODULES));
    expect(visible).toHaveLength(9);
    expect(visible).toContain('Custom fields');
    expect(visible).toContain('Card payments');
  });
  it('never lists the generic layer test fixture (samples)', () => {
    const all = navSections(WEB_MODULES).flatMap((s) => s.items);
    expect(all.filter((i) => /sample/i.test(`${i.label} ${i.to} ${i.description ?? ''}`))).toEqual([]);
    expect(all.every((i) => i.to === '/a' || (i.description ?? '') !== '')).toBe(true);
  });
});

describe('the home dashboard widgets of the modules', () => {
  it("shows the association's figures to staff, the audit trail only with its permission", () => {
    const staff = buildMe({ permissions: ['authenticated', 'backoffice'] });
    expect(visibleWidgets(staff, WEB_MODULES).map((w) => w.key)).toEqual([
      'contacts.byStatus',
      'contacts.newThisMonth',
      'memberships.active',
      'memberships.renewalsDue',
      'memberships.lapsedThisMonth',
      'billing.openReceivables',
      'billing.overdue',
      'billing.revenueThisMonth',
      'tasks.mine',
    ]);
    const auditor = buildMe({ permissions: ['authenticated', 'backoffice', 'audit.read'] });
    expect(visibleWidgets(auditor, WEB_MODULES).map((w) => w.key)).toContain('audit.recent');
    const keys = WEB_MODULES.flatMap((m) => m.dashboardWidgets ?? []).map((w) => w.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('the router assembled from the modules', () => {
  const paths = (routes: ReturnType<typeof buildRoutes>, area: string) => {
    const signedIn = routes[0]?.children?.find(
      (r) => r.element && !r.path && r.children?.some((c) => c.path === 'a'),
    );
    return (signedIn?.children?.find((r) => r.path === area)?.children ?? []).map((r) =>
      r.index ? '(index)' : r.path,
    );
  };
  it("mounts each module's screens in its shell, and a module left out is absent", () => {
    const routes = buildRoutes(WEB_MODULES);
    expect(paths(routes, 'a')).toEqual(
      expect.arrayContaining([
        '(index)',
        'users',
        'users/:id',
        'contacts/import',
        'audit',
        'reports',
        'tasks/my',
        'tasks/from-template',
        '*',
      ]),
    );
    expect(paths(routes, 'm')).toEqual(expect.arrayContaining(['(index)', 'directory', 'profile', '*']));
    const withoutUsers = buildRoutes(WEB_MODULES.filter((m) => m.name !== 'users'));
    expect(paths(withoutUsers, 'a')).not.toContain('users');
    expect(paths(withoutUsers, 'a')).toContain('audit');
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

describe('tabs a declaration asks for', () => {
  it('gives every resource declaring customFields a Custom fields tab, and no other resource', async () => {
    const { contactsResource, usersResource } = await import('@guildhall/shared');
    const { recordSlotsOf } = await import('../platform/modules/modules-context.tsx');
    expect(recordSlotsOf(WEB_MODULES, contactsResource).tabs.map((t) => t.key)).toContain('custom-fields');
    expect(recordSlotsOf(WEB_MODULES, usersResource).tabs.map((t) => t.key)).not.toContain('custom-fields');
    expect(
      recordSlotsOf(WEB_MODULES, { ...usersResource, customFields: { entity: 'User' } }).tabs.map(
        (t) => t.key,
      ),
    ).toContain('custom-fields');
  });
});
