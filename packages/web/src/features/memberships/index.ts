import {
  IconCalendarDollar,
  IconIdBadge2,
  IconRefresh,
  IconUserPlus,
  IconWorldWww,
} from '@tabler/icons-react';
import { lazy } from 'react';
import { page, screen } from '../../platform/modules/routing.tsx';
import type { WebModule } from '../../platform/modules/web-module.ts';

const widget = (name: 'ActiveMembers' | 'RenewalsDue' | 'LapsedThisMonth') =>
  lazy(() => import('./memberships-widgets.tsx').then((m) => ({ default: m[name] })));

/** Memberships: the list and record (generic screens), the setup menu, the join wizard, the dashboard figures. */
export const membershipsModule: WebModule = {
  name: 'memberships',
  memberShortcuts: [
    {
      to: '/m/membership',
      title: 'Your membership',
      description: "Your membership's status, term and dues, and autopay.",
      action: 'View your membership',
      icon: IconIdBadge2,
      order: 20,
      Summary: lazy(() => import('./member-summary.tsx')),
    },
  ],
  backOffice: [
    page(
      'memberships/join',
      { stateName: 'Memberships.Join', title: 'Join a member' },
      screen(
        () => import('./join-page.tsx'),
        (m) => m.JoinPage,
      ),
    ),
    page(
      'memberships/renewals',
      { stateName: 'Memberships.Renewals', title: 'Renewal run' },
      screen(
        () => import('./renewal-run-page.tsx'),
        (m) => m.RenewalRunPage,
      ),
    ),
    page(
      'memberships/join-online',
      { stateName: 'Memberships.JoinOnline', title: 'Online join page' },
      screen(
        () => import('./join-online-page.tsx'),
        (m) => m.JoinOnlinePage,
      ),
    ),
  ],
  public: [
    page(
      'join/:tenantId',
      { title: 'Join' },
      screen(
        () => import('./public-join-page.tsx'),
        (m) => m.PublicJoinPage,
      ),
    ),
  ],
  memberArea: [
    page(
      'membership',
      { stateName: 'Member.Membership', title: 'Your membership' },
      screen(
        () => import('./my-membership.tsx'),
        (m) => m.MyMembershipPage,
      ),
    ),
  ],
  nav: [
    {
      section: 'people',
      to: '/micronet/list/memberships/memberships',
      label: 'Memberships',
      icon: IconIdBadge2,
      permission: 'backoffice',
      description: 'Who is a member, of what, until when: statuses, terms and dues.',
    },
    {
      section: 'people',
      to: '/a/memberships/join',
      label: 'Join a member',
      icon: IconUserPlus,
      permission: 'backoffice',
      description: 'Sign a contact up for a membership, priced live.',
    },
    {
      section: 'people',
      to: '/a/memberships/renewals',
      label: 'Renewal run',
      icon: IconRefresh,
      permission: 'backoffice',
      description: 'Preview who renews, run the renewals and see what the run did.',
    },
    {
      section: 'setup',
      to: '/micronet/menu/memberships-setup',
      label: 'Membership setup',
      icon: IconCalendarDollar,
      permission: 'backoffice',
      description: 'Membership types, levels, chapters, fees and bill frequencies.',
    },
    {
      section: 'setup',
      to: '/a/memberships/join-online',
      label: 'Online join page',
      icon: IconWorldWww,
      permission: 'backoffice',
      description:
        'The public page where people join on their own: its address to share, and what it offers.',
    },
  ],
  recordActions: { memberships: lazy(() => import('./membership-record-actions.tsx')) },
  recordTabs: {
    memberships: [
      {
        key: 'secondary-members',
        title: 'Secondary members',
        Panel: lazy(() => import('./secondary-members.tsx')),
      },
    ],
  },
  dashboardWidgets: [
    {
      key: 'memberships.active',
      title: 'Active members',
      permission: 'backoffice',
      size: { w: 2, h: 3 },
      Component: widget('ActiveMembers'),
    },
    {
      key: 'memberships.renewalsDue',
      title: 'Renewals due in 30 days',
      permission: 'backoffice',
      size: { w: 2, h: 3 },
      Component: widget('RenewalsDue'),
    },
    {
      key: 'memberships.lapsedThisMonth',
      title: 'Lapsed this month',
      permission: 'backoffice',
      size: { w: 2, h: 3 },
      Component: widget('LapsedThisMonth'),
    },
  ],
};
