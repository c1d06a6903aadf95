/** My tasks: the signed-in user's tasks, soonest due first, with what they wait on. */
import type { TaskCard } from '@guildhall/shared';
import { displayTimeZone } from '@guildhall/shared';
import { Anchor, Badge, Button, Group, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { useIdentity } from '../../platform/identity.ts';
import { LoadingBlock, PageHeader } from '../../platform/page.tsx';
import { DueText, PriorityBadge, statusName } from './task-bits.tsx';
import { projectPath, taskPath, tasksApi } from './tasks-api.ts';

function Counts({
  overdue,
  today,
  week,
  open,
}: {
  overdue: number;
  today: number;
  week: number;
  open: number;
}) {
  return (
    <Group gap="xs">
      <Badge color={overdue > 0 ? 'red' : 'gray'} variant={overdue > 0 ? 'filled' : 'light'} size="lg">
        {overdue} overdue
      </Badge>
      <Badge color="orange" variant="light" size="lg">
        {today} due today
      </Badge>
      <Badge color="blue" variant="light" size="lg">
        {week} due this week
      </Badge>
      <Badge color="gray" variant="light" size="lg">
        {open} open
      </Badge>
    </Group>
  );
}

export function TaskTable({ tasks, timeZone }: { tasks: TaskCard[]; timeZone: string }) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label="Tasks">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Task</Table.Th>
            <Table.Th>Project</Table.Th>
            <Table.Th>Due</Table.Th>
            <Table.Th>Priority</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Assignees</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {tasks.map((t) => (
            <Table.Tr key={t.TaskId} data-testid="my-task">
              <Table.Td>
                <Anchor component={Link} to={taskPath(t.TaskId)} fw={500}>
                  {t.Title}
                </Anchor>
                {t.WaitingOn.length > 0 ? (
                  <Text size="xs" c="dimmed">
                    Waits on {t.WaitingOn.join(', ')}
                  </Text>
                ) : null}
                {t.ChecklistTotal > 0 ? (
                  <Text size="xs" c="dimmed">
                    Checklist {t.ChecklistDone}/{t.ChecklistTotal}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>
                {t.ProjectId && t.ProjectName ? (
                  <Anchor component={Link} to={projectPath(t.ProjectId)} size="sm">
                    {t.ProjectName}
                  </Anchor>
                ) : (
                  <Text size="sm" c="dimmed">
                    None
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <DueText card={t} timeZone={timeZone} />
              </Table.Td>
              <Table.Td>
                <PriorityBadge priority={t.Priority} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{statusName(t.Status)}</Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{t.AssigneeNames ?? ''}</Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function MyTasksPage() {
  const me = useIdentity();
  const [include, setInclude] = useState<'open' | 'all'>('open');
  const my = useQuery({ queryKey: ['tasks', 'my', include], queryFn: () => tasksApi.my(include) });
  return (
    <>
      <PageHeader
        title="My tasks"
        description="The tasks assigned to you, soonest due first"
        actions={
          <>
            <Button component={Link} to="/micronet/list/tasks/tasks/new" variant="default">
              New task
            </Button>
            <Button component={Link} to="/a/tasks/from-template" variant="default">
              New project from a template
            </Button>
          </>
        }
      />
      {my.error ? (
        <ErrorBlock error={my.error} onRetry={() => void my.refetch()} />
      ) : !my.data ? (
        <LoadingBlock />
      ) : (
        <Stack gap="md">
          <Group justify="space-between">
            <Counts
              overdue={my.data.Overdue}
              today={my.data.DueToday}
              week={my.data.DueThisWeek}
              open={my.data.Open}
            />
            <SegmentedControl
              value={include}
              onChange={(v) => setInclude(v === 'all' ? 'all' : 'open')}
              data={[
                { value: 'open', label: 'Open' },
                { value: 'all', label: 'All, done included' },
              ]}
              aria-label="Which tasks"
            />
          </Group>
          {my.data.Tasks.length === 0 ? (
            <Text c="dimmed">Nothing assigned to you{include === 'open' ? ' is open' : ''}. Well done.</Text>
          ) : (
            <TaskTable tasks={my.data.Tasks} timeZone={displayTimeZone(me)} />
          )}
        </Stack>
      )}
    </>
  );
}
