import type { ResourceDeclaration } from '@guildhall/shared';

export const LIST_VARIANTS = [
  'ListView',
  'DeluxeListView',
  'DeluxeListViewWithCards',
  'DeluxeListViewWithCalendar',
  'InfiniteScroll',
] as const;
export type ListVariant = (typeof LIST_VARIANTS)[number];

/** Web-side presentation choices a resource may declare beside its data declaration. */
export interface ScreenOptions {
  /** The list's default variant; `?view=` overrides it. */
  listVariant?: ListVariant;
  /** Highlight changed fields in orange and ask before saving them. */
  confirmChangedFields?: boolean;
  /** Page size of the screen; the tenant's otherwise. */
  pageSize?: number;
}

/**
 * Read from the declaration itself when it carries `screen` options (so an entity needs no web edit), with the
 * sample entity's choices as the fallback here.
 */
const FALLBACK: Record<string, ScreenOptions> = {
  samples: { confirmChangedFields: true },
};

export function screenOptionsOf(r: ResourceDeclaration): ScreenOptions {
  const declared = (r as ResourceDeclaration & { screen?: ScreenOptions }).screen;
  return { ...FALLBACK[r.name], ...declared };
}

/** Screens whose failed save does not scroll to the error block (spec 000 section 2). */
export const NO_SCROLL_ON_ERROR = new Set(['CertificationRegistration']);
