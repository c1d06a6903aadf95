import { IconMail } from '@tabler/icons-react';
import { page, screen } from '../../platform/modules/routing.tsx';
import type { WebModule } from '../../platform/modules/web-module.ts';

export const mailModule: WebModule = {
  name: 'mail',
  backOffice: [
    page(
      'outbox',
      { stateName: 'Mail.Outbox', title: 'Mail outbox' },
      screen(
        () => import('./outbox-page.tsx'),
        (m) => m.OutboxPage,
      ),
    ),
    page(
      'outbox/:id',
      { stateName: 'Mail.Message', title: 'Message' },
      screen(
        () => import('./message-page.tsx'),
        (m) => m.MessagePage,
      ),
    ),
  ],
  nav: [
    {
      section: 'communications',
      to: '/a/outbox',
      label: 'Mail outbox',
      icon: IconMail,
      permission: 'mail.read',
      flag: 'outbox',
      description: 'Read the emails Guildhall sent or kept, such as password reset links.',
    },
  ],
};
