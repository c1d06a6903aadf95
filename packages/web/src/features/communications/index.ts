import { IconTemplate } from '@tabler/icons-react';
import type { WebModule } from '../../platform/modules/web-module.ts';

/**
 * Communications on the web: email templates and newsletters on the generic screens (their message in the
 * rich-text editor of the platform, with merge fields, signatures and images), and later mailings.
 */
export const communicationsModule: WebModule = {
  name: 'communications',
  nav: [
    {
      section: 'communications',
      to: '/micronet/list/communication/templates',
      label: 'Email templates',
      icon: IconTemplate,
      permission: 'backoffice',
      order: 10,
      description: 'Messages and newsletters you reuse, with merge fields that greet each recipient by name.',
    },
  ],
};
