import { usersResource } from '@guildhall/shared';
import { IconAddressBook } from '@tabler/icons-react';
import { page, screen } from '../../platform/modules/routing.tsx';
import type { WebModule } from '../../platform/modules/web-module.ts';
import { claimRecordSlots } from '../../platform/screens/record-slots.tsx';

export const usersModule: WebModule = {
  name: 'users',
  public: [
    page(
      'invitation',
      { title: 'Accept the invitation' },
      screen(
        () => import('./accept-invitation-page.tsx'),
        (m) => m.AcceptInvitationPage,
      ),
    ),
  ],
  backOffice: [
    page(
      'users',
      { stateName: 'Users.List', title: 'Users' },
      screen(
        () => import('./users-page.tsx'),
        (m) => m.UsersPage,
      ),
    ),
    page(
      'users/:id',
      { stateName: 'Users.Detail', title: 'User' },
      screen(
        () => import('./user-record-page.tsx'),
        (m) => m.UserRecordPage,
      ),
    ),
  ],
  // Every address of a user's record (`/a/users/{id}`, `/micronet/list/setup/users/{id}`) draws these slots.
  recordSlots: [
    claimRecordSlots(usersResource, () => import('./user-record-slots.tsx').then((m) => m.userRecordSlots)),
  ],
  nav: [
    {
      section: 'people',
      to: '/a/users',
      label: 'Users',
      icon: IconAddressBook,
      permission: 'users.read',
      description:
        'See who can sign in, their roles and feature flags; invite colleagues; work as a user to see what they see.',
    },
  ],
};
