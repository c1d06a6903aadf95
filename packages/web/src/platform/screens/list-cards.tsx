import type { Model, ResourceDeclaration } from '@guildhall/shared';
import { displayTimeZone } from '@guildhall/shared';
import { Anchor, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { useIdentity } from '../identity.ts';
import { Pager } from '../pager.tsx';
import { ListCell, RowActions, rowLabel } from './list-cell.tsx';
import { type ColumnView, isActionsColumn, type RowCommand } from './list-columns.ts';
import { recordPath } from './resources.ts';

/** DeluxeListViewWithCards: each row a card (the phone's default list). */
export default function CardsView(props: {
  resource: ResourceDeclaration;
  rows: Model[];
  columns: ColumnView[];
  onCommand: RowCommand;
  page: number;
  pages: number;
  total: number;
  pageSize: number;
  onPage: (page: number) => void;
}) {
  const me = useIdentity();
  const { resource, columns } = props;
  const shown = columns.filter((c) => c.visible && !isActionsColumn(c) && c.rendererKey !== 'link');
  const actionsColumn = columns.find(isActionsColumn);
  const actions = actionsColumn?.actions ?? [];
  return (
    <Stack gap="sm">
      <SimpleGrid
        cols={{ base: 1, sm: 2, lg: 3 }}
        spacing="sm"
        component="ul"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
      >
        {props.rows.map((row) => {
          const label = rowLabel(resource, row, displayTimeZone(me));
          return (
            <Card key={String(row[resource.key])} withBorder component="li" padding="sm">
              <Group justify="space-between" wrap="nowrap" mb={6}>
                <Anchor component={Link} to={recordPath(resource, String(row[resource.key]))} fw={600}>
                  {label}
                </Anchor>
                {actionsColumn ? (
                  <RowActions row={row} actions={actions} label={label} onCommand={props.onCommand} />
                ) : null}
              </Group>
              <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '2px 12px' }}>
                {shown.map((c) => [
                  <Text key={`${c.field}-t`} component="dt" size="xs" c="dimmed">
                    {c.title}
                  </Text>,
                  <Text key={`${c.field}-d`} component="dd" size="sm" m={0}>
                    <ListCell
                      resource={resource}
                      column={c}
                      row={row}
                      timeZone={displayTimeZone(me)}
                      inline={false}
                    />
                  </Text>,
                ])}
              </dl>
            </Card>
          );
        })}
      </SimpleGrid>
      {props.rows.length === 0 ? (
        <Text c="dimmed" size="sm">
          Nothing matches.
        </Text>
      ) : null}
      {props.pages > 1 ? (
        <Group justify="flex-end">
          <Pager pages={props.pages} page={props.page} onPage={props.onPage} />
        </Group>
      ) : null}
    </Stack>
  );
}
