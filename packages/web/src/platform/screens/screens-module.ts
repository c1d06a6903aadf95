import { IconBook, IconChartBar, IconLayoutDashboard, IconLayoutList } from '@tabler/icons-react';
import type { RouteObject } from 'react-router';
import { page, screen } from '../modules/routing.tsx';
import type { WebModule } from '../modules/web-module.ts';

const listScreen = () => import('./list-screen.tsx');
const editScreen = () => import('./edit-screen.tsx');
const reports = () => import('./reports/reports-screens.tsx');
const builder = () => import('./reports/report-builder.tsx');
const menuPage = () => import('./menu-page.tsx');

/** The generic screens' own pages in the back office: the dashboard and the reports. */
export const screensModule: WebModule = {
  name: 'screens',
  backOffice: [
    page(
      'reports',
      { stateName: 'Reports.Catalogue', title: 'Reports' },
      screen(reports, (m) => m.ReportCatalogue),
    ),
    page(
      'reports/new',
      { stateName: 'Reports.Builder', title: 'New report' },
      screen(builder, (m) => m.ReportBuilderRoute),
    ),
    page(
      'reports/:reportId',
      { stateName: 'Reports.View', title: 'Report' },
      screen(reports, (m) => m.ReportScreen),
    ),
    page(
      'reports/:reportId/edit',
      { stateName: 'Reports.Builder', title: 'Edit report' },
      screen(builder, (m) => m.ReportBuilderRoute),
    ),
    page(
      'dashboard',
      { stateName: 'Dashboard', title: 'Dashboard' },
      screen(
        () => import('./dashboard/dashboard.tsx'),
        (m) => m.DashboardPage,
      ),
    ),
  ],
  nav: [
    {
      section: 'top',
      to: '/a/dashboard',
      label: 'Dashboard',
      icon: IconLayoutDashboard,
      permission: 'backoffice',
      description: 'The dashboard on a page of its own.',
      order: 10,
    },
    {
      section: 'top',
      to: '/a/reports',
      label: 'Reports',
      icon: IconChartBar,
      permission: 'backoffice',
      description:
        'Run reports, build your own with grouping, totals and charts, and pin them to the dashboard.',
      order: 20,
    },
    {
      section: 'setup',
      to: '/micronet/list/setup/helpTexts',
      label: 'Help texts',
      icon: IconBook,
      permission: 'backoffice',
      description: 'The help panel text of each screen.',
      order: 90,
    },
    {
      section: 'setup',
      to: '/micronet/menu/setup',
      label: 'Setup menu',
      icon: IconLayoutList,
      permission: 'backoffice',
      description: 'Every setup list in one place, with a menu on the left.',
      order: 91,
    },
  ],
};

/**
 * The generic screen layer's own addresses, each a child list of a back-office layout route: the list and
 * record screens of every resource, MenuPageWithChildView and ExternalUrl.
 */
export const GENERIC_SCREEN_ROUTES: { path: string; children: RouteObject[] }[] = [
  {
    path: 'micronet/list/:feature/:subfeature',
    children: [
      page(
        undefined,
        { stateName: 'Screens.List', title: 'List' },
        screen(listScreen, (m) => m.ListScreenRoute),
      ),
      page(
        'new',
        { stateName: 'Screens.New', title: 'New record' },
        screen(editScreen, (m) => m.NewRecordRoute),
      ),
      page(
        ':id',
        { stateName: 'Screens.Record', title: 'Record' },
        screen(editScreen, (m) => m.EditScreenRoute),
      ),
      page(
        ':id/preview',
        { stateName: 'Screens.Preview', title: 'Preview' },
        screen(
          () => import('./preview-box.tsx'),
          (m) => m.PreviewBoxRoute,
        ),
      ),
    ],
  },
  {
    path: 'micronet/menu/:menu',
    children: [
      page(
        undefined,
        { stateName: 'Screens.Menu', title: 'Menu' },
        screen(menuPage, (m) => m.MenuPageRoute),
      ),
      page(
        ':child',
        { stateName: 'Screens.Menu', title: 'Menu' },
        screen(menuPage, (m) => m.MenuPageRoute),
      ),
    ],
  },
  {
    path: 'micronet/external/:feature/:subfeature',
    children: [
      page(
        ':key',
        { stateName: 'Screens.External', title: 'External page' },
        screen(
          () => import('./external-page.tsx'),
          (m) => m.ExternalUrlRoute,
        ),
      ),
    ],
  },
];
