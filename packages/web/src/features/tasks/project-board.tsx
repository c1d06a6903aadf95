/**
 * A project's board: one column per task status, cards dragged between and within columns with a mouse, a finger
 * or the keyboard (focus a card, Space to lift it, arrows to move it, Space to drop it; @dnd-kit announces each move
 * to screen readers). A move the server refuses (the task waits on unfinished tasks) springs back with its reason.
 */
import {
  closestCorners,
  DndContext,
  type DragEndEvent,
  type DragOverEvent,
  KeyboardSensor,
  PointerSensor,
  useDroppable,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { displayTimeZone, TASK_STATUSES, type TaskCard } from '@guildhall/shared';
import { Anchor, Badge, Group, Paper, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { useIdentity } from '../../platform/identity.ts';
import type { RecordActionProps } from '../../platform/modules/web-module.ts';
import { notifyError } from '../../platform/notify.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { DueText, PriorityBadge } from './task-bits.tsx';
import { taskPath, tasksApi } from './tasks-api.ts';

type Columns = Record<string, TaskCard[]>;

const columnsOf = (cards: readonly TaskCard[]): Columns =>
  Object.fromEntries(TASK_STATUSES.map((s) => [s.Id, cards.filter((c) => c.Status === s.Id)]));

function Card({ card, timeZone }: { card: TaskCard; timeZone: string }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({
    id: card.TaskId,
  });
  return (
    <Paper
      ref={setNodeRef}
      {...attributes}
      {...listeners}
      withBorder
      p="xs"
      radius="sm"
      shadow={isDragging ? 'md' : 'xs'}
      aria-label={`${card.Title}, ${TASK_STATUSES.find((s) => s.Id === card.Status)?.Name ?? card.Status}`}
      data-testid="board-card"
      data-task-id={card.TaskId}
      style={{
        transform: CSS.Transform.toString(transform),
        transition,
        opacity: isDragging ? 0.6 : 1,
        cursor: 'grab',
        touchAction: 'none',
      }}
    >
      <Stack gap={4}>
        <Anchor
          component={Link}
          to={taskPath(card.TaskId)}
          size="sm"
          fw={500}
          onPointerDown={(e) => e.stopPropagation()}
        >
          {card.Title}
        </Anchor>
        <DueText card={card} timeZone={timeZone} />
        <Group gap={4}>
          <PriorityBadge priority={card.Priority} />
          {card.ChecklistTotal > 0 ? (
            <Badge size="sm" variant="outline" color="gray">
              {card.ChecklistDone}/{card.ChecklistTotal}
            </Badge>
          ) : null}
        </Group>
        {card.AssigneeNames ? (
          <Text size="xs" c="dimmed">
            {card.AssigneeNames}
          </Text>
        ) : null}
        {card.WaitingOn.length > 0 ? (
          <Text size="xs" c="orange.8">
            Waits on {card.WaitingOn.join(', ')}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

function Column({
  status,
  title,
  cards,
  timeZone,
}: {
  status: string;
  title: string;
  cards: TaskCard[];
  timeZone: string;
}) {
  const { setNodeRef, isOver } = useDroppable({ id: `column:${status}` });
  return (
    <Paper
      ref={setNodeRef}
      bg={isOver ? 'blue.0' : 'gray.0'}
      p="xs"
      radius="md"
      w={214}
      miw={214}
      data-testid={`board-column-${status}`}
      aria-label={`${title} column`}
      component="section"
    >
      <Group justify="space-between" mb="xs">
        <Title order={4} size="sm">
          {title}
        </Title>
        <Badge size="sm" variant="light" color="gray">
          {cards.length}
        </Badge>
      </Group>
      <SortableContext items={cards.map((c) => c.TaskId)} strategy={verticalListSortingStrategy}>
        <Stack gap="xs" mih={80}>
          {cards.map((c) => (
            <Card key={c.TaskId} card={c} timeZone={timeZone} />
          ))}
        </Stack>
      </SortableContext>
    </Paper>
  );
}

/** Where a dragged card is over: a column's id ("column:todo") or another card's id. */
function columnOfTarget(columns: Columns, over: string | number): string | null {
  if (typeof over === 'string' && over.startsWith('column:')) return over.slice('column:'.length);
  for (const [status, cards] of Object.entries(columns))
    if (cards.some((c) => c.TaskId === over)) return status;
  return null;
}

export function ProjectBoard({ projectId }: { projectId: number }) {
  const me = useIdentity();
  const queryClient = useQueryClient();
  const key = ['tasks', 'board', projectId];
  const board = useQuery({ queryKey: key, queryFn: () => tasksApi.board(projectId) });
  const [columns, setColumns] = useState<Columns | null>(null);
  useEffect(() => {
    if (board.data) setColumns(columnsOf(board.data.Tasks));
  }, [board.data]);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  if (board.error) return <ErrorBlock error={board.error} onRetry={() => void board.refetch()} />;
  if (!board.data || !columns) return <LoadingBlock />;

  const onDragOver = ({ active, over }: DragOverEvent) => {
    if (!over) return;
    const from = columnOfTarget(columns, active.id);
    const to = columnOfTarget(columns, over.id);
    if (!from || !to || from === to) return;
    // Show the card in the column it is over while it is dragged.
    const card = columns[from]?.find((c) => c.TaskId === active.id);
    if (!card) return;
    const target = [...(columns[to] ?? [])];
    const at = target.findIndex((c) => c.TaskId === over.id);
    target.splice(at < 0 ? target.length : at, 0, { ...card, Status: to });
    setColumns({
      ...columns,
      [from]: (columns[from] ?? []).filter((c) => c.TaskId !== active.id),
      [to]: target,
    });
  };

  const onDragEnd = async ({ active, over }: DragEndEvent) => {
    const original = board.data?.Tasks.find((c) => c.TaskId === active.id);
    if (!over || !original) {
      setColumns(columnsOf(board.data?.Tasks ?? []));
      return;
    }
    const to = columnOfTarget(columns, over.id);
    if (!to) return;
    const list = (columns[to] ?? []).filter((c) => c.TaskId !== active.id);
    const overIndex = list.findIndex((c) => c.TaskId === over.id);
    const currentIndex = (columns[to] ?? []).findIndex((c) => c.TaskId === active.id);
    // Dropped on a card: before it when coming from above in the same column, else at its place.
    const insertAt =
      overIndex < 0
        ? list.length
        : currentIndex >= 0 && currentIndex <= overIndex
          ? overIndex + 1
          : overIndex;
    const before = list[insertAt]?.TaskId ?? null;
    const card = { ...original, Status: to };
    list.splice(insertAt, 0, card);
    setColumns({ ...columns, [to]: list });
    try {
      await tasksApi.move({ TaskId: original.TaskId, Status: to, BeforeTaskId: before });
    } catch (error) {
      notifyError(error, 'The task was not moved');
      setColumns(columnsOf(board.data?.Tasks ?? []));
    }
    await queryClient.invalidateQueries({ queryKey: ['tasks'] });
    await queryClient.invalidateQueries({ queryKey: ['record'] });
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCorners}
      onDragOver={onDragOver}
      onDragEnd={onDragEnd}
    >
      <ScrollArea type="auto" offsetScrollbars>
        <Group align="flex-start" wrap="nowrap" gap="sm" pb="sm">
          {TASK_STATUSES.map((s) => (
            <Column
              key={s.Id}
              status={s.Id}
              title={s.Name}
              cards={columns[s.Id] ?? []}
              timeZone={displayTimeZone(me)}
            />
          ))}
        </Group>
      </ScrollArea>
    </DndContext>
  );
}

/** The project record's Board tab. */
export default function ProjectBoardTab({ recordId }: RecordActionProps) {
  return <ProjectBoard projectId={Number(recordId)} />;
}
