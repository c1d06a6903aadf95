import { displayTimeZone } from '@guildhall/shared';
import { Anchor, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { ClientTable, type Column } from '../../platform/client-table.tsx';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { formatDateTime } from '../../platform/format.ts';
import { useIdentity } from '../../platform/identity.ts';
import { LoadingBlock, PageHeader, RequirePermission } from '../../platform/page.tsx';
import { SoftBadge } from '../../platform/soft-badge.tsx';

export interface OutboxRow {
  id: number | string;
  to: string;
  subject: string;
  createdAt: string;
  sentAt: string | null;
}

export const outboxKey = ['mail', 'outbox'] as const;

export function OutboxPage() {
  return (
    <RequirePermission permission="mail.read" flag="outbox">
      <OutboxScreen />
    </RequirePermission>
  );
}

function OutboxScreen() {
  const me = useIdentity();
  const tz = displayTimeZone(me);
  const query = useQuery({
    queryKey: outboxKey,
    queryFn: ({ signal }) => api.get<OutboxRow[]>('/api/mail/outbox', { signal }),
  });
  const columns: Column<OutboxRow>[] = [
    {
      key: 'subject',
      header: 'Subject',
      sortValue: (m) => m.subject,
      render: (m) => (
        <Anchor component={Link} to={`/a/outbox/${encodeURIComponent(String(m.id))}`} size="sm" fw={600}>
          {m.subject || '(no subject)'}
        </Anchor>
      ),
    },
    { key: 'to', header: 'To', sortValue: (m) => m.to, render: (m) => m.to },
    {
      key: 'created',
      header: 'Created',
      sortValue: (m) => m.createdAt,
      render: (m) => formatDateTime(m.createdAt, tz),
      visibleFrom: 'sm',
    },
    {
      key: 'sent',
      header: 'Delivery',
      sortValue: (m) => m.sentAt,
      render: (m) =>
        m.sentAt ? (
          <Text size="sm">Sent {formatDateTime(m.sentAt, tz)}</Text>
        ) : (
          <SoftBadge color="gray">Kept in outbox</SoftBadge>
        ),
    },
  ];
  return (
    <>
      <PageHeader
        title="Mail outbox"
        description="Every email Guildhall wrote. Without a mail server configured, messages stay here so you can still read them, such as password reset links."
      />
      {query.isPending ? <LoadingBlock label="Loading messages" /> : null}
      {query.isError ? <ErrorBlock error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.data ? (
        <ClientTable
          label="Mail outbox"
          rows={query.data}
          columns={columns}
          rowKey={(m) => m.id}
          searchText={(m) => `${m.to} ${m.subject}`}
          searchLabel="Search messages"
          initialSort={{ key: 'created', direction: 'desc' }}
          emptyText="No emails yet."
        />
      ) : null}
    </>
  );
}
