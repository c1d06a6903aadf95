import { ROW_ACTIONS_INLINE_MAX } from '@guildhall/shared';
import { ActionIcon, Button, Group, Menu, Tooltip } from '@mantine/core';
import { IconDotsVertical } from '@tabler/icons-react';
import { useState } from 'react';
import { actionTitle, type RecordAction, type RecordActionContext, visibleActions } from './record-slots.tsx';

/** A declared action of the resource (a row action), already filtered by permission and condition. */
export interface DeclaredAction {
  key: string;
  title: string;
  danger?: boolean;
  onSelect: () => unknown;
}

interface Item {
  key: string;
  title: string;
  danger: boolean;
  onSelect: () => unknown;
}

/**
 * The actions of one record, the resource's declared ones first, then the feature's slot actions (spec 000
 * section 2: more than two collapse into a menu). With more than two, the first stays a button and the others go
 * into the record's Actions menu (a ⋮ button), so a row keeps its width whatever a feature adds. A slot action's
 * dialog is held here, outside the menu, so it stays open when the menu closes.
 */
export function RecordActionBar({
  declared,
  actions,
  context,
  size,
}: {
  declared: readonly DeclaredAction[];
  actions: readonly RecordAction[] | undefined;
  context: RecordActionContext;
  /** A list's row (compact buttons) or a record's header. */
  size: 'row' | 'header';
}) {
  const [dialog, setDialog] = useState<RecordAction | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const { row, label } = context;
  const items: Item[] = [
    ...declared.map((d) => ({ ...d, danger: d.danger === true })),
    ...visibleActions(actions, row).map((a) => ({
      key: `slot:${a.key}`,
      title: actionTitle(a, row),
      danger: typeof a.danger === 'function' ? a.danger(row) : a.danger === true,
      onSelect: async () => {
        if (a.Dialog) return setDialog(a);
        if (!a.run) return;
        setBusy(a.key);
        try {
          await a.run(context);
        } finally {
          setBusy(null);
        }
      },
    })),
  ];
  if (items.length === 0) return null;
  const collapse = items.length > ROW_ACTIONS_INLINE_MAX;
  const inline = collapse ? items.slice(0, 1) : items;
  const rest = collapse ? items.slice(1) : [];
  const Dialog = dialog?.Dialog;
  return (
    <Group gap={size === 'row' ? 4 : 'sm'} wrap="nowrap">
      {inline.map((item) => (
        <Button
          key={item.key}
          size={size === 'row' ? 'compact-sm' : 'sm'}
          variant={size === 'row' ? 'subtle' : 'default'}
          color={item.danger ? 'red' : undefined}
          loading={busy !== null && `slot:${busy}` === item.key}
          aria-label={`${item.title} ${label}`}
          onClick={() => void item.onSelect()}
        >
          {item.title}
        </Button>
      ))}
      {rest.length > 0 ? (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Tooltip label="More actions" withinPortal>
              <ActionIcon
                variant={size === 'row' ? 'subtle' : 'default'}
                size={size === 'row' ? 'md' : 'lg'}
                aria-label={`Actions for ${label}`}
                loading={busy !== null}
              >
                <IconDotsVertical size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Menu.Target>
          <Menu.Dropdown>
            {rest.map((item) => (
              <Menu.Item
                key={item.key}
                color={item.danger ? 'red' : undefined}
                onClick={() => void item.onSelect()}
              >
                {item.title}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      ) : null}
      {Dialog ? <Dialog {...context} onClose={() => setDialog(null)} /> : null}
    </Group>
  );
}
