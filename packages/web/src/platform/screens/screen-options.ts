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
 * The record's Details tab: its form sections without what the header card above already shows (decision 0188),
 * and without a section left empty by that. A field is shown when the header has it or a field of the same label
 * (an invoice's header shows `ContactName`, "Bill to", and its form `ContactId`, "Bill to": the same contact).
 * Every declared form field is thus in one of the two, once.
 */
export function detailSections(resource: ResourceDeclaration): { title: string; fields: string[] }[] {
  const header = previewFields(resource).flatMap((f) => {
    const field = resource.fields[f];
    return field ? [f, field.label] : [];
  });
  const shown = new Set(header);
  return resource.form
    .map((section) => ({
      title: section.title,
      fields: section.fields.filter((f) => {
        const field = resource.fields[f];
        return field !== undefined && !shown.has(f) && !shown.has(field.label);
      }),
    }))
    .filter((section) => section.fields.length > 0);
}

/** The list variant a screen opens with: the address's `?view=`, the declaration's, else cards on a phone. */
export function defaultListVariant(options: ScreenOptions, phone: boolean): ListVariant {
  return options.listVariant ?? (phone ? 'DeluxeListViewWithCards' : 'DeluxeListView');
}

/** Screens whose failed save does not scroll to the error block (spec 000 section 2). */
export const NO_SCROLL_ON_ERROR = new Set(['CertificationRegistration']);
