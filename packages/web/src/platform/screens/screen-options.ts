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

/** The fields a PreviewBox (and a record's header card) shows: the declared `screen.preview`, else the list's columns. */
export function previewFields(resource: ResourceDeclaration): string[] {
  return [...(screenOptionsOf(resource).preview ?? resource.columns.map((c) => c.field))];
}

/**
 * The record's Details tab: its form sections without the fields the header card above already shows (decision
 * 0188), and without a section left empty by that. Every declared form field is in one of the two, once.
 */
export function detailSections(resource: ResourceDeclaration): { title: string; fields: string[] }[] {
  const inHeader = new Set(previewFields(resource));
  return resource.form
    .map((section) => ({
      title: section.title,
      fields: section.fields.filter((f) => !inHeader.has(f) && f in resource.fields),
    }))
    .filter((section) => section.fields.length > 0);
}

/** The list variant a screen opens with: the address's `?view=`, the declaration's, else cards on a phone. */
export function defaultListVariant(options: ScreenOptions, phone: boolean): ListVariant {
  return options.listVariant ?? (phone ? 'DeluxeListViewWithCards' : 'DeluxeListView');
}

/** Screens whose failed save does not scroll to the error block (spec 000 section 2). */
export const NO_SCROLL_ON_ERROR = new Set(['CertificationRegistration']);
