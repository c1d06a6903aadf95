import type { FeatureFlagKey, Me, Permission } from '@guildhall/shared';
import {
  IconAddressBook,
  IconBook,
  IconBox,
  IconBuildingCommunity,
  IconChartBar,
  IconFileCertificate,
  IconFileImport,
  IconFiles,
  IconHistory,
  IconHome,
  IconLayoutDashboard,
  IconLayoutList,
  IconMail,
  type IconProps,
  IconSettings,
  IconSpeakerphone,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { can, flagOn } from '../platform/identity.ts';

export interface NavItem {
  to: string;
  label: string;
  icon: ComponentType<IconProps>;
  /** Only users with this permission see the entry. */
  permission?: Permission;
  /** Only users with this feature flag on see the entry (spec 000 section 1: flags gate features per user). */
  flag?: FeatureFlagKey;
  /** Active only on the exact path (home). */
  end?: boolean;
}

export interface NavSection {
  label: string | null;
  items: NavItem[];
}

export const BACK_OFFICE_NAV: NavSection[] = [
  {
    label: null,
    items: [
      { to: '/a', label: 'Home', icon: IconHome, end: true },
      { to: '/a/dashboard', label: 'Dashboard', icon: IconLayoutDashboard, permission: 'backoffice' },
      { to: '/a/reports', label: 'Reports', icon: IconChartBar, permission: 'backoffice' },
    ],
  },
  {
    label: 'People',
    items: [
      {
        to: '/micronet/list/contacts/contacts',
        label: 'Contacts',
        icon: IconBuildingCommunity,
        permission: 'backoffice',
      },
      { to: '/a/contacts/import', label: 'Import contacts', icon: IconFileImport, permission: 'backoffice' },
      { to: '/a/users', label: 'Users', icon: IconAddressBook, permission: 'users.read' },
    ],
  },
  {
    label: 'Communications',
    items: [
      { to: '/a/outbox', label: 'Mail outbox', icon: IconMail, permission: 'mail.read', flag: 'outbox' },
      { to: '/a/files', label: 'Files', icon: IconFiles, permission: 'backoffice' },
    ],
  },
  {
    label: 'Setup',
    items: [
      { to: '/a/settings', label: 'Settings', icon: IconSettings, permission: 'settings.manage' },
      { to: '/a/setup/terms', label: 'Terms of use', icon: IconFileCertificate, permission: 'terms.manage' },
      { to: '/a/status', label: 'Status messages', icon: IconSpeakerphone, permission: 'status.manage' },
      { to: '/a/audit', label: 'Audit log', icon: IconHistory, permission: 'audit.read', flag: 'auditLog' },
      { to: '/micronet/list/setup/samples', label: 'Samples', icon: IconBox, permission: 'backoffice' },
      { to: '/micronet/list/setup/helpTexts', label: 'Help texts', icon: IconBook, permission: 'backoffice' },
      { to: '/micronet/menu/setup', label: 'Setup menu', icon: IconLayoutList, permission: 'backoffice' },
    ],
  },
];

export function isNavItemVisible(me: Me, item: NavItem): boolean {
  if (item.permission && !can(me, item.permission)) return false;
  if (item.flag && !flagOn(me, item.flag)) return false;
  return true;
}

/** The navigation the user may see: sections without a visible entry disappear. */
export function visibleNav(me: Me, sections: NavSection[] = BACK_OFFICE_NAV): NavSection[] {
  return sections
    .map((section) => ({ ...section, items: section.items.filter((item) => isNavItemVisible(me, item)) }))
    .filter((section) => section.items.length > 0);
}

export function isActive(pathname: string, item: Pick<NavItem, 'to' | 'end'>): boolean {
  if (item.end) return pathname === item.to || pathname === `${item.to}/`;
  return pathname === item.to || pathname.startsWith(`${item.to}/`);
}
