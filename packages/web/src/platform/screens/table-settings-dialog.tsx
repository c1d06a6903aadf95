import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { COLUMN_DISPLAY_MODES, modalZIndex } from '@guildhall/shared';
import { ActionIcon, Button, Checkbox, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconGripVertical, IconLock } from '@tabler/icons-react';
import { useState } from 'react';
import type { ColumnMode, ColumnView } from './list-columns.ts';

const MODES = Object.entries(COLUMN_DISPLAY_MODES).map(([label, value]) => ({ value: String(value), label }));

/** Column order (drag, or the arrow buttons), visibility and display mode; selector and action columns are fixed. */
export default function TableSettingsDialog(props: {
  columns: ColumnView[];
  onClose: () => void;
  onSave: (columns: ColumnView[]) => void | Promise<void>;
}) {
  const [columns, setColumns] = useState(() => props.columns.filter((c) => !c.fixed));
  const fixed = props.columns.filter((c) => c.fixed);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    setColumns((cs) => {
      const from = cs.findIndex((c) => c.field === active.id);
      const to = cs.findIndex((c) => c.field === over.id);
      return arrayMove(cs, from, to);
    });
  };
  const patch = (field: string, p: Partial<ColumnView>) =>
    setColumns((cs) => cs.map((c) => (c.field === field ? { ...c, ...p } : c)));
  const move = (index: number, by: number) =>
    setColumns((cs) => (index + by < 0 || index + by >= cs.length ? cs : arrayMove(cs, index, index + by)));
  return (
    <Modal opened onClose={props.onClose} title="Table settings" centered size="lg" zIndex={modalZIndex(0)}>
      <Stack gap="xs">
        <Text size="sm" c="dimmed">
          Drag the columns into the order you want, choose which show and how their text fits.
        </Text>
        <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
          <SortableContext items={columns.map((c) => c.field)} strategy={verticalListSortingStrategy}>
            <Stack
              gap={4}
              component="ul"
              style={{ listStyle: 'none', padding: 0, margin: 0 }}
              aria-label="Columns"
            >
              {columns.map((c, index) => (
                <SortableRow
                  key={c.field}
                  column={c}
                  first={index === 0}
                  last={index === columns.length - 1}
                  onMove={(by) => move(index, by)}
                  onPatch={(p) => patch(c.field, p)}
                />
              ))}
            </Stack>
          </SortableContext>
        </DndContext>
        {fixed.length > 0 ? (
          <Group gap="xs" c="dimmed">
            <IconLock size={14} aria-hidden />
            <Text size="sm">
              Always shown and not movable: the row selector and{' '}
              {fixed.map((c) => c.title || 'Actions').join(', ')}.
            </Text>
          </Group>
        ) : null}
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={props.onClose}>
            Cancel
          </Button>
          <Button onClick={() => void props.onSave([...columns, ...fixed])}>Save</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function SortableRow(props: {
  column: ColumnView;
  first: boolean;
  last: boolean;
  onMove: (by: number) => void;
  onPatch: (p: Partial<ColumnView>) => void;
}) {
  const { column: c } = props;
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: c.field,
  });
  return (
    <li
      ref={setNodeRef}
      data-column={c.field}
      style={{
        transform: CSS.Transform.toString(transform),
        transition,
        background: isDragging ? 'var(--mantine-color-guild-0)' : undefined,
        border: '1px solid var(--mantine-color-gray-3)',
        borderRadius: 6,
        padding: '4px 8px',
      }}
    >
      <Group gap="xs" wrap="nowrap">
        <ActionIcon
          variant="subtle"
          color="gray"
          aria-label={`Drag ${c.title}`}
          {...attributes}
          {...listeners}
          style={{ cursor: 'grab' }}
        >
          <IconGripVertical size={16} aria-hidden />
        </ActionIcon>
        <Checkbox
          label={`Show ${c.title}`}
          checked={c.visible}
          onChange={(e) => props.onPatch({ visible: e.currentTarget.checked })}
          style={{ flex: 1 }}
        />
        <Select
          aria-label={`Display mode of ${c.title}`}
          data={MODES}
          value={String(c.mode)}
          allowDeselect={false}
          w={120}
          size="xs"
          comboboxProps={{ zIndex: modalZIndex(1) }}
          onChange={(v) => props.onPatch({ mode: Number(v ?? 0) as ColumnMode })}
        />
        <ActionIcon
          variant="subtle"
          aria-label={`Move ${c.title} up`}
          disabled={props.first}
          onClick={() => props.onMove(-1)}
        >
          <IconArrowUp size={16} aria-hidden />
        </ActionIcon>
        <ActionIcon
          variant="subtle"
          aria-label={`Move ${c.title} down`}
          disabled={props.last}
          onClick={() => props.onMove(1)}
        >
          <IconArrowDown size={16} aria-hidden />
        </ActionIcon>
      </Group>
    </li>
  );
}
