import { IconAddressBook, IconUser } from '@tabler/icons-react';
import { page, screen } from '../../platform/modules/routing.tsx';
import type { WebModule } from '../../platform/modules/web-module.ts';

const directory = () => import('./directory-screens.tsx');

export const directoryModule: WebModule = {
  name: 'directory',
  memberShortcuts: [
    {
      to: '/m/profile',
      title: 'Your profile',
      description: 'The details your association holds about you; change what your association lets you.',
      action: 'View your profile',
      icon: IconUser,
      order: 10,
    },
    {
      to: '/m/directory',
      title: 'Member directory',
      description: 'Find the members and organisations listed by your association.',
      action: 'Open the directory',
      icon: IconAddressBook,
      order: 50,
    },
  ],
  memberArea: [
    page(
      'directory',
      { stateName: 'Directory.List', title: 'Member directory' },
      screen(directory, (m) => m.DirectoryList),
    ),
    page(
      'directory/:DirectoryContactId',
      { stateName: 'DirectoryContactDetail.General', title: 'Directory contact' },
      screen(directory, (m) => m.DirectoryContactDetail),
    ),
    page(
      'profile',
      { stateName: 'Member.Profile', title: 'Your profile' },
      screen(
        () => import('./member-profile.tsx'),
        (m) => m.MemberProfile,
      ),
    ),
  ],
};
