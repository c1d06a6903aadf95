import { displayTimeZone } from '@guildhall/shared';
/** The dashboard's My tasks widget: overdue and due this week, and the next few to do. */
import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useIdentity } from '../../platform/identity.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { DueText } from './task-bits.tsx';
import { taskPath, tasksApi } from './tasks-api.ts';

export default function MyTasksWidget() {
  const me = useIdentity();
  const my = useQuery({ queryKey: ['tasks', 'my', 'open'], queryFn: () => tasksApi.my('open') });
  if (my.error)
    return (
      <Text size="sm" c="red">
        This widget could not be loaded.
      </Text>
    );
  if (!my.data) return <LoadingBlock />;
  const next = my.data.Tasks.filter((t) => t.DueState !== 'none').slice(0, 4);
  return (
    <Stack gap="xs" data-testid="my-tasks-widget">
      <Group gap="xs">
        <Badge
          color={my.data.Overdue > 0 ? 'red' : 'gray'}
          variant={my.data.Overdue > 0 ? 'filled' : 'light'}
        >
          {my.data.Overdue} overdue
        </Badge>
        <Badge color="blue" variant="light">
          {my.data.DueThisWeek} due this week
        </Badge>
      </Group>
      {next.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing due. Enjoy the quiet.
        </Text>
      ) : (
        next.map((t) => (
          <Stack key={t.TaskId} gap={0}>
            <Anchor component={Link} to={taskPath(t.TaskId)} size="sm" lineClamp={1} fw={500}>
              {t.Title}
            </Anchor>
            <DueText card={t} timeZone={displayTimeZone(me)} />
          </Stack>
        ))
      )}
      <Anchor component={Link} to="/a/tasks/my" size="sm">
        All my tasks
      </Anchor>
    </Stack>
  );
}
