import { GENERIC_SCREEN_STATES } from '@guildhall/shared';
import { useEffect, useSyncExternalStore } from 'react';
import { useMatches } from 'react-router';

/** What a route declares about its screen. */
export interface RouteHandle {
  /** Help state name of the screen (GET /api/help/{state name}), for example `Setup.Settings`. */
  stateName?: string;
  /** Human title of the screen, used by the help panel. */
  title?: string;
}

function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null;
}

/**
 * The screen a generic route shows, named by the screen itself once it knows its resource ("Contacts.List"): the
 * routes of the generic layer are shared by every resource, so their handles only say "a list", "a record".
 */
let published: Required<RouteHandle> | null = null;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
function publish(next: Required<RouteHandle> | null) {
  published = next;
  for (const l of listeners) l();
}

/** A generic screen names itself for the help panel while it is shown. */
export function usePublishScreenHandle(stateName: string, title: string): void {
  useEffect(() => {
    publish({ stateName, title });
    return () => {
      if (published?.stateName === stateName) publish(null);
    };
  }, [stateName, title]);
}

/** The handle of the deepest matched route that declares a help state name (a generic one, as its screen names it). */
export function useScreenHandle(): RouteHandle {
  const matches = useMatches();
  const named = useSyncExternalStore(subscribe, () => published);
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle;
    if (isRouteHandle(handle) && handle.stateName) {
      const kind = GENERIC_SCREEN_STATES[handle.stateName];
      if (kind && named?.stateName.endsWith(`.${kind}`)) return named;
      return handle;
    }
  }
  return {};
}
