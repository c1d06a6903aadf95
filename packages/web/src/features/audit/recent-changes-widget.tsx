import { type AuditEntry, auditRecordText, displayTimeZone } from '@guildhall/shared';
import { Anchor, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { formatDateTime } from '../../platform/format.ts';
import { useIdentity } from '../../platform/identity.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { resourceByName } from '../../platform/screens/resources.ts';

const RECENT = 6;

/** The latest changes of the audit log: what, to which record (by its name, never its internal id), by whom and when. */
export default function RecentChangesWidget() {
  const me = useIdentity();
  const recent = useQuery({
    queryKey: ['dashboard', 'audit.recent'],
    queryFn: ({ signal }) => api.get<AuditEntry[]>(`/api/audit?limit=${RECENT}`, { signal }),
  });
  if (recent.error)
    return (
      <Text size="sm" c="red">
        This widget could not be loaded.
      </Text>
    );
  if (!recent.data) return <LoadingBlock />;
  return (
    <Stack gap={6}>
      <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {recent.data.map((e) => (
          <li key={e.id}>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text size="sm" truncate="end">
                {e.action}{' '}
                {auditRecordText(resourceByName(e.entity), e.entity, e.before, e.after, displayTimeZone(me))}
              </Text>
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {formatDateTime(e.at, displayTimeZone(me))}
              </Text>
            </Group>
            <Text size="xs" c="dimmed">
              {e.actorUsername ?? 'system'}
              {e.onBehalfOfUsername ? ` for ${e.onBehalfOfUsername}` : ''}
            </Text>
          </li>
        ))}
      </Stack>
      {recent.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          No changes yet.
        </Text>
      ) : null}
      <Anchor component={Link} to="/a/audit" size="sm">
        Audit log
      </Anchor>
    </Stack>
  );
}
