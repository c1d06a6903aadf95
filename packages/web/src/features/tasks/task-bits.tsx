/** Small pieces the tasks screens share: a task's due time, priority and status as badges. */
import { formatInstant, TASK_PRIORITIES, TASK_STATUSES, type TaskCard } from '@guildhall/shared';
import { Badge, Group, Text } from '@mantine/core';

const PRIORITY_COLORS: Record<string, string> = {
  low: 'gray',
  normal: 'blue',
  high: 'orange',
  urgent: 'red',
};

export const statusName = (id: string) => TASK_STATUSES.find((s) => s.Id === id)?.Name ?? id;
export const priorityName = (id: string) => TASK_PRIORITIES.find((p) => p.Id === id)?.Name ?? id;

export function PriorityBadge({ priority }: { priority: string }) {
  return (
    <Badge size="sm" variant="light" color={PRIORITY_COLORS[priority] ?? 'gray'}>
      {priorityName(priority)}
    </Badge>
  );
}

/** The due time in the association's timezone, red when overdue, orange when due today. */
export function DueText({
  card,
  timeZone,
}: {
  card: Pick<TaskCard, 'DueAt' | 'DueState'>;
  timeZone: string;
}) {
  if (!card.DueAt)
    return (
      <Text size="sm" c="dimmed">
        No due date
      </Text>
    );
  const color = card.DueState === 'overdue' ? 'red' : card.DueState === 'today' ? 'orange' : undefined;
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm" c={color} fw={card.DueState === 'overdue' ? 600 : undefined}>
        {formatInstant(card.DueAt, timeZone)}
      </Text>
      {card.DueState === 'overdue' ? (
        <Badge size="xs" color="red" variant="filled">
          Overdue
        </Badge>
      ) : card.DueState === 'today' ? (
        <Badge size="xs" color="orange" variant="light">
          Today
        </Badge>
      ) : null}
    </Group>
  );
}
