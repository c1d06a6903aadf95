import { IconSpeakerphone } from '@tabler/icons-react';
import { page, screen } from '../../platform/modules/routing.tsx';
import type { WebModule } from '../../platform/modules/web-module.ts';

export const statusModule: WebModule = {
  name: 'status',
  backOffice: [
    page(
      'status',
      { stateName: 'Setup.Status', title: 'Status messages' },
      screen(
        () => import('./status-page.tsx'),
        (m) => m.StatusPage,
      ),
    ),
  ],
  nav: [
    {
      section: 'setup',
      to: '/a/status',
      label: 'Status messages',
      icon: IconSpeakerphone,
      permission: 'status.manage',
      description: 'Post a status message or a maintenance notice for everyone.',
    },
  ],
};
