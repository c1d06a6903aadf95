import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject, RouterProvider } from 'react-router';
import { NotFoundPage } from '../platform/not-found.tsx';
import { ChunkLoadError, RouteError } from '../platform/route-error.tsx';
import type { RouteHandle } from '../platform/route-handle.ts';
import { HomeRedirect, RequireAuth } from './require-auth.tsx';
import { FullPageLoader, RootLayout } from './root-layout.tsx';

/**
 * Route-level code splitting: each screen is its own chunk, loaded when first visited. A chunk that no
 * longer loads (a deployment replaced it, the network dropped) shows the error block with a reload
 * button in place of the screen, never a blank page.
 */
function screen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): RouteObject['lazy'] {
  return async () => {
    try {
      return { Component: pick(await load()) };
    } catch (error) {
      console.error('A screen could not be loaded', error);
      return { Component: ChunkLoadError };
    }
  };
}

function page(
  path: string | undefined,
  handle: RouteHandle,
  lazy: RouteObject['lazy'],
  extra: Partial<RouteObject> = {},
): RouteObject {
  const base = { handle, lazy, errorElement: <RouteError />, ...extra };
  return path === undefined ? ({ index: true, ...base } as RouteObject) : ({ path, ...base } as RouteObject);
}

const auth = () => import('../features/auth/auth-screens.ts');
const listScreen = () => import('../platform/screens/list-screen.tsx');
const editScreen = () => import('../platform/screens/edit-screen.tsx');
const reports = () => import('../platform/screens/reports/reports-screens.tsx');
const menuPage = () => import('../platform/screens/menu-page.tsx');
const directory = () => import('../features/directory/directory-screens.tsx');
const backOffice = screen(
  () => import('./back-office-layout.tsx'),
  (m) => m.BackOfficeLayout,
);

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <FullPageLoader />,
    children: [
      { index: true, element: <HomeRedirect /> },
      {
        lazy: screen(
          () => import('./public-layout.tsx'),
          (m) => m.PublicLayout,
        ),
        errorElement: <RouteError />,
        children: [
          page(
            'sign-in',
            { title: 'Sign in' },
            screen(auth, (m) => m.SignInPage),
          ),
          page(
            'forgot-password',
            { title: 'Forgot your password?' },
            screen(auth, (m) => m.ForgotPasswordPage),
          ),
          page(
            'reset-password',
            { title: 'Choose a new password' },
            screen(auth, (m) => m.ResetPasswordPage),
          ),
        ],
      },
      {
        element: <RequireAuth />,
        errorElement: <RouteError />,
        children: [
          {
            path: 'prompts',
            lazy: screen(auth, (m) => m.PromptLayout),
            errorElement: <RouteError />,
            children: [
              page(
                'security-question',
                { title: 'Set a security question' },
                screen(auth, (m) => m.SecurityQuestionPrompt),
              ),
              page(
                'change-password',
                { title: 'Choose a new password' },
                screen(auth, (m) => m.ChangePasswordPrompt),
              ),
              page(
                'change-username',
                { title: 'Choose a new username' },
                screen(auth, (m) => m.ChangeUsernamePrompt),
              ),
            ],
          },
          {
            path: 'a',
            lazy: screen(
              () => import('./back-office-layout.tsx'),
              (m) => m.BackOfficeLayout,
            ),
            errorElement: <RouteError />,
            children: [
              page(
                undefined,
                { stateName: 'Home', title: 'Home' },
                screen(
                  () => import('../features/home/back-office-home.tsx'),
                  (m) => m.BackOfficeHome,
                ),
              ),
              page(
                'users',
                { stateName: 'Users.List', title: 'Users' },
                screen(
                  () => import('../features/users/users-page.tsx'),
                  (m) => m.UsersPage,
                ),
              ),
              page(
                'users/:id',
                { stateName: 'Users.Detail', title: 'User' },
                screen(
                  () => import('../features/users/user-page.tsx'),
                  (m) => m.UserPage,
                ),
              ),
              page(
                'contacts/import',
                { stateName: 'Contacts.Import', title: 'Import contacts' },
                screen(
                  () => import('../features/contacts/contacts-import.tsx'),
                  (m) => m.ContactsImportPage,
                ),
              ),
              page(
                'files',
                { stateName: 'Files.Library', title: 'Files' },
                screen(
                  () => import('../features/files/files-page.tsx'),
                  (m) => m.FilesPage,
                ),
              ),
              page(
                'settings',
                { stateName: 'Setup.Settings', title: 'Settings' },
                screen(
                  () => import('../features/settings/settings-page.tsx'),
                  (m) => m.SettingsPage,
                ),
              ),
              page(
                'setup/terms',
                { stateName: 'Setup.TermsOfUse', title: 'Terms of use' },
                screen(
                  () => import('../features/terms/terms-page.tsx'),
                  (m) => m.TermsPage,
                ),
              ),
              page(
                'status',
                { stateName: 'Setup.Status', title: 'Status messages' },
                screen(
                  () => import('../features/status/status-page.tsx'),
                  (m) => m.StatusPage,
                ),
              ),
              page(
                'outbox',
                { stateName: 'Mail.Outbox', title: 'Mail outbox' },
                screen(
                  () => import('../features/mail/outbox-page.tsx'),
                  (m) => m.OutboxPage,
                ),
              ),
              page(
                'outbox/:id',
                { stateName: 'Mail.Message', title: 'Message' },
                screen(
                  () => import('../features/mail/message-page.tsx'),
                  (m) => m.MessagePage,
                ),
              ),
              page(
                'audit',
                { stateName: 'Audit.Log', title: 'Audit log' },
                screen(
                  () => import('../features/audit/audit-page.tsx'),
                  (m) => m.AuditPage,
                ),
              ),
              page(
                'account/password',
                { stateName: 'Account.ChangePassword', title: 'Change password' },
                screen(auth, (m) => m.ChangePasswordPage),
              ),
              page(
                'reports',
                { stateName: 'Reports.Catalogue', title: 'Reports' },
                screen(reports, (m) => m.ReportCatalogue),
              ),
              page(
                'reports/:reportId',
                { stateName: 'Reports.View', title: 'Report' },
                screen(reports, (m) => m.ReportScreen),
              ),
              page(
                'dashboard',
                { stateName: 'Dashboard', title: 'Dashboard' },
                screen(
                  () => import('../platform/screens/dashboard/dashboard.tsx'),
                  (m) => m.DashboardPage,
                ),
              ),
              { path: '*', element: <NotFoundPage /> },
            ],
          },
          {
            // The generic screen layer: list and record screens of every resource, in the back-office shell.
            path: 'micronet/list/:feature/:subfeature',
            lazy: screen(
              () => import('./back-office-layout.tsx'),
              (m) => m.BackOfficeLayout,
            ),
            errorElement: <RouteError />,
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
                  () => import('../platform/screens/preview-box.tsx'),
                  (m) => m.PreviewBoxRoute,
                ),
              ),
            ],
          },
          {
            // MenuPageWithChildView: a menu of the lists (and external pages) resources place in it.
            path: 'micronet/menu/:menu',
            lazy: backOffice,
            errorElement: <RouteError />,
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
            // ExternalUrl: a page outside the product a resource declares, opened safely.
            path: 'micronet/external/:feature/:subfeature',
            lazy: backOffice,
            errorElement: <RouteError />,
            children: [
              page(
                ':key',
                { stateName: 'Screens.External', title: 'External page' },
                screen(
                  () => import('../platform/screens/external-page.tsx'),
                  (m) => m.ExternalUrlRoute,
                ),
              ),
            ],
          },
          {
            path: 'm',
            lazy: screen(
              () => import('./member-layout.tsx'),
              (m) => m.MemberLayout,
            ),
            errorElement: <RouteError />,
            children: [
              page(
                undefined,
                { stateName: 'Member.Home', title: 'Home' },
                screen(
                  () => import('../features/home/member-home.tsx'),
                  (m) => m.MemberHome,
                ),
              ),
              page(
                'directory',
                { stateName: 'Directory.List', title: 'Member directory' },
                screen(directory, (m) => m.DirectoryList),
              ),
              page(
                'directory/:DirectoryContactId',
                { stateName: 'DirectoryContactDetail.General', title: 'Directory contact' },
                screen(directory, (m) => m.DirectoryContactDetail),
              ),
              page(
                'profile',
                { stateName: 'Member.Profile', title: 'Your profile' },
                screen(
                  () => import('../features/home/member-profile.tsx'),
                  (m) => m.MemberProfile,
                ),
              ),
              page(
                'account/password',
                { stateName: 'Account.ChangePassword', title: 'Change password' },
                screen(auth, (m) => m.ChangePasswordPage),
              ),
              { path: '*', element: <NotFoundPage /> },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage standalone /> },
    ],
  },
];

const router = createBrowserRouter(routes);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
