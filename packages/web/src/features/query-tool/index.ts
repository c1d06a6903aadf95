import { IconDatabaseSearch } from '@tabler/icons-react';
import { page, screen } from '../../platform/modules/routing.tsx';
import type { WebModule } from '../../platform/modules/web-module.ts';

/** The developer query tool (spec 001 section 2): the page at /a/dev/QuerytoolDownload, in the Setup section. */
export const queryToolModule: WebModule = {
  name: 'query-tool',
  backOffice: [
    page(
      'dev/QuerytoolDownload',
      { stateName: 'Dev.QueryTool', title: 'Query tool' },
      screen(
        () => import('./query-tool-page.tsx'),
        (m) => m.QueryToolPage,
      ),
    ),
  ],
  nav: [
    {
      section: 'setup',
      to: '/a/dev/QuerytoolDownload',
      label: 'Query tool',
      icon: IconDatabaseSearch,
      permission: 'querytool.run',
      description: 'Run named queries over your records and download the results as CSV.',
    },
  ],
};
