import { useEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';
import { ModulesProvider } from '../platform/modules/modules-context.tsx';
import type { WebModule } from '../platform/modules/web-module.ts';
import { DialogHost } from '../platform/screens/dialogs.tsx';

/**
 * After a client-side navigation, move focus to the new screen's heading so that screen-reader and
 * keyboard users start at the top of the new content (the title was already updated by the screen).
 */
function useFocusOnNavigate() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const id = window.setTimeout(() => {
      if (document.querySelector('[role="dialog"]')) return;
      // The user already went somewhere to type (the header search): leave the focus there.
      if (document.activeElement?.matches('input, textarea, select, [contenteditable="true"]')) return;
      const heading = document.querySelector<HTMLElement>('main h1, h1');
      if (!heading) return;
      if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
      heading.focus({ preventScroll: true });
    }, 50);
    return () => window.clearTimeout(id);
  }, [pathname]);
}

/** The root of every screen: the modules for the shells and generic screens, the loading bar, the page. */
export function RootLayout({ modules }: { modules: readonly WebModule[] }) {
  const navigation = useNavigation();
  useFocusOnNavigate();
  return (
    <ModulesProvider modules={modules}>
      {navigation.state === 'loading' ? <div className="nav-progress" role="presentation" /> : null}
      <Outlet />
      {/* The generic dialogs (confirmations, the privacy policy, image and file dialogs) in every area. */}
      <DialogHost />
      <ScrollRestoration />
    </ModulesProvider>
  );
}
