import { Group, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowsSort, IconArrowUp } from '@tabler/icons-react';

/**
 * A sortable column header's button: the title and an arrow for the current direction. The one header of every
 * table, the generic list's (`ListTable`) and the loaded rows' (`ClientTable`) alike.
 */
export function SortButton(props: {
  title: string;
  direction: 'asc' | 'desc' | undefined | null;
  onSort: () => void;
  /** A right-aligned column (amounts) keeps its arrow at the right edge. */
  align?: 'left' | 'right';
}) {
  return (
    <UnstyledButton onClick={props.onSort} aria-label={`Sort by ${props.title}`} fw={600} fz="sm">
      <Group gap={4} wrap="nowrap" justify={props.align === 'right' ? 'flex-end' : undefined}>
        {props.title}
        {props.direction === 'asc' ? (
          <IconArrowUp size={14} aria-hidden />
        ) : props.direction === 'desc' ? (
          <IconArrowDown size={14} aria-hidden />
        ) : (
          <IconArrowsSort size={14} aria-hidden opacity={0.5} />
        )}
      </Group>
    </UnstyledButton>
  );
}
