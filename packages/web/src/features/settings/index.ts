import { IconSettings } from '@tabler/icons-react';
import { page, screen } from '../../platform/modules/routing.tsx';
import type { WebModule } from '../../platform/modules/web-module.ts';

export const settingsModule: WebModule = {
  name: 'settings',
  backOffice: [
    page(
      'settings',
      { stateName: 'Setup.Settings', title: 'Settings' },
      screen(
        () => import('./settings-page.tsx'),
        (m) => m.SettingsPage,
      ),
    ),
  ],
  nav: [
    {
      section: 'setup',
      to: '/a/settings',
      label: 'Settings',
      icon: IconSettings,
      permission: 'settings.manage',
      description: 'Name, list page size, timings, default timezone and website prefix.',
    },
  ],
};
