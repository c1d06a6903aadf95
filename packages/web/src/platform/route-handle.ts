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

/** The handle of the deepest matched route that declares a help state name. */
export function useScreenHandle(): RouteHandle {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i]?.handle;
    if (isRouteHandle(handle) && handle.stateName) return handle;
  }
  return {};
}
