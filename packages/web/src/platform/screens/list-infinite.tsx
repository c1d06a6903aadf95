import {
  displayTimeZone,
  hasMoreRows,
  INFINITE_SCROLL_DISTANCE,
  type ResourceDeclaration,
} from '@guildhall/shared';
import { Group, Loader, Paper, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { useIdentity } from '../identity.ts';
import { ListCell, RowActions, rowLabel } from './list-cell.tsx';
import { type ColumnView, isActionsColumn, type RowCommand } from './list-columns.ts';
import { fetchList, type ListParams } from './screens-api.ts';

const ROW_HEIGHT = 44;

/**
 * Infinite scroll: the next page loads when the scroll is within 15 % of the end, and stops after a short page.
 * Only the rows in view are in the DOM.
 */
export default function InfiniteList(props: {
  resource: ResourceDeclaration;
  baseParams: ListParams;
  columns: ColumnView[];
  pageSize: number;
  onCommand: RowCommand;
}) {
  const me = useIdentity();
  const { resource, pageSize } = props;
  const { skip: _skip, ...params } = props.baseParams;
  const query = useInfiniteQuery({
    queryKey: ['list', resource.name, 'infinite', params],
    queryFn: ({ pageParam, signal }) =>
      fetchList(resource, { ...params, skip: pageParam, top: pageSize }, signal),
    initialPageParam: 0,
    getNextPageParam: (last, all) =>
      hasMoreRows(last.Results.length, pageSize) ? all.length * pageSize : undefined,
  });
  const rows = query.data?.pages.flatMap((p) => p.Results) ?? [];
  const total = query.data?.pages[0]?.TotalRecordAvailable ?? 0;
  const scrollRef = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
  });
  const items = virtualizer.getVirtualItems();
  const last = items[items.length - 1];
  useEffect(() => {
    if (!last || !query.hasNextPage || query.isFetchingNextPage) return;
    if (last.index >= rows.length * (1 - INFINITE_SCROLL_DISTANCE) - 1) void query.fetchNextPage();
  }, [last, rows.length, query]);
  const shown = props.columns.filter((c) => c.visible && !isActionsColumn(c));
  const actionsColumn = props.columns.find(isActionsColumn);
  const actions = actionsColumn?.actions ?? [];
  return (
    <Paper withBorder>
      <section
        ref={scrollRef}
        aria-label={`${resource.title}, ${rows.length} of ${total} loaded`}
        style={{ height: 'min(70vh, 640px)', overflow: 'auto' }}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the scrolling region must be reachable by keyboard
        tabIndex={0}
      >
        <ul
          style={{
            height: virtualizer.getTotalSize(),
            position: 'relative',
            listStyle: 'none',
            margin: 0,
            padding: 0,
          }}
        >
          {items.map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            const label = rowLabel(resource, row, displayTimeZone(me));
            return (
              <li
                key={item.key}
                data-index={item.index}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  height: ROW_HEIGHT,
                  transform: `translateY(${item.start}px)`,
                  display: 'flex',
                  alignItems: 'center',
                  gap: 16,
                  padding: '0 12px',
                  borderBottom: '1px solid var(--mantine-color-gray-2)',
                  whiteSpace: 'nowrap',
                  overflow: 'hidden',
                }}
              >
                {shown.map((c) => (
                  <div
                    key={c.field}
                    style={{
                      minWidth: c.rendererKey === 'link' ? 180 : 90,
                      overflow: 'hidden',
                      textOverflow: 'ellipsis',
                      fontSize: 14,
                    }}
                  >
                    <ListCell
                      resource={resource}
                      column={c}
                      row={row}
                      timeZone={displayTimeZone(me)}
                      inline={false}
                    />
                  </div>
                ))}
                <div style={{ marginLeft: 'auto' }}>
                  {actionsColumn ? (
                    <RowActions row={row} actions={actions} label={label} onCommand={props.onCommand} />
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
      </section>
      <Group justify="center" p="xs" mih={36}>
        {query.isFetching ? <Loader size="xs" aria-label="Loading more" /> : null}
        {!query.hasNextPage && !query.isFetching ? (
          <Text size="xs" c="dimmed">
            All {rows.length} loaded.
          </Text>
        ) : null}
      </Group>
    </Paper>
  );
}
