import { termsResource, usersResource } from '@guildhall/shared';
import { describe, expect, it } from 'vitest';
import { claimedRecordSlots } from '../modules/modules-context.tsx';
import {
  actionTitle,
  claimRecordSlots,
  type RecordAction,
  type RecordFieldSlotProps,
  recordSlots,
  visibleActions,
} from './record-slots.tsx';

const Field = (_: RecordFieldSlotProps) => null;
const NoDialog = () => null;

describe('the slots of an embedded record', () => {
  it('key field renderers by the fields the resource declares (a closed union the compiler checks)', () => {
    const slots = recordSlots(usersResource, {
      fields: { IsActive: Field, LastSignInAt: Field },
      listPath: '/a/users',
    });
    expect(Object.keys(slots.fields ?? {})).toEqual(['IsActive', 'LastSignInAt']);
    // @ts-expect-error: the users resource declares no field `Activ`
    recordSlots(usersResource, { fields: { Activ: Field } });
    // @ts-expect-error: a field of another resource is not one of this one's
    recordSlots(usersResource, { fields: { PublishedAt: Field } });
    expect(Object.keys(recordSlots(termsResource, { fields: { PublishedAt: Field } }).fields ?? {})).toEqual([
      'PublishedAt',
    ]);
    // @ts-expect-error: a tab's panel is a component, not an element
    recordSlots(usersResource, { tabs: [{ key: 'x', title: 'X', Panel: 'text' }] });
    // @ts-expect-error: an action needs its key
    recordSlots(usersResource, { recordActions: [{ title: 'Deactivate' }] });
  });

  it('titles and offers record actions by the record', () => {
    const toggle: RecordAction = {
      key: 'active',
      title: (row) => (row.IsActive ? 'Deactivate' : 'Reactivate'),
      visible: (row) => row.UserId !== 1,
      run: () => {},
    };
    const flags: RecordAction = { key: 'flags', title: 'Feature flags', Dialog: NoDialog };
    expect(actionTitle(toggle, { IsActive: true })).toBe('Deactivate');
    expect(actionTitle(toggle, { IsActive: false })).toBe('Reactivate');
    expect(visibleActions([toggle, flags], { UserId: 2 }).map((a) => a.key)).toEqual(['active', 'flags']);
    expect(visibleActions([toggle, flags], { UserId: 1 }).map((a) => a.key)).toEqual(['flags']);
    expect(visibleActions(undefined, { UserId: 1 })).toEqual([]);
  });

  it('are claimed by one module for a resource, typed by its field names', async () => {
    const claim = claimRecordSlots(
      usersResource,
      async () => () => recordSlots(usersResource, { fields: { IsActive: Field } }),
    );
    expect(claim.resource).toBe('users');
    // @ts-expect-error: the users resource declares no field `PublishedAt`
    claimRecordSlots(usersResource, async () => () => ({ fields: { PublishedAt: Field } }));
    const users = { name: 'users', recordSlots: [claim] };
    expect(claimedRecordSlots([{ name: 'terms' }, users], 'users')).toBe(claim);
    expect(claimedRecordSlots([users], 'terms')).toBeNull();
    expect(() => claimedRecordSlots([users, { name: 'other', recordSlots: [claim] }], 'users')).toThrow(
      'The record slots of users are claimed by users and other: one module claims a resource',
    );
    const factory = await claim.load();
    expect(Object.keys(factory({} as never).fields ?? {})).toEqual(['IsActive']);
  });
});
