import { IconBuildingCommunity, IconFileImport } from '@tabler/icons-react';
import { lazy } from 'react';
import { page, screen } from '../../platform/modules/routing.tsx';
import type { WebModule } from '../../platform/modules/web-module.ts';

export const contactsModule: WebModule = {
  name: 'contacts',
  backOffice: [
    page(
      'contacts/import',
      { stateName: 'Contacts.Import', title: 'Import contacts' },
      screen(
        () => import('./contacts-import.tsx'),
        (m) => m.ContactsImportPage,
      ),
    ),
  ],
  nav: [
    {
      section: 'people',
      to: '/micronet/list/contacts/contacts',
      label: 'Contacts',
      icon: IconBuildingCommunity,
      permission: 'backoffice',
      description: 'The people and organisations of the association, their contact info and relations.',
    },
    {
      section: 'people',
      to: '/a/contacts/import',
      label: 'Import contacts',
      icon: IconFileImport,
      permission: 'backoffice',
      description: 'Add or update contacts from a CSV file.',
    },
  ],
  recordActions: { contacts: lazy(() => import('./contact-record-actions.tsx')) },
  childPanels: { contactLinks: lazy(() => import('./contact-relations.tsx')) },
  dashboardWidgets: [
    {
      key: 'contacts.byStatus',
      title: 'Contacts by status',
      permission: 'backoffice',
      size: { w: 4, h: 6 },
      Component: lazy(() => import('./contacts-widgets.tsx').then((m) => ({ default: m.ContactsByStatus }))),
    },
    {
      key: 'contacts.newThisMonth',
      title: 'New contacts this month',
      permission: 'backoffice',
      size: { w: 2, h: 3 },
      Component: lazy(() =>
        import('./contacts-widgets.tsx').then((m) => ({ default: m.NewContactsThisMonth })),
      ),
    },
  ],
};
