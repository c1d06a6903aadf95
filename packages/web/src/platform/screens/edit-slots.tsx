import type { Model, ResourceDeclaration } from '@guildhall/shared';
import type { ComponentType } from 'react';
import type { FieldInputProps } from '../fields/field-types.ts';

/** What an edit form's slot component (toolbar, actions, before, after) is given. */
export interface EditSlotProps {
  /** The form's values as they are now (the user's unsaved changes included). */
  model: Model;
  /** The values as loaded (null for a new record). */
  original: Model | null;
  /** A new record, not yet saved. */
  creating: boolean;
  /** The form holds changes not saved yet. */
  dirty: boolean;
  /** Whether the signed-in user may save the record. */
  canWrite: boolean;
  /** Sets a field of the form, as if the user had typed it. */
  setField: (name: string, value: unknown) => void;
}

/**
 * The typed slots a feature fills when it embeds the generic edit form (`<EditScreen resource recordId slots>`)
 * instead of writing its own form. `F` is the resource's field names, so a control for a field the resource does not
 * declare is a compile error (as for the record's and the list's slots, decisions 0183 and 0186).
 */
export interface EditSlots<F extends string = string> {
  /** The heading's text under the record's name. */
  description?: string;
  /** Buttons in the header, before the previous / next record navigator. */
  toolbar?: ComponentType<EditSlotProps>;
  /** Buttons beside Save and Cancel under the form. */
  actions?: ComponentType<EditSlotProps>;
  /** Content between the header and the form (the association's logo above its settings). */
  before?: ComponentType<EditSlotProps>;
  /** Content after the form's buttons. */
  after?: ComponentType<EditSlotProps>;
  /**
   * A field's control drawn by the feature instead of the field type's input, by field name. It is given what the
   * registry's input is given (value, onChange, error, changed, the field's declaration) and keeps the field's place
   * in its section; the form's rules and save stay the generic ones.
   */
  fields?: { [K in F]?: ComponentType<FieldInputProps> };
}

/** Ties an edit form's slots to its resource's field names: `editSlots(tenantSettingsResource, { … })`. */
export function editSlots<F extends string>(
  _resource: ResourceDeclaration<F>,
  slots: EditSlots<F>,
): EditSlots<F> {
  return slots;
}
