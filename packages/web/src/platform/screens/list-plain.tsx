import type { Model, ResourceDeclaration } from '@guildhall/shared';
import { displayTimeZone } from '@guildhall/shared';
import { Anchor, Group, Paper, Stack, Text } from '@mantine/core';
import { Fragment } from 'react';
import { Link } from 'react-router';
import { useIdentity } from '../identity.ts';
import { Pager } from '../pager.tsx';
import { ListCell, RowActions, rowLabel } from './list-cell.tsx';
import { type ColumnView, isActionsColumn, plainListPrefix, type RowCommand } from './list-columns.ts';
import { recordPath } from './resources.ts';

const isEmpty = (v: unknown) =>
  v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * ListView: a plain list, one line per record (its name as a link, then the other shown columns as quiet text, a
 * number, an amount, a date or a yes/no after its column's title: `plainListPrefix`).
 * Unlike the deluxe table it has no column headers, no preview panel and no inline edit; sorting stays the
 * screen's (default or saved) sort.
 */
export default function PlainList(props: {
  resource: ResourceDeclaration;
  rows: Model[];
  columns: ColumnView[];
  onCommand?: RowCommand;
  page: number;
  pages: number;
  onPage: (page: number) => void;
  /** Shown when there is no row. */
  empty?: string;
}) {
  const me = useIdentity();
  const { resource, columns } = props;
  const shown = columns.filter((c) => c.visible && !isActionsColumn(c) && c.rendererKey !== 'link');
  const actionsColumn = props.onCommand ? columns.find(isActionsColumn) : undefined;
  const actions = actionsColumn?.actions ?? [];
  const onCommand = props.onCommand;
  return (
    <Stack gap="sm">
      <Paper withBorder>
        <ul
          aria-label={`${resource.title} list`}
          data-plain-list
          style={{ listStyle: 'none', margin: 0, padding: 0 }}
        >
          {props.rows.map((row, index) => {
            const label = rowLabel(resource, row, displayTimeZone(me));
            const filled = shown.filter((c) => !isEmpty(row[c.field]));
            return (
              <li
                key={String(row[resource.key])}
                style={{
                  padding: '8px 12px',
                  borderTop: index === 0 ? undefined : '1px solid var(--mantine-color-default-border)',
                }}
              >
                <Group justify="space-between" wrap="nowrap" gap="sm">
                  <div style={{ minWidth: 0 }}>
                    <Anchor component={Link} to={recordPath(resource, String(row[resource.key]))} fw={600}>
                      {label}
                    </Anchor>
                    <Text size="sm" c="dimmed" lineClamp={1} component="div">
                      {filled.map((c, i) => (
                        <Fragment key={c.field}>
                          {i > 0 ? ' · ' : ''}
                          {plainListPrefix(resource, c)}
                          <ListCell
                            resource={resource}
                            column={c}
                            row={row}
                            timeZone={displayTimeZone(me)}
                            inline={false}
                          />
                        </Fragment>
                      ))}
                    </Text>
                  </div>
                  {onCommand && actionsColumn ? (
                    <RowActions row={row} actions={actions} label={label} onCommand={onCommand} />
                  ) : null}
                </Group>
              </li>
            );
          })}
        </ul>
        {props.rows.length === 0 ? (
          <Text c="dimmed" size="sm" p="sm">
            {props.empty ?? 'Nothing matches.'}
          </Text>
        ) : null}
      </Paper>
      {props.pages > 1 ? (
        <Group justify="flex-end">
          <Pager pages={props.pages} page={props.page} onPage={props.onPage} />
        </Group>
      ) : null}
    </Stack>
  );
}
