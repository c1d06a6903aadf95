import { IconMailCog, IconMailForward, IconTemplate } from '@tabler/icons-react';
import { lazy } from 'react';
import { page, screen } from '../../platform/modules/routing.tsx';
import type { WebModule } from '../../platform/modules/web-module.ts';

/**
 * Communications on the web: email templates and newsletters on the generic screens (their message in the
 * rich-text editor of the platform, with merge fields, signatures and images), mailings (write, preview, test,
 * send or schedule, and the delivery log), and a contact's communication history.
 */
export const communicationsModule: WebModule = {
  name: 'communications',
  backOffice: [
    page(
      'mailings',
      { stateName: 'Communications.Mailings', title: 'Mailings' },
      screen(
        () => import('./mailings-page.tsx'),
        (m) => m.MailingsPage,
      ),
    ),
    page(
      'mailings/:id',
      { stateName: 'Communications.Mailing', title: 'Mailing' },
      screen(
        () => import('./mailing-page.tsx'),
        (m) => m.MailingPage,
      ),
    ),
    page(
      'system-messages',
      { stateName: 'Communications.SystemMessages', title: 'System messages' },
      screen(
        () => import('./system-templates-page.tsx'),
        (m) => m.SystemTemplatesPage,
      ),
    ),
    page(
      'system-messages/:key',
      { stateName: 'Communications.SystemMessage', title: 'System message' },
      screen(
        () => import('./system-templates-page.tsx'),
        (m) => m.SystemTemplatePage,
      ),
    ),
    page(
      'designer/:target/:id',
      { stateName: 'Communications.Designer', title: 'Email designer' },
      screen(
        () => import('./designer-page.tsx'),
        (m) => m.DesignerPage,
      ),
    ),
  ],
  recordActions: { emailTemplates: lazy(() => import('./template-record-actions.tsx')) },
  nav: [
    {
      section: 'communications',
      to: '/a/mailings',
      label: 'Mailings',
      icon: IconMailForward,
      permission: 'backoffice',
      order: 5,
      description: 'Send a message to many contacts at once, and see how its delivery went.',
    },
    {
      section: 'communications',
      to: '/micronet/list/communication/templates',
      label: 'Email templates',
      icon: IconTemplate,
      permission: 'backoffice',
      order: 10,
      description: 'Messages and newsletters you reuse, with merge fields that greet each recipient by name.',
    },
    {
      section: 'communications',
      to: '/a/system-messages',
      label: 'System messages',
      icon: IconMailCog,
      permission: 'backoffice',
      order: 15,
      description:
        'The messages Guildhall sends for you (password resets, invoices, confirmations), in your words.',
    },
  ],
  recordTabs: {
    contacts: [
      {
        key: 'communications',
        title: 'Communications',
        Panel: lazy(() => import('./contact-history-tab.tsx')),
      },
    ],
  },
};
