import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { ChunkLoadError, RouteError } from '../route-error.tsx';
import type { RouteHandle } from '../route-handle.ts';

/**
 * Route-level code splitting: each screen is its own chunk, loaded when first visited. A chunk that no
 * longer loads (a deployment replaced it, the network dropped) shows the error block with a reload
 * button in place of the screen, never a blank page.
 */
export function screen<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): RouteObject['lazy'] {
  return async () => {
    try {
      return { Component: pick(await load()) };
    } catch (error) {
      console.error('A screen could not be loaded', error);
      return { Component: ChunkLoadError };
    }
  };
}

/** One screen's route: its path (none for the index), its help handle and its lazily loaded component. */
export function page(
  path: string | undefined,
  handle: RouteHandle,
  lazy: RouteObject['lazy'],
  extra: Partial<RouteObject> = {},
): RouteObject {
  const base = { handle, lazy, errorElement: <RouteError />, ...extra };
  return path === undefined ? ({ index: true, ...base } as RouteObject) : ({ path, ...base } as RouteObject);
}
