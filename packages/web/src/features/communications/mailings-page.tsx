/** The association's mailings: each with its status and how its delivery went, newest first. */
import type { MailingSummary } from '@guildhall/shared';
import { displayTimeZone } from '@guildhall/shared';
import { Anchor, Button, Group, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { ClientTable, type Column } from '../../platform/client-table.tsx';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { formatDateTime } from '../../platform/format.ts';
import { useIdentity } from '../../platform/identity.ts';
import { LoadingBlock, PageHeader } from '../../platform/page.tsx';
import { SoftBadge } from '../../platform/soft-badge.tsx';

export const MAILING_STATUS_COLORS: Record<string, string> = {
  draft: 'gray',
  scheduled: 'violet',
  sending: 'blue',
  sent: 'green',
  cancelled: 'gray',
  queued: 'gray',
  claimed: 'gray',
  deferred: 'orange',
  failed: 'red',
  bounced: 'red',
  suppressed: 'gray',
  unknown: 'yellow',
};

export function deliverySummary(counts: Record<string, number>): string {
  const order = [
    'sent',
    'queued',
    'claimed',
    'sending',
    'deferred',
    'bounced',
    'failed',
    'suppressed',
    'unknown',
  ];
  return order
    .filter((k) => (counts[k] ?? 0) > 0)
    .map((k) => `${counts[k]} ${k}`)
    .join(' · ');
}

export function MailingsPage() {
  const me = useIdentity();
  const tz = displayTimeZone(me);
  const query = useQuery({
    queryKey: ['mailings'],
    queryFn: ({ signal }) => api.get<MailingSummary[]>('/api/communication/mailings', { signal }),
  });
  const columns: Column<MailingSummary>[] = [
    {
      key: 'name',
      header: 'Mailing',
      sortValue: (m) => m.Name,
      render: (m) => (
        <Anchor component={Link} to={`/a/mailings/${m.MailingId}`} size="sm" fw={600}>
          {m.Name}
        </Anchor>
      ),
    },
    {
      key: 'subject',
      header: 'Subject',
      sortValue: (m) => m.Subject,
      render: (m) => m.Subject,
      visibleFrom: 'sm',
    },
    {
      key: 'status',
      header: 'Status',
      sortValue: (m) => m.Status,
      render: (m) => <SoftBadge color={MAILING_STATUS_COLORS[m.Status] ?? 'gray'}>{m.Status}</SoftBadge>,
    },
    {
      key: 'delivery',
      header: 'Delivery',
      sortValue: (m) => m.RecipientCount,
      render: (m) => <Text size="sm">{deliverySummary(m.Counts) || '—'}</Text>,
    },
    {
      key: 'created',
      header: 'Created',
      sortValue: (m) => m.CreatedAt,
      render: (m) => formatDateTime(m.CreatedAt, tz),
      visibleFrom: 'sm',
    },
  ];
  return (
    <>
      <PageHeader
        title="Mailings"
        description="Messages sent to many contacts at once: write one, preview it as a recipient, test it, then send it now or at a time you choose."
        actions={
          <Group>
            <Button component={Link} to="/a/mailings/new" leftSection={<IconPlus size={16} />}>
              New mailing
            </Button>
          </Group>
        }
      />
      {query.isPending ? <LoadingBlock label="Loading mailings" /> : null}
      {query.isError ? <ErrorBlock error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.data ? (
        <ClientTable
          label="Mailings"
          rows={query.data}
          columns={columns}
          rowKey={(m) => m.MailingId}
          searchText={(m) => `${m.Name} ${m.Subject}`}
          searchLabel="Search mailings"
          initialSort={{ key: 'created', direction: 'desc' }}
          emptyText="No mailings yet."
        />
      ) : null}
    </>
  );
}
