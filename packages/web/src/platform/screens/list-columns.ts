import {
  type ColumnRendererKey,
  canModifyColumn,
  DEFAULT_TIMEZONE,
  type FieldType,
  type ListColumn,
  type Model,
  momentName,
  type ResourceDeclaration,
  type RowAction,
  type ShowCondition,
  type TableSettings,
} from '@guildhall/shared';
import type { TextMode } from '../text-mode.tsx';

/** How long a column's text shows: 0 cut, 1 wrap, 2 whole (decision 0186); its renderers' pills honour it too. */
export type ColumnMode = TextMode;

/** A list column as the screen shows it: the server's definition merged with the user's saved settings. */
export interface ColumnView {
  field: string;
  title: string;
  visible: boolean;
  mode: ColumnMode;
  sortable: boolean;
  fieldType: string | undefined;
  rendererKey: ColumnRendererKey | undefined;
  width: number | undefined;
  /** Selector and action columns: always shown, never moved. */
  fixed: boolean;
  actions: RowAction[];
}

export const SELECTOR_FIELD = '$selector';
/** The actions column the list adds for an embedding feature's record actions when the resource declares none. */
export const ACTIONS_FIELD = '$actions';

/** The column that holds the row actions (declared ones, or the one added for slot actions). */
export function isActionsColumn(c: Pick<ColumnView, 'field' | 'actions'>): boolean {
  return c.actions.length > 0 || c.field === ACTIONS_FIELD;
}

/** The columns with an actions column at the end when a feature adds record actions and none is declared. */
export function withActionsColumn(columns: ColumnView[], hasSlotActions: boolean): ColumnView[] {
  if (!hasSlotActions || columns.some(isActionsColumn)) return columns;
  return [
    ...columns,
    {
      field: ACTIONS_FIELD,
      title: 'Actions',
      visible: true,
      mode: 0,
      sortable: false,
      fieldType: undefined,
      rendererKey: undefined,
      width: undefined,
      fixed: true,
      actions: [],
    },
  ];
}

export function mergeColumns(items: readonly ListColumn[], saved: TableSettings | null): ColumnView[] {
  const byName = new Map(saved?.Columns.map((c) => [c.Name, c]) ?? []);
  const views = items.map((c, index) => {
    const s = byName.get(c.field);
    const fixed = !canModifyColumn(c);
    return {
      view: {
        field: c.field,
        title: c.title,
        visible: fixed ? true : (s?.Visible ?? c.show),
        mode: (s?.Mode ?? c.mode ?? 0) as ColumnMode,
        sortable: c.sortable,
        fieldType: c.fieldType,
        rendererKey: c.rendererInfo?.Key,
        width: c.width,
        fixed,
        actions: c.actions ?? [],
      },
      order: fixed ? Number.MAX_SAFE_INTEGER : (s?.Order ?? index),
      index,
    };
  });
  views.sort((a, b) => a.order - b.order || a.index - b.index);
  return views.map((v) => v.view);
}

/** The settings to save for the columns the user can change, in their order. */
export function columnSettings(columns: readonly ColumnView[]): TableSettings['Columns'] {
  return columns
    .filter((c) => !c.fixed)
    .map((c, Order) => ({ Name: c.field, Visible: c.visible, Mode: c.mode, Order }));
}

export function meetsCondition(row: Record<string, unknown>, condition: ShowCondition | undefined): boolean {
  if (!condition) return true;
  const value = row[condition.field];
  if ('equals' in condition && condition.equals !== undefined) return value === condition.equals;
  if ('notEquals' in condition && condition.notEquals !== undefined) return value !== condition.notEquals;
  return true;
}

const MODE_STYLE: Record<ColumnMode, React.CSSProperties> = {
  0: { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', maxWidth: 200 },
  // Wrap breaks between words (a word longer than the column still breaks), so the column keeps a readable width.
  1: { whiteSpace: 'normal', overflowWrap: 'break-word', minWidth: 160, maxWidth: 320 },
  2: { whiteSpace: 'nowrap' },
};

/**
 * A cell's style by its column's mode and declared width: a cut or wrapped column with a width (`width` of the
 * column's declaration) cuts or wraps at that width exactly (a start wraps its time under its date at 120 px),
 * without one at the mode's own bounds; a whole column is as wide as its text.
 */
export function cellStyle(c: Pick<ColumnView, 'mode' | 'width'>): React.CSSProperties {
  if (c.width === undefined || c.mode === 2) return MODE_STYLE[c.mode];
  return { ...MODE_STYLE[c.mode], minWidth: c.mode === 1 ? c.width : undefined, maxWidth: c.width };
}

/** "A per-user UI version (1 versus newer) changes how list selection is read": rows for 1, keys after. */
export function readSelection<Row extends Record<string, unknown>>(
  uiVersion: number,
  rows: readonly Row[],
  selectedKeys: ReadonlySet<string>,
  key: string,
): Row[] | string[] {
  if (uiVersion <= 1) return rows.filter((r) => selectedKeys.has(String(r[key])));
  return [...selectedKeys];
}

export type RowCommand = (action: RowAction, row: Model) => void | Promise<void>;

/**
 * A record's name in a list line, an action's label or a calendar entry: its naming field (Name, Title, DisplayName,
 * Number), else the value of the column the resource links to its record when it is text (an attendee's name) or a
 * moment (an occurrence's start, read in `timeZone`), else its key. A linked lookup's id names nothing by itself.
 */
export function recordLabel(
  resource: Pick<ResourceDeclaration, 'key' | 'fields' | 'columns'>,
  row: Record<string, unknown>,
  timeZone: string = DEFAULT_TIMEZONE,
): string {
  const named = row.Name ?? row.Title ?? row.DisplayName ?? row.Number;
  if (named !== null && named !== undefined) return String(named);
  const linked = resource.columns.find((c) => c.rendererInfo?.Key === 'link')?.field;
  const type = linked !== undefined ? resource.fields[linked]?.type : undefined;
  const value = linked !== undefined ? row[linked] : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    if (type === 'text') return value;
    const moment = momentName(type, value, timeZone);
    if (moment !== null) return moment;
  }
  return String(row[resource.key] ?? '');
}

/**
 * The field types whose value says nothing of what it is without its column's title ("$450.00", "30", "No",
 * "01/11/2027"): a plain list, which has no column headers, writes their title before them ("Member $450.00").
 * A name, an email, a status or a lookup's name speak for themselves.
 */
const UNSPOKEN: ReadonlySet<FieldType> = new Set([
  'boolean',
  'number',
  'currency',
  'date',
  'datetime',
  'time',
  'decimalRange',
  'dateRange',
]);

/** The words before a value in a plain list's line, or '' when the value names itself (see UNSPOKEN). */
export function plainListPrefix(
  resource: Pick<ResourceDeclaration, 'fields'>,
  column: Pick<ColumnView, 'field' | 'title'>,
): string {
  const type = resource.fields[column.field]?.type;
  if (!type || !UNSPOKEN.has(type) || column.title.trim() === '') return '';
  return type === 'boolean' ? `${column.title}: ` : `${column.title} `;
}
