import { describe, expect, it } from 'vitest';
import {
  ACTIONS_FIELD,
  type ColumnView,
  cellStyle,
  isActionsColumn,
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

  it('takes no name from a linked column that is not text', () => {
    const payments = {
      ...attendees,
      columns: [{ field: 'ContactId', title: 'Contact', rendererInfo: { Key: 'link' } }],
    } as Parameters<typeof recordLabel>[0];
    expect(recordLabel(payments, { AttendeeId: 9, ContactId: 412 })).toBe('9');
  });
});
