/** A project's activity: who created, changed or moved the project and its tasks, newest first. */
import { Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ErrorBlock } from '../../platform/error-block.tsx';
import type { RecordActionProps } from '../../platform/modules/web-module.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { tasksApi } from './tasks-api.ts';

export default function ProjectActivityTab({ recordId }: RecordActionProps) {
  const activity = useQuery({
    queryKey: ['tasks', 'activity', recordId],
    queryFn: () => tasksApi.activity(recordId),
  });
  if (activity.error) return <ErrorBlock error={activity.error} onRetry={() => void activity.refetch()} />;
  if (!activity.data) return <LoadingBlock />;
  if (activity.data.Entries.length === 0) return <Text c="dimmed">Nothing has happened here yet.</Text>;
  return (
    <Table striped verticalSpacing="xs" aria-label="Activity">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>When</Table.Th>
          <Table.Th>Who</Table.Th>
          <Table.Th>What</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {activity.data.Entries.map((e, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: entries have no id of their own and never reorder
          <Table.Tr key={i}>
            <Table.Td>
              <Text size="sm">{e.At}</Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">{e.Who}</Text>
            </Table.Td>
            <Table.Td>
              <Text size="sm">
                {e.Action} {e.What}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
