import { Pagination } from '@mantine/core';

const CONTROL_LABELS: Record<string, string> = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
};

/** Page buttons under a list, report or table: nothing when there is one page; every button named for readers. */
export function Pager(props: { pages: number; page: number; onPage: (page: number) => void }) {
  if (props.pages <= 1) return null;
  return (
    <Pagination
      total={props.pages}
      value={props.page}
      onChange={props.onPage}
      size="sm"
      getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] ?? control })}
      getItemProps={(page) => ({
        'aria-label': `Page ${page}`,
        'aria-current': page === props.page ? 'page' : undefined,
      })}
    />
  );
}
