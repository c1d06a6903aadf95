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

/** A badge in a narrow table column keeps its whole word (the column grows) instead of ending in an ellipsis. */
const NEVER_CUT = { flexShrink: 0, minWidth: 'max-content' } as const;

export function PriorityBadge({ priority }: { priority: string }) {
  return (
    <Badge size="sm" variant="light" color={PRIORITY_COLORS[priority] ?? 'gray'} style={NEVER_CUT}>
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
    <Group gap={4} wrap="wrap">
      <Text size="sm" c={color} fw={card.DueState === 'overdue' ? 600 : undefined}>
        {formatInstant(card.DueAt, timeZone)}
      </Text>
      {card.DueState === 'overdue' ? (
        <Badge size="xs" color="red" variant="filled" style={NEVER_CUT}>
          Overdue
        </Badge>
      ) : card.DueState === 'today' ? (
        <Badge size="xs" color="orange" variant="light" style={NEVER_CUT}>
          Today
        </Badge>
      ) : null}
    </Group>
  );
}
