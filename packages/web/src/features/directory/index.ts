import { page, screen } from '../../platform/modules/routing.tsx';
import type { WebModule } from '../../platform/modules/web-module.ts';

const directory = () => import('./directory-screens.tsx');

export const directoryModule: WebModule = {
  name: 'directory',
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
