import { IconHome } from '@tabler/icons-react';
import { page, screen } from '../../platform/modules/routing.tsx';
import type { WebModule } from '../../platform/modules/web-module.ts';

export const homeModule: WebModule = {
  name: 'home',
  backOffice: [
    page(
      undefined,
      { stateName: 'Home', title: 'Home' },
      screen(
        () => import('./back-office-home.tsx'),
        (m) => m.BackOfficeHome,
      ),
    ),
  ],
  memberArea: [
    page(
      undefined,
      { stateName: 'Member.Home', title: 'Home' },
      screen(
        () => import('./member-home.tsx'),
        (m) => m.MemberHome,
      ),
    ),
  ],
  nav: [{ section: 'top', to: '/a', label: 'Home', icon: IconHome, end: true, order: 0 }],
};
