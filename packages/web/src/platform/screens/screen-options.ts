import type { ListVariant, ResourceDeclaration, ScreenDeclaration } from '@guildhall/shared';

export { LIST_VARIANTS, type ListVariant } from '@guildhall/shared';

/**
 * How a resource's screens present it: read from the declaration's own `screen` property (decision 0051), so an
 * entity needs no web edit.
 */
export type ScreenOptions = ScreenDeclaration;

export function screenOptionsOf(r: ResourceDeclaration): ScreenOptions {
  return r.screen ?? {};
}

/** The list variant a screen opens with: the address's `?view=`, the declaration's, else cards on a phone. */
export function defaultListVariant(options: ScreenOptions, phone: boolean): ListVariant {
  return options.listVariant ?? (phone ? 'DeluxeListViewWithCards' : 'DeluxeListView');
}

/** Screens whose failed save does not scroll to the error block (spec 000 section 2). */
export const NO_SCROLL_ON_ERROR = new Set(['CertificationRegistration']);
