import {
  type FieldDeclaration,
  type FieldType,
  type Model,
  RECORD_VERSION_FIELD,
  type ResourceDeclaration,
} from '@guildhall/shared';
import { Anchor, Switch } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { isApiError } from '../api-client.ts';
import { displayFor } from '../fields/field-registry.ts';
import { TextModeProvider } from '../text-mode.tsx';
import { type ColumnView, meetsCondition, type RowCommand, recordLabel } from './list-columns.ts';
import { useListSlots } from './list-slots.tsx';
import { RecordActionBar } from './record-action-bar.tsx';
import { recordPath } from './resources.ts';
import { ConcurrencyConflictError, inlineEdit } from './screens-api.ts';

export const INLINE_EDIT_FALLBACK = 'Something went wrong - use F12/Console for details';

/** A record's name in a list line or an action's label (the rule: `recordLabel`, list-columns.ts). */
export const rowLabel = recordLabel;

/**
 * One cell: the field type's Display (or the column's renderer), a link to the record, or an inline switch; what it
 * draws reads the column's mode (`useTextMode`).
 */
export function ListCell({
  resource,
  column,
  row,
  timeZone,
  inline,
}: {
  resource: ResourceDeclaration;
  column: ColumnView;
  row: Model;
  timeZone: string;
  inline: boolean;
}) {
  const field: FieldDeclaration = resource.fields[column.field] ?? {
    type: (column.fieldType ?? 'text') as FieldType,
    label: column.title,
  };
  const active = useListSlots();
  const Slot = active?.slots.cells?.[column.field];
  const Display = displayFor(field.type, column.rendererKey);
  // A pill a renderer draws (a badge) honours the column's mode as the cell's text does.
  const content = (
    <TextModeProvider mode={column.mode}>
      {Slot ? (
        <Slot row={row} value={row[column.field]} onChanged={active?.onChanged ?? (() => {})} />
      ) : (
        <Display field={field} value={row[column.field]} context={{ timeZone }} row={row} />
      )}
    </TextModeProvider>
  );
  const id = String(row[resource.key]);
  if (column.rendererKey === 'link')
    return (
      <Anchor component={Link} to={active?.slots.recordPath?.(id) ?? recordPath(resource, id)} size="sm">
        {content}
      </Anchor>
    );
  if (inline && field.type === 'boolean' && !field.readOnly)
    return <InlineSwitch resource={resource} column={column} row={row} />;
  return content;
}

function InlineSwitch({
  resource,
  column,
  row,
}: {
  resource: ResourceDeclaration;
  column: ColumnView;
  row: Model;
}) {
  const [checked, setChecked] = useState(row[column.field] === true);
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  return (
    <Switch
      size="sm"
      checked={checked}
      disabled={busy}
      aria-label={`${column.title}: ${rowLabel(resource, row)}`}
      onChange={async (e) => {
        const next = e.currentTarget.checked;
        setChecked(next);
        setBusy(true);
        try {
          // The row's version: a change over someone else's newer save is refused (409), not made silently.
          const version = row[RECORD_VERSION_FIELD];
          await inlineEdit(resource, String(row[resource.key]), {
            [column.field]: next,
            ...(typeof version === 'number' ? { [RECORD_VERSION_FIELD]: version } : {}),
          });
          void queryClient.invalidateQueries({ queryKey: ['list', resource.name] });
          notifications.show({ color: 'green', title: 'Success', message: 'We saved it!' });
        } catch (error) {
          setChecked(!next);
          if (error instanceof ConcurrencyConflictError) {
            void queryClient.invalidateQueries({ queryKey: ['list', resource.name] });
            notifications.show({
              color: 'orange',
              title: 'Someone else saved this record',
              message:
                'Your change was not made: the list now shows their values. Change it again if you still want to.',
            });
            return;
          }
          console.error('Inline edit failed', error);
          const message =
            isApiError(error) && error.status === 500 && error.message ? error.message : INLINE_EDIT_FALLBACK;
          notifications.show({ color: 'red', title: 'Oh no :(', message });
        } finally {
          setBusy(false);
        }
      }}
    />
  );
}

/**
 * Row actions: the declared ones the row meets, then the embedding feature's slot actions; more than two collapse
 * into the row's Actions menu (spec 000 section 2) with the first one kept as a button (`RecordActionBar`).
 */
export function RowActions({
  row,
  actions,
  label,
  onCommand,
}: {
  row: Record<string, unknown>;
  actions: ColumnView['actions'];
  label: string;
  onCommand: RowCommand;
}) {
  const active = useListSlots();
  const declared = actions
    .filter((a) => meetsCondition(row, a.showCondition))
    .map((a) => ({
      key: a.key,
      title: a.title,
      danger: a.kind === 'delete',
      onSelect: () => onCommand(a, row),
    }));
  return (
    <RecordActionBar
      declared={declared}
      actions={active?.slots.recordActions}
      context={{
        row,
        id: active ? String(row[active.keyField]) : '',
        label,
        onChanged: active?.onChanged ?? (() => {}),
      }}
      size="row"
    />
  );
}
