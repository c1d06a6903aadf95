import {
  type AuditEntry,
  auditChanges,
  auditMergedName,
  auditRecordText,
  displayTimeZone,
} from '@guildhall/shared';
import { Code, Group, Modal, Select, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../platform/api-client.ts';
import { ClientTable, type Column } from '../../platform/client-table.tsx';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { formatDateTime } from '../../platform/format.ts';
import { useIdentity } from '../../platform/identity.ts';
import { LoadingBlock, PageHeader, RequirePermission } from '../../platform/page.tsx';
import { resourceByName } from '../../platform/screens/resources.ts';

const LIMITS = ['100', '500', '1000'];

export function AuditPage() {
  return (
    <RequirePermission permission="audit.read" flag="auditLog">
      <AuditScreen />
    </RequirePermission>
  );
}

/** "Contact Adams, William (A0000138)": the entry's record by its name, never its internal id. */
function recordText(e: AuditEntry, timeZone: string): string {
  return auditRecordText(resourceByName(e.entity), e.entity, e.before, e.after, timeZone);
}

/** The entry's changes, field by field, with the fields' labels and values as the screens show them. */
function AuditChanges({ entry }: { entry: AuditEntry }) {
  const resource = resourceByName(entry.entity);
  const changes = auditChanges(resource, entry.before, entry.after);
  const absorbed = entry.action === 'merge' ? auditMergedName(resource, entry.before) : null;
  return (
    <Stack gap="xs">
      {absorbed ? (
        <Text size="sm">Absorbed {absorbed}, whose contact info, links, notes and history moved here.</Text>
      ) : null}
      {changes.length === 0 ? (
        <Text size="sm" c="dimmed">
          No field changed.
        </Text>
      ) : (
        <Table withTableBorder withColumnBorders aria-label="Changes">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Field</Table.Th>
              <Table.Th>Before</Table.Th>
              <Table.Th>After</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {changes.map((c) => (
              <Table.Tr key={c.field}>
                <Table.Td fw={600}>{c.label}</Table.Td>
                <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{c.before}</Table.Td>
                <Table.Td style={{ whiteSpace: 'pre-wrap' }}>{c.after}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}

function AuditScreen() {
  const me = useIdentity();
  const tz = displayTimeZone(me);
  const [limit, setLimit] = useState('100');
  const [selected, setSelected] = useState<AuditEntry | null>(null);
  const query = useQuery({
    queryKey: ['audit', limit],
    queryFn: ({ signal }) => api.get<AuditEntry[]>(`/api/audit?limit=${limit}`, { signal }),
    placeholderData: keepPreviousData,
  });

  const columns: Column<AuditEntry>[] = [
    {
      key: 'at',
      header: 'When',
      sortValue: (e) => e.at,
      render: (e) => (
        <UnstyledButton
          onClick={() => setSelected(e)}
          fz="sm"
          c="var(--mantine-primary-color-filled)"
          td="underline"
          aria-label={`Details of ${e.action} at ${formatDateTime(e.at, tz, 'second')}`}
        >
          {formatDateTime(e.at, tz, 'second')}
        </UnstyledButton>
      ),
    },
    {
      key: 'who',
      header: 'Who',
      sortValue: (e) => e.actorUsername,
      render: (e) => (
        <div>
          <Text size="sm">{e.actorUsername ?? 'System'}</Text>
          {e.onBehalfOfUsername && e.onBehalfOfUsername !== e.actorUsername ? (
            <Text size="xs" c="color-mix(in srgb, var(--mantine-color-orange-9), black 35%)">
              working as {e.onBehalfOfUsername}
            </Text>
          ) : null}
        </div>
      ),
    },
    { key: 'action', header: 'Action', sortValue: (e) => e.action, render: (e) => <Code>{e.action}</Code> },
    {
      key: 'entity',
      header: 'Record',
      sortValue: (e) => e.entity,
      render: (e) => recordText(e, tz),
      visibleFrom: 'sm',
    },
  ];

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Who did what, and when. When a staff member worked as someone else, both names are kept."
      />
      {query.isPending ? <LoadingBlock label="Loading the audit log" /> : null}
      {query.isError ? <ErrorBlock error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.data ? (
        <ClientTable
          label="Audit log"
          rows={query.data}
          columns={columns}
          rowKey={(e) => e.id}
          searchText={(e) =>
            `${e.actorUsername ?? ''} ${e.onBehalfOfUsername ?? ''} ${e.action} ${recordText(e, tz)}`
          }
          searchLabel="Search the audit log"
          initialSort={{ key: 'at', direction: 'desc' }}
          emptyText="Nothing recorded yet."
          toolbar={
            <Group gap="xs">
              <Select
                label="Entries loaded"
                data={LIMITS}
                value={limit}
                onChange={(v) => v && setLimit(v)}
                allowDeselect={false}
                w={150}
              />
            </Group>
          }
        />
      ) : null}
      <Modal opened={!!selected} onClose={() => setSelected(null)} title="Audit entry" size="xl">
        {selected ? (
          <Stack gap="sm">
            <Text size="sm">
              <strong>{selected.actorUsername ?? 'System'}</strong>
              {selected.onBehalfOfUsername && selected.onBehalfOfUsername !== selected.actorUsername
                ? ` working as ${selected.onBehalfOfUsername}`
                : ''}{' '}
              · <Code>{selected.action}</Code> · {recordText(selected, tz)} ·{' '}
              {formatDateTime(selected.at, tz, 'second')}
            </Text>
            <AuditChanges entry={selected} />
          </Stack>
        ) : null}
      </Modal>
    </>
  );
}
