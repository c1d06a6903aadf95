import {
  type BulkRequest,
  type BulkResponse,
  FILTER_ADVANCED,
  type FieldDeclaration,
  type Model,
  type ResourceDeclaration,
  recordNameOf,
} from '@guildhall/shared';
import { Button, Group, Paper, Select, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type ComponentType, useState } from 'react';
import { can, useIdentity } from '../identity.ts';
import { notifyError, notifyInfo } from '../notify.ts';
import { confirmDialog, StackedModal } from './dialogs.tsx';
import { followPendingDownload } from './export-download.tsx';
import { bulkAction, startExport } from './screens-api.ts';

/** What a bulk action is given: the list's resource and the selected rows (the page's rows, by key). */
export interface BulkContext {
  resource: ResourceDeclaration;
  ids: string[];
  rows: Model[];
  /** Clears the selection and refreshes the list after a change. */
  done: () => void;
}

/**
 * An action on the selected rows of a list. The list screen shows every action whose `available` says yes; a new
 * one (a mailing to the selected contacts, say) is one more entry in BULK_ACTIONS, with no change to the screen.
 */
export interface BulkAction {
  key: string;
  title: string;
  danger?: boolean;
  available: (resource: ResourceDeclaration, canWrite: boolean) => boolean;
  /** Runs at once, or renders a dialog (`Dialog`) that runs it. */
  run?: (ctx: BulkContext) => Promise<void>;
  Dialog?: ComponentType<BulkContext & { onClose: () => void }>;
}

/** Runs the action on every selected record in one request and tells how many were done and why others were not. */
async function onEach(ctx: BulkContext, verb: string, body: BulkRequest): Promise<void> {
  let answer: BulkResponse;
  try {
    answer = await bulkAction(ctx.resource, body);
  } catch (error) {
    notifyError(error);
    return;
  }
  ctx.done();
  const ok = answer.Done.length;
  if (answer.Failed.length === 0) notifyInfo(`${ok} ${ok === 1 ? 'record' : 'records'} ${verb}.`, 'Done');
  else {
    const named = answer.Failed.map((f) => {
      const row = ctx.rows.find((r) => String(r[ctx.resource.key]) === f.Id);
      return `${row ? recordNameOf(ctx.resource, row) : f.Id}: ${f.Message}`;
    });
    notifyError(new Error(`${ok} of ${ctx.ids.length} ${verb}. Not done: ${named.slice(0, 5).join('; ')}`));
  }
}

/** Fields a bulk change may set: writable choices (selects and yes/no). */
export function bulkChangeFields(resource: ResourceDeclaration): [string, FieldDeclaration][] {
  return Object.entries(resource.fields).filter(
    ([, f]) => !f.readOnly && (f.type === 'select' || f.type === 'selectValid' || f.type === 'boolean'),
  );
}

function ChangeFieldDialog(props: BulkContext & { onClose: () => void }) {
  const fields = bulkChangeFields(props.resource);
  const [field, setField] = useState<string | null>(fields[0]?.[0] ?? null);
  const [value, setValue] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const declaration = fields.find(([name]) => name === field)?.[1];
  const choices =
    declaration?.type === 'boolean'
      ? [
          { value: 'true', label: 'Yes' },
          { value: 'false', label: 'No' },
        ]
      : (declaration?.options ?? []).map((o) => ({ value: String(o.Id), label: o.Name }));
  const apply = async () => {
    if (!field || value === null || !declaration) return;
    const chosen =
      declaration.type === 'boolean'
        ? value === 'true'
        : (declaration.options ?? []).find((o) => String(o.Id) === value)?.Id;
    setBusy(true);
    await onEach(props, 'changed', { Action: 'change', Ids: props.ids, Changes: { [field]: chosen } });
    setBusy(false);
    props.onClose();
  };
  return (
    <StackedModal opened onClose={props.onClose} title={`Change a field of ${props.ids.length} selected`}>
      <Stack gap="md">
        <Select
          label="Field"
          data={fields.map(([name, f]) => ({ value: name, label: f.label }))}
          value={field}
          onChange={(v) => {
            setField(v);
            setValue(null);
          }}
          allowDeselect={false}
          data-autofocus
        />
        <Select label="New value" data={choices} value={value} onChange={setValue} />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          <Button onClick={() => void apply()} disabled={value === null} loading={busy}>
            Change {props.ids.length}
          </Button>
        </Group>
      </Stack>
    </StackedModal>
  );
}

export const BULK_ACTIONS: readonly BulkAction[] = [
  {
    key: 'export',
    title: 'Export selected',
    available: (r) => r.filterable.includes(r.key),
    run: async (ctx) => {
      try {
        followPendingDownload(
          await startExport(ctx.resource, {
            skip: 0,
            top: ctx.ids.length,
            sort: null,
            search: '',
            filterId: FILTER_ADVANCED,
            criteria: [{ PropertyName: ctx.resource.key, Operator: 'in', Value: ctx.ids.map(Number) }],
          }),
        );
      } catch (error) {
        notifyError(error);
      }
    },
  },
  {
    key: 'change',
    title: 'Change a field…',
    available: (r, canWrite) => canWrite && r.capabilities.inlineEdit && bulkChangeFields(r).length > 0,
    Dialog: ChangeFieldDialog,
  },
  {
    key: 'delete',
    title: 'Delete selected',
    danger: true,
    available: (r, canWrite) => canWrite && r.capabilities.delete,
    run: async (ctx) => {
      const names = ctx.rows
        .filter((r) => ctx.ids.includes(String(r[ctx.resource.key])))
        .map((r) => recordNameOf(ctx.resource, r));
      const ok = await confirmDialog({
        title: `Delete ${ctx.ids.length} ${ctx.ids.length === 1 ? 'record' : 'records'}?`,
        message: `${names.slice(0, 5).join('; ')}${names.length > 5 ? ` and ${names.length - 5} more` : ''} will be removed from the list.`,
        okLabel: 'Delete',
        danger: true,
      });
      if (!ok) return;
      await onEach(ctx, 'deleted', { Action: 'delete', Ids: ctx.ids });
    },
  },
];

/** The bar above a list while rows are selected: how many, and what can be done with them. */
export function BulkActionBar({
  resource,
  ids,
  rows,
  canWrite,
  onDone,
}: {
  resource: ResourceDeclaration;
  ids: string[];
  rows: Model[];
  canWrite: boolean;
  onDone: () => void;
}) {
  const me = useIdentity();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<BulkAction | null>(null);
  const writable = canWrite && resource.permissions.write !== null && can(me, resource.permissions.write);
  const actions = BULK_ACTIONS.filter((a) => a.available(resource, writable));
  if (ids.length === 0 || actions.length === 0) return null;
  const ctx: BulkContext = {
    resource,
    ids,
    rows,
    done: () => {
      onDone();
      void queryClient.invalidateQueries({ queryKey: ['list', resource.name] });
    },
  };
  const Dialog = open?.Dialog;
  return (
    <Paper withBorder p="xs" role="region" aria-label="Selected rows">
      <Group gap="sm">
        <Text size="sm" fw={600}>
          {ids.length} selected
        </Text>
        {actions.map((a) => (
          <Button
            key={a.key}
            size="compact-sm"
            variant={a.danger ? 'light' : 'default'}
            color={a.danger ? 'red' : undefined}
            onClick={() => (a.Dialog ? setOpen(a) : void a.run?.(ctx))}
          >
            {a.title}
          </Button>
        ))}
        <Button size="compact-sm" variant="subtle" onClick={onDone}>
          Clear selection
        </Button>
      </Group>
      {Dialog ? <Dialog {...ctx} onClose={() => setOpen(null)} /> : null}
    </Paper>
  );
}
