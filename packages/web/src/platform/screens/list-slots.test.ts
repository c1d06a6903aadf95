import { termsResource, usersResource } from '@guildhall/shared';
import { describe, expect, it } from 'vitest';
import { type ListCellSlotProps, listSlots } from './list-slots.tsx';

const Cell = (_: ListCellSlotProps) => null;

describe('the slots of an embedded list', () => {
  it('key cell renderers by the fields the resource declares (a closed union the compiler checks)', () => {
    const slots = listSlots(usersResource, {
      cells: { IsActive: Cell },
      recordPath: (id) => `/a/users/${id}`,
    });
    expect(Object.keys(slots.cells ?? {})).toEqual(['IsActive']);
    expect(slots.recordPath?.('7')).toBe('/a/users/7');
    // @ts-expect-error: the users resource declares no field `Activ`
    listSlots(usersResource, { cells: { Activ: Cell } });
    // @ts-expect-error: a field of another resource is not one of this one's
    listSlots(usersResource, { cells: { PublishedAt: Cell } });
    expect(Object.keys(listSlots(termsResource, { cells: { PublishedAt: Cell } }).cells ?? {})).toEqual([
      'PublishedAt',
    ]);
  });
});
