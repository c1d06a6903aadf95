import type { ListResponse, Model, ResourceDeclaration, SortSetting } from '@guildhall/shared';
import { displayTimeZone } from '@guildhall/shared';
import { Anchor, Checkbox, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type CSSProperties, type KeyboardEvent, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useIdentity } from '../identity.ts';
import { Pager } from '../pager.tsx';
import { BulkActionBar } from './bulk-actions.tsx';
import { ListCell, RowActions, rowLabel } from './list-cell.tsx';
import {
  type ColumnView,
  cellStyle,
  isActionsColumn,
  type RowCommand,
  readSelection,
} from './list-columns.ts';
import { recordPath } from './resources.ts';
import { SortButton } from './sort-button.tsx';

/**
 * The row actions are the table's last column and scroll with it: a column held at the right edge (sticky) covered
 * the cells scrolled under it (at 1,280 px the events list hid its category, status and venue behind Edit and
 * Delete). A table wider than its place scrolls sideways, and no cell is ever covered.
 */
const ACTIONS_CELL: CSSProperties = {
  width: 1,
  whiteSpace: 'nowrap',
};

interface Props {
  resource: ResourceDeclaration;
  data: ListResponse;
  columns: ColumnView[];
  sort: SortSetting | null;
  onSort: (field: string) => void;
  onCommand: RowCommand;
  page: number;
  pages: number;
  pageSize: number;
  onPage: (page: number) => void;
  loading: boolean;
  /** The preview panel beside the table (moved with the up and down keys). */
  preview: boolean;
  canWrite: boolean;
}

export function ListTable(props: Props) {
  const { resource, data, columns, sort } = props;
  const me = useIdentity();
  const wide = useMediaQuery('(min-width: 1440px)');
  const rows = data.Results;
  const visible = columns.filter((c) => c.visible);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [active, setActive] = useState<number | null>(null);
  const keyOf = (row: Model) => String(row[resource.key]);
  useEffect(() => setActive((a) => (a !== null && a >= rows.length ? null : a)), [rows.length]);
  const selection = useMemo(
    () => readSelection(me.uiVersion, rows, selected, resource.key),
    [me.uiVersion, rows, selected, resource.key],
  );
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(keyOf(r)));
  const inline = props.canWrite && resource.capabilities.inlineEdit;

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const target = e.target as HTMLElement;
    if (target.closest('input, button, a, [role="switch"]') && target.tagName !== 'TR') {
      if (!target.closest('tr')) return;
    }
    e.preventDefault();
    setActive((a) => {
      const next =
        a === null ? 0 : e.key === 'ArrowDown' ? Math.min(rows.length - 1, a + 1) : Math.max(0, a - 1);
      requestAnimationFrame(() => document.getElementById(`row-${resource.name}-${next}`)?.focus());
      return next;
    });
  };

  const activeRow = active === null ? null : (rows[active] ?? null);

  return (
    <Stack gap="sm">
      <BulkActionBar
        resource={resource}
        ids={[...selected]}
        rows={rows}
        canWrite={props.canWrite}
        onDone={() => setSelected(new Set())}
      />
      <Group align="flex-start" gap="md" wrap="nowrap">
        <Paper withBorder style={{ flex: 1, minWidth: 0 }}>
          <Table.ScrollContainer minWidth={560}>
            {/* biome-ignore lint/a11y/noStaticElementInteractions: arrow keys move the preview between rows */}
            <div onKeyDown={onKeyDown}>
              <Table
                highlightOnHover
                verticalSpacing="xs"
                aria-label={resource.title}
                aria-busy={props.loading}
                style={{ opacity: props.loading ? 0.7 : 1 }}
              >
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={40}>
                      <Checkbox
                        aria-label="Select all rows"
                        checked={allSelected}
                        indeterminate={!allSelected && rows.some((r) => selected.has(keyOf(r)))}
                        onChange={() => setSelected(allSelected ? new Set() : new Set(rows.map(keyOf)))}
                      />
                    </Table.Th>
                    {visible.map((c) => {
                      const direction = sort?.columnName === c.field ? sort.direction : null;
                      if (isActionsColumn(c))
                        return (
                          <Table.Th key={c.field} style={ACTIONS_CELL}>
                            <span
                              className="visually-hidden"
                              style={{
                                position: 'absolute',
                                width: 1,
                                height: 1,
                                overflow: 'hidden',
                                clip: 'rect(0 0 0 0)',
                              }}
                            >
                              Actions
                            </span>
                          </Table.Th>
                        );
                      return (
                        <Table.Th
                          key={c.field}
                          aria-sort={
                            direction === 'asc'
                              ? 'ascending'
                              : direction === 'desc'
                                ? 'descending'
                                : undefined
                          }
                          style={{ whiteSpace: 'nowrap' }}
                        >
                          {c.sortable ? (
                            <SortButton
                              title={c.title}
                              direction={direction}
                              onSort={() => props.onSort(c.field)}
                            />
                          ) : (
                            c.title
                          )}
                        </Table.Th>
                      );
                    })}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.length === 0 ? (
                    <Table.Tr>
                      <Table.Td colSpan={visible.length + 1}>
                        <Text c="dimmed" size="sm" ta="center" py="md">
                          Nothing matches.
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ) : (
                    rows.map((row, index) => {
                      const id = keyOf(row);
                      const label = rowLabel(resource, row);
                      return (
                        <Table.Tr
                          key={id}
                          id={`row-${resource.name}-${index}`}
                          tabIndex={-1}
                          aria-selected={active === index}
                          data-active={active === index || undefined}
                          bg={active === index ? 'var(--mantine-color-guild-0)' : undefined}
                          onClick={(e) => {
                            if ((e.target as HTMLElement).closest('a, button, input, label')) return;
                            setActive(index);
                          }}
                        >
                          <Table.Td>
                            <Checkbox
                              aria-label={`Select ${label}`}
                              checked={selected.has(id)}
                              onChange={() =>
                                setSelected((s) => {
                                  const next = new Set(s);
                                  if (next.has(id)) next.delete(id);
                                  else next.add(id);
                                  return next;
                                })
                              }
                            />
                          </Table.Td>
                          {visible.map((c) => (
                            <Table.Td
                              key={c.field}
                              style={isActionsColumn(c) ? ACTIONS_CELL : cellStyle(c)}
                              data-mode={c.mode}
                            >
                              {isActionsColumn(c) ? (
                                <RowActions
                                  row={row}
                                  actions={c.actions}
                                  label={label}
                                  onCommand={props.onCommand}
                                />
                              ) : (
                                <ListCell
                                  resource={resource}
                                  column={c}
                                  row={row}
                                  timeZone={displayTimeZone(me)}
                                  inline={inline}
                                />
                              )}
                            </Table.Td>
                          ))}
                        </Table.Tr>
                      );
                    })
                  )}
                </Table.Tbody>
              </Table>
            </div>
          </Table.ScrollContainer>
        </Paper>
        {props.preview && wide ? (
          <Paper
            withBorder
            p="md"
            w={300}
            component="aside"
            aria-label="Preview"
            style={{ flexShrink: 0, position: 'sticky', top: 80 }}
          >
            {activeRow ? (
              <Stack gap="xs">
                <Title order={2} size="h5">
                  {rowLabel(resource, activeRow)}
                </Title>
                {columns
                  .filter((c) => !isActionsColumn(c))
                  .map((c) => (
                    <div key={c.field}>
                      <Text size="xs" c="dimmed">
                        {c.title}
                      </Text>
                      <Text size="sm" component="div">
                        <ListCell
                          resource={resource}
                          column={{ ...c, rendererKey: c.rendererKey === 'link' ? undefined : c.rendererKey }}
                          row={activeRow}
                          timeZone={displayTimeZone(me)}
                          inline={false}
                        />
                      </Text>
                    </div>
                  ))}
                <Group gap="md">
                  <Anchor component={Link} to={recordPath(resource, keyOf(activeRow))} size="sm">
                    Open {rowLabel(resource, activeRow)}
                  </Anchor>
                  <Anchor
                    component={Link}
                    to={`${recordPath(resource, keyOf(activeRow))}/preview`}
                    size="sm"
                    aria-label={`Preview card of ${rowLabel(resource, activeRow)}`}
                  >
                    Preview card
                  </Anchor>
                </Group>
              </Stack>
            ) : (
              <Text size="sm" c="dimmed">
                Choose a row to preview it; the up and down keys move between rows.
              </Text>
            )}
          </Paper>
        ) : null}
      </Group>
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed">
          {selected.size > 0 ? `${Array.isArray(selection) ? selection.length : 0} selected` : ''}
        </Text>
        <Pager pages={props.pages} page={props.page} onPage={props.onPage} />
      </Group>
    </Stack>
  );
}
