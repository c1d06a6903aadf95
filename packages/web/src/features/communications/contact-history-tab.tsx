/** A contact's communication history (their record's Communications tab): every message sent to them. */
import type { RecipientLog } from '@guildhall/shared';
import { displayTimeZone } from '@guildhall/shared';
import { Anchor, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { formatDateTime } from '../../platform/format.ts';
import { useIdentity } from '../../platform/identity.ts';
import type { RecordActionProps } from '../../platform/modules/web-module.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { SoftBadge } from '../../platform/soft-badge.tsx';
import { MAILING_STATUS_COLORS } from './mailings-page.tsx';

export default function ContactHistoryTab({ recordId }: RecordActionProps) {
  const me = useIdentity();
  const tz = displayTimeZone(me);
  const history = useQuery({
    queryKey: ['contact-communications', recordId],
    queryFn: () => api.get<RecipientLog[]>(`/api/communication/contacts/${recordId}/history`),
  });
  if (history.isPending) return <LoadingBlock label="Loading the messages" />;
  if (history.isError) return <ErrorBlock error={history.error} />;
  if (history.data.length === 0)
    return (
      <Text c="dimmed" size="sm" p="md">
        No message has been sent to this contact yet.
      </Text>
    );
  return (
    <Table striped aria-label="Communication history">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Message</Table.Th>
          <Table.Th>To</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Sent</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {history.data.map((r) => (
          <Table.Tr key={r.RecipientId}>
            <Table.Td>
              {r.MailingId ? (
                <Anchor component={Link} to={`/a/mailings/${r.MailingId}`} size="sm">
                  {r.Subject}
                </Anchor>
              ) : (
                r.Subject
              )}
            </Table.Td>
            <Table.Td>{r.Email}</Table.Td>
            <Table.Td>
              <SoftBadge color={MAILING_STATUS_COLORS[r.Status] ?? 'gray'}>{r.Status}</SoftBadge>
            </Table.Td>
            <Table.Td>{r.SentAt ? formatDateTime(r.SentAt, tz) : '—'}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
