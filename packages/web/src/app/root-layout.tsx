import { Center, Loader } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigation } from 'react-router';

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

export function RootLayout() {
  const navigation = useNavigation();
  useFocusOnNavigate();
  return (
    <>
      {navigation.state === 'loading' ? <div className="nav-progress" role="presentation" /> : null}
      <Outlet />
      <ScrollRestoration />
    </>
  );
}

export function FullPageLoader({ label = 'Loading' }: { label?: string }) {
  return (
    <Center h="100dvh" role="status" aria-live="polite">
      <Loader aria-label={label} />
    </Center>
  );
}
