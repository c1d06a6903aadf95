import { describe, expect, it } from 'vitest';
import {
  ACTIONS_FIELD,
  type ColumnView,
  cellStyle,
  isActionsColumn,
  plainListPrefix,
  recordLabel,
  withActionsColumn,
} from './list-columns.ts';

const column = (field: string, actions: ColumnView['actions'] = []): ColumnView => ({
  field,
  title: field,
  visible: true,
  mode: 0,
  sortable: false,
  fieldType: undefined,
  rendererKey: undefined,
  width: undefined,
  fixed: actions.length > 0,
  actions,
});

describe('the actions column of a list', () => {
  it('is added for slot actions when the resource declares no row actions', () => {
    const columns = [column('Name')];
    expect(withActionsColumn(columns, false)).toBe(columns);
    const added = withActionsColumn(columns, true);
    expect(added.map((c) => c.field)).toEqual(['Name', ACTIONS_FIELD]);
    expect(added.filter(isActionsColumn).map((c) => c.fixed)).toEqual([true]);
  });

  it('is the declared one when there is one', () => {
    const declared = column('$actions_declared', [{ key: 'view', title: 'View', kind: 'edit' }]);
    const columns = [column('Name'), declared];
    expect(withActionsColumn(columns, true)).toBe(columns);
    expect(isActionsColumn(declared)).toBe(true);
    expect(isActionsColumn(columns[0] as ColumnView)).toBe(false);
  });
});

describe("a cell's width by its column's mode", () => {
  it('cuts at 200 px and wraps from 160 to 320 px without a declared width', () => {
    expect(cellStyle({ mode: 0, width: undefined })).toMatchObject({
      maxWidth: 200,
      textOverflow: 'ellipsis',
    });
    expect(cellStyle({ mode: 1, width: undefined })).toMatchObject({ minWidth: 160, maxWidth: 320 });
  });

  it('cuts or wraps at the declared width exactly, and leaves a whole column as wide as its text', () => {
    expect(cellStyle({ mode: 0, width: 160 })).toMatchObject({ maxWidth: 160, textOverflow: 'ellipsis' });
    expect(cellStyle({ mode: 1, width: 120 })).toMatchObject({ minWidth: 120, maxWidth: 120 });
    expect(cellStyle({ mode: 2, width: 120 })).toEqual({ whiteSpace: 'nowrap' });
  });
});

describe("a record's label in a list line", () => {
  const attendees = {
    key: 'AttendeeId',
    fields: {
      AttendeeId: { type: 'number', label: 'Id' },
      AttendeeName: { type: 'text', label: 'Name' },
      ContactId: { type: 'lookup', label: 'Contact' },
    },
    columns: [{ field: 'AttendeeName', title: 'Name', rendererInfo: { Key: 'link' } }],
  } as unknown as Parameters<typeof recordLabel>[0];

  it('is the text of the column linked to the record when the row has no naming field', () => {
    expect(recordLabel(attendees, { AttendeeId: 7, AttendeeName: 'Betty Wright' })).toBe('Betty Wright');
  });

  it('is the naming field first, and the key when nothing names the row', () => {
    expect(recordLabel(attendees, { AttendeeId: 7, AttendeeName: 'Betty Wright', Name: 'Guest' })).toBe(
      'Guest',
    );
    expect(recordLabel(attendees, { AttendeeId: 7, AttendeeName: '  ' })).toBe('7');
  });

  it("is a linked moment read in the reader's zone (an occurrence by its start)", () => {
    const occurrences = {
      key: 'EventDetailId',
      fields: {
        EventDetailId: { type: 'number', label: 'Id' },
        StartsAt: { type: 'datetime', label: 'Starts' },
      },
      columns: [{ field: 'StartsAt', title: 'Starts', rendererInfo: { Key: 'link' } }],
    } as unknown as Parameters<typeof recordLabel>[0];
    const row = { EventDetailId: 4, StartsAt: '2027-02-10T14:30:00.000Z' };
    expect(recordLabel(occurrences, row, 'America/Chicago')).toBe('02/10/2027 8:30 AM CST');
    expect(recordLabel(occurrences, row, 'Asia/Tokyo')).toMatch(/^02\/10\/2027 11:30 PM /);
    expect(recordLabel(occurrences, { EventDetailId: 4, StartsAt: 'soon' })).toBe('4');
  });

  it('takes no name from a linked column that is not text', () => {
    const payments = {
      ...attendees,
      columns: [{ field: 'ContactId', title: 'Contact', rendererInfo: { Key: 'link' } }],
    } as Parameters<typeof recordLabel>[0];
    expect(recordLabel(payments, { AttendeeId: 9, ContactId: 412 })).toBe('9');
  });
});

describe("a value's words in a plain list's line", () => {
  const types = {
    fields: {
      Name: { type: 'text', label: 'Name' },
      MemberPrice: { type: 'currency', label: 'Member price' },
      Capacity: { type: 'number', label: 'Seats' },
      EarlyBirdUntil: { type: 'date', label: 'Early-bird until' },
      MembersOnly: { type: 'boolean', label: 'Members only' },
      Status: { type: 'select', label: 'Status' },
      ContactId: { type: 'lookup', label: 'Contact' },
    },
  } as unknown as Parameters<typeof plainListPrefix>[0];

  it('writes the title before an amount, a number, a date and a yes or no', () => {
    expect(plainListPrefix(types, { field: 'MemberPrice', title: 'Member' })).toBe('Member ');
    expect(plainListPrefix(types, { field: 'Capacity', title: 'Seats' })).toBe('Seats ');
    expect(plainListPrefix(types, { field: 'EarlyBirdUntil', title: 'Early-bird until' })).toBe(
      'Early-bird until ',
    );
    expect(plainListPrefix(types, { field: 'MembersOnly', title: 'Members only' })).toBe('Members only: ');
  });

  it('writes nothing before a value that names itself, or a column without a title or a field', () => {
    expect(plainListPrefix(types, { field: 'Name', title: 'Type' })).toBe('');
    expect(plainListPrefix(types, { field: 'Status', title: 'Status' })).toBe('');
    expect(plainListPrefix(types, { field: 'ContactId', title: 'Contact' })).toBe('');
    expect(plainListPrefix(types, { field: 'Capacity', title: ' ' })).toBe('');
    expect(plainListPrefix(types, { field: 'Computed', title: 'Total' })).toBe('');
  });
});
