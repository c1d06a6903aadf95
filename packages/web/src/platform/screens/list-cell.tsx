import {
  type FieldDeclaration,
  type FieldType,
  type Model,
  RECORD_VERSION_FIELD,
  type ResourceDeclaration,
  rowActionsLayout,
} from '@guildhall/shared';
import { Anchor, Button, Group, Menu, Switch } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { isApiError } from '../api-client.ts';
import { displayFor } from '../fields/field-registry.ts';
import { type ColumnView, meetsCondition, type RowCommand } from './list-columns.ts';
import { useListSlots } from './list-slots.tsx';
import { recordPath } from './resources.ts';
import { ConcurrencyConflictError, inlineEdit } from './screens-api.ts';

export const INLINE_EDIT_FALLBACK = 'Something went wrong - use F12/Console for details';

export function rowLabel(r: ResourceDeclaration, row: Model): string {
  return String(row.Name ?? row.Title ?? row.DisplayName ?? row.Number ?? row[r.key] ?? '');
}

/** One cell: the field type's Display (or the column's renderer), a link to the record, or an inline switch. */
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
  const content = Slot ? (
    <Slot row={row} value={row[column.field]} onChanged={active?.onChanged ?? (() => {})} />
  ) : (
    <Display field={field} value={row[column.field]} context={{ timeZone }} row={row} />
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

/** Row actions: up to 2 inline, more collapse into a dropdown (spec 000 section 2). */
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
  const Extra = active?.slots.recordActions;
  const extra = Extra ? (
    <Extra row={row} id={String(row[active.keyField])} label={label} onChanged={active.onChanged} />
  ) : null;
  const layout = rowActionsLayout(
    actions.map((a) => ({ ...a, visible: meetsCondition(row, a.showCondition) })),
  );
  if (extra && layout.mode !== 'inline')
    return (
      <Group gap={4} wrap="nowrap">
        <RowActionsMenu actions={layout.actions} row={row} label={label} onCommand={onCommand} />
        {extra}
      </Group>
    );
  if (layout.mode === 'inline')
    return (
      <Group gap={4} wrap="nowrap">
        {layout.actions.map((a) => (
          <Button
            key={a.key}
            size="compact-sm"
            variant="subtle"
            color={a.kind === 'delete' ? 'red' : undefined}
            aria-label={`${a.title} ${label}`}
            onClick={() => void onCommand(a, row)}
          >
            {a.title}
          </Button>
        ))}
        {extra}
      </Group>
    );
  return <RowActionsMenu actions={layout.actions} row={row} label={label} onCommand={onCommand} />;
}

function RowActionsMenu({
  actions,
  row,
  label,
  onCommand,
}: {
  actions: ColumnView['actions'];
  row: Record<string, unknown>;
  label: string;
  onCommand: RowCommand;
}) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button size="compact-sm" variant="default" aria-label={`Actions for ${label}`}>
          Actions
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {actions.map((a) => (
          <Menu.Item
            key={a.key}
            color={a.kind === 'delete' ? 'red' : undefined}
            onClick={() => void onCommand(a, row)}
          >
            {a.title}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
