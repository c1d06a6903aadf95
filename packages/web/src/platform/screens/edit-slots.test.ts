import { tenantSettingsResource, usersResource } from '@guildhall/shared';
import { describe, expect, it } from 'vitest';
import type { FieldInputProps } from '../fields/field-types.ts';
import { type EditSlotProps, editSlots } from './edit-slots.tsx';

const Control = (_: FieldInputProps) => null;
const Part = (_: EditSlotProps) => null;
const NotAControl = (_: { row: string }) => null;

describe('the slots of an embedded edit form', () => {
  it('key field controls by the fields the resource declares (a closed union the compiler checks)', () => {
    const slots = editSlots(tenantSettingsResource, {
      toolbar: Part,
      actions: Part,
      before: Part,
      after: Part,
      fields: { WebsitePrefix: Control, DefaultTimezone: Control },
    });
    expect(Object.keys(slots.fields ?? {})).toEqual(['WebsitePrefix', 'DefaultTimezone']);
    // @ts-expect-error: the settings resource declares no field `WebsitePrefx`
    editSlots(tenantSettingsResource, { fields: { WebsitePrefx: Control } });
    // @ts-expect-error: a field of another resource is not one of this one's
    editSlots(tenantSettingsResource, { fields: { LastSignInAt: Control } });
    expect(Object.keys(editSlots(usersResource, { fields: { LastSignInAt: Control } }).fields ?? {})).toEqual(
      ['LastSignInAt'],
    );
    // @ts-expect-error: content before the form is a component (given the form's state), not an element
    editSlots(tenantSettingsResource, { before: 'Logo' });
    // @ts-expect-error: a field's control takes the field input's props, not a record slot's
    editSlots(tenantSettingsResource, { fields: { Name: NotAControl } });
  });
});
