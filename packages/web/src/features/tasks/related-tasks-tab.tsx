/** A record's related tasks: a contact's (the tasks whose related contact it is) and an event's. */
import {
  displayTimeZone,
  FILTER_ADVANCED,
  formatInstant,
  type Model,
  tasksResource,
} from '@guildhall/shared';
import { Anchor, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { useIdentity } from '../../platform/identity.ts';
import type { RecordActionProps } from '../../platform/modules/web-module.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { fetchList } from '../../platform/screens/screens-api.ts';
import { PriorityBadge, statusName } from './task-bits.tsx';
import { taskPath } from './tasks-api.ts';

export default function ContactTasksTab({ recordId }: RecordActionProps) {
  return (
    <RelatedTasks
      field="ContactId"
      recordId={recordId}
      intro="Tasks about this contact: a call to make, a renewal to chase, a letter to send."
      empty="No task relates to this contact."
    />
  );
}

/**
 * The tasks whose `field` (ContactId, EventId) names the record, soonest due first, with a New task button whose form
 * starts with the record filled in.
 */
export function RelatedTasks({
  field,
  recordId,
  intro,
  empty,
}: {
  field: 'ContactId' | 'EventId';
  recordId: RecordActionProps['recordId'];
  intro: string;
  empty: string;
}) {
  const me = useIdentity();
  const tasks = useQuery({
    queryKey: ['tasks', field, recordId],
    queryFn: () =>
      fetchList(tasksResource, {
        skip: 0,
        top: 100,
        sort: { columnName: 'DueAt', direction: 'asc' },
        search: '',
        filterId: FILTER_ADVANCED,
        criteria: [{ PropertyName: field, Operator: 'eq', Value: Number(recordId) }],
      }),
  });
  if (tasks.error) return <ErrorBlock error={tasks.error} onRetry={() => void tasks.refetch()} />;
  if (!tasks.data) return <LoadingBlock />;
  const rows = tasks.data.Results as Model[];
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {intro}
        </Text>
        <Button
          component={Link}
          to={`/micronet/list/tasks/tasks/new?${field}=${encodeURIComponent(String(recordId))}&Status=todo&Priority=normal`}
          size="xs"
          variant="default"
        >
          New task
        </Button>
      </Group>
      {rows.length === 0 ? (
        <Text c="dimmed">{empty}</Text>
      ) : (
        <Table striped verticalSpacing="xs" aria-label="Related tasks">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Task</Table.Th>
              <Table.Th>Due</Table.Th>
              <Table.Th>Priority</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Assignees</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((t) => (
              <Table.Tr key={String(t.TaskId)}>
                <Table.Td>
                  <Anchor component={Link} to={taskPath(Number(t.TaskId))} size="sm">
                    {String(t.Title)}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">
                    {typeof t.DueAt === 'string' ? formatInstant(t.DueAt, displayTimeZone(me)) : ''}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <PriorityBadge priority={String(t.Priority)} />
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{statusName(String(t.Status))}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{typeof t.AssigneeNames === 'string' ? t.AssigneeNames : ''}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
