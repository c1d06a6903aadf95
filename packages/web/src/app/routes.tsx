import type { RouteObject } from 'react-router';
import { FullPageLoader } from '../platform/full-page-loader.tsx';
import { screen } from '../platform/modules/routing.tsx';
import type { WebModule } from '../platform/modules/web-module.ts';
import { NotFoundPage } from '../platform/not-found.tsx';
import { RouteError } from '../platform/route-error.tsx';
import { GENERIC_SCREEN_ROUTES } from '../platform/screens/screens-module.ts';
import { WEB_MODULES } from './modules.ts';
import { HomeRedirect, RequireAuth } from './require-auth.tsx';
import { RootLayout } from './root-layout.tsx';

const backOffice = screen(
  () => import('./back-office-layout.tsx'),
  (m) => m.BackOfficeLayout,
);

/** The route tree: the shells and the generic screens' addresses, filled with the screens of the modules. */
export function buildRoutes(modules: readonly WebModule[]): RouteObject[] {
  const all = <K extends 'backOffice' | 'memberArea' | 'public' | 'prompts'>(key: K) =>
    modules.flatMap((m) => m[key] ?? []);
  const promptLayout = modules.find((m) => m.promptLayout)?.promptLayout;
  return [
    {
      path: '/',
      element: <RootLayout modules={modules} />,
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
          children: all('public'),
        },
        {
          element: <RequireAuth />,
          errorElement: <RouteError />,
          children: [
            ...(promptLayout
              ? [
                  {
                    path: 'prompts',
                    lazy: promptLayout,
                    errorElement: <RouteError />,
                    children: all('prompts'),
                  },
                ]
              : []),
            {
              path: 'a',
              lazy: backOffice,
              errorElement: <RouteError />,
              children: [...all('backOffice'), { path: '*', element: <NotFoundPage /> }],
            },
            ...GENERIC_SCREEN_ROUTES.map(({ path, children }) => ({
              path,
              lazy: backOffice,
              errorElement: <RouteError />,
              children,
            })),
            {
              path: 'm',
              lazy: screen(
                () => import('./member-layout.tsx'),
                (m) => m.MemberLayout,
              ),
              errorElement: <RouteError />,
              children: [...all('memberArea'), { path: '*', element: <NotFoundPage /> }],
            },
          ],
        },
        { path: '*', element: <NotFoundPage standalone /> },
      ],
    },
  ];
}

export const routes: RouteObject[] = buildRoutes(WEB_MODULES);
