import { Group, Paper, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { type ReactNode, useMemo, useState } from 'react';
import { useIdentity } from './identity.ts';
import { Pager } from './pager.tsx';
import { SortButton } from './screens/sort-button.tsx';

/** List search debounce (spec 000 section 9). */
export const LIST_SEARCH_DEBOUNCE_MS = 350;

export interface Column<T> {
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  /** Value used to sort; columns without one are not sortable. */
  sortValue?: (row: T) => string | number | null;
  align?: 'left' | 'right';
  /** Hidden from this width down (still in the table for screen readers when visible). */
  visibleFrom?: 'sm' | 'md' | 'lg';
}

interface Props<T> {
  label: string;
  rows: T[];
  columns: Column<T>[];
  rowKey: (row: T) => string | number;
  /** Text the search box matches against; no search box when absent. */
  searchText?: (row: T) => string;
  searchLabel?: string;
  initialSort?: { key: string; direction: 'asc' | 'desc' };
  emptyText?: string;
  /** Rows per page; the tenant's list page size by default (spec 000 section 1). */
  pageSize?: number;
  toolbar?: ReactNode;
}

type Direction = 'asc' | 'desc';

/**
 * A list screen over rows already loaded (users, the audit log, the outbox, …): search, sortable columns, paging.
 * It is the generic list's table (`screens/list-table.tsx`) over rows in memory: the same framed table, the same
 * sort header (`SortButton`), the same pager and the same empty row, so a hand-written list looks and reads like
 * every generic one (decision 0073).
 */
export function ClientTable<T>({
  label,
  rows,
  columns,
  rowKey,
  searchText,
  searchLabel = 'Search',
  initialSort,
  emptyText = 'Nothing here yet.',
  pageSize,
  toolbar,
}: Props<T>) {
  const me = useIdentity();
  const size = pageSize ?? me.tenant.settings.listPageSize;
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, LIST_SEARCH_DEBOUNCE_MS);
  const [sort, setSort] = useState<{ key: string; direction: Direction } | null>(initialSort ?? null);
  const [page, setPage] = useState(1);

  const filtered = useMemo(() => {
    const needle = debounced.trim().toLowerCase();
    let out = rows;
    if (needle && searchText) out = out.filter((row) => searchText(row).toLowerCase().includes(needle));
    const column = sort ? columns.find((c) => c.key === sort.key) : undefined;
    if (sort && column?.sortValue) {
      const get = column.sortValue;
      const factor = sort.direction === 'asc' ? 1 : -1;
      out = [...out].sort((a, b) => {
        const va = get(a);
        const vb = get(b);
        if (va === vb) return 0;
        if (va === null) return 1;
        if (vb === null) return -1;
        if (typeof va === 'number' && typeof vb === 'number') return (va - vb) * factor;
        return (
          String(va).localeCompare(String(vb), undefined, { sensitivity: 'base', numeric: true }) * factor
        );
      });
    }
    return out;
  }, [rows, debounced, searchText, sort, columns]);

  const pages = Math.max(1, Math.ceil(filtered.length / size));
  const current = Math.min(page, pages);
  const visible = filtered.slice((current - 1) * size, current * size);

  const toggleSort = (key: string) => {
    setPage(1);
    setSort((prev) => {
      if (prev?.key !== key) return { key, direction: 'asc' };
      return { key, direction: prev.direction === 'asc' ? 'desc' : 'asc' };
    });
  };

  return (
    <div>
      {searchText || toolbar ? (
        <Group mb="sm" justify="space-between" align="flex-end" wrap="wrap">
          {searchText ? (
            <TextInput
              type="search"
              label={searchLabel}
              placeholder={searchLabel}
              labelProps={{ className: 'visually-hidden' }}
              leftSection={<IconSearch size={16} aria-hidden />}
              value={search}
              onChange={(e) => {
                setSearch(e.currentTarget.value);
                setPage(1);
              }}
              w={{ base: '100%', sm: 320 }}
            />
          ) : null}
          {toolbar}
        </Group>
      ) : null}
      <Paper withBorder>
        <Table.ScrollContainer minWidth={560}>
          <Table highlightOnHover verticalSpacing="xs" aria-label={label}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((column) => {
                  const sorted = sort?.key === column.key ? sort.direction : null;
                  return (
                    <Table.Th
                      key={column.key}
                      scope="col"
                      ta={column.align}
                      visibleFrom={column.visibleFrom}
                      aria-sort={
                        sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined
                      }
                    >
                      {column.sortValue ? (
                        <SortButton
                          title={column.header}
                          direction={sorted}
                          align={column.align}
                          onSort={() => toggleSort(column.key)}
                        />
                      ) : (
                        column.header
                      )}
                    </Table.Th>
                  );
                })}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {visible.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={columns.length}>
                    <Text c="dimmed" size="sm" py="md" ta="center">
                      {debounced.trim() ? `Nothing matches “${debounced.trim()}”.` : emptyText}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                visible.map((row) => (
                  <Table.Tr key={rowKey(row)}>
                    {columns.map((column) => (
                      <Table.Td key={column.key} ta={column.align} visibleFrom={column.visibleFrom}>
                        {column.render(row)}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <Group justify="space-between" mt="sm" wrap="wrap">
        <Text size="sm" c="dimmed" role="status" aria-live="polite">
          {filtered.length === rows.length
            ? `${rows.length} ${rows.length === 1 ? 'record' : 'records'}`
            : `${filtered.length} of ${rows.length} records`}
        </Text>
        <Pager pages={pages} page={current} onPage={setPage} />
      </Group>
    </div>
  );
}
