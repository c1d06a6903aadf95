import { IconHistory } from '@tabler/icons-react';
import { lazy } from 'react';
import { page, screen } from '../../platform/modules/routing.tsx';
import type { WebModule } from '../../platform/modules/web-module.ts';

export const auditModule: WebModule = {
  name: 'audit',
  backOffice: [
    page(
      'audit',
      { stateName: 'Audit.Log', title: 'Audit log' },
      screen(
        () => import('./audit-page.tsx'),
        (m) => m.AuditPage,
      ),
    ),
  ],
  nav: [
    {
      section: 'setup',
      to: '/a/audit',
      label: 'Audit log',
      icon: IconHistory,
      permission: 'audit.read',
      flag: 'auditLog',
      description: 'Who did what, and when, including work done on behalf of others.',
    },
  ],
  dashboardWidgets: [
    {
      key: 'audit.recent',
      title: 'Recent changes',
      permission: 'audit.read',
      flag: 'auditLog',
      size: { w: 2, h: 6 },
      Component: lazy(() => import('./recent-changes-widget.tsx')),
    },
  ],
};
