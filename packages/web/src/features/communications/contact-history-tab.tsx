/** A contact's communication history (their record's Communications tab): every message sent to them. */
import type { Deliverability, RecipientLog } from '@guildhall/shared';
import { displayTimeZone } from '@guildhall/shared';
import { Alert, Anchor, Button, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { formatDateTime } from '../../platform/format.ts';
import { useIdentity } from '../../platform/identity.ts';
import type { RecordActionProps } from '../../platform/modules/web-module.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { SoftBadge } from '../../platform/soft-badge.tsx';
import { MAILING_STATUS_COLORS } from './mailings-page.tsx';

const REASONS: Record<string, string> = {
  bounced: 'bounced',
  unsubscribed: 'was unsubscribed by its owner',
  complaint: 'was reported as spam by its owner',
  manual: 'was suppressed by staff',
};

/** The address as mailings see it: suppressed (a hard bounce, an unsubscribe) and how often it bounced softly. */
function DeliverabilityNotice({ contactId, tz }: { contactId: number; tz: string }) {
  const client = useQueryClient();
  const key = ['contact-deliverability', contactId];
  const d = useQuery({
    queryKey: key,
    queryFn: () => api.get<Deliverability>(`/api/communication/contacts/${contactId}/deliverability`),
  });
  const lift = useMutation({
    mutationFn: () => api.delete<Deliverability>(`/api/communication/contacts/${contactId}/suppression`),
    onSuccess: (data) => client.setQueryData(key, data),
  });
  if (!d.data?.Email) return null;
  const { Suppressed, SoftBounces, HardBounces, LastBounce } = d.data;
  if (Suppressed)
    return (
      <Alert color="red" title="Mailings skip this address" role="status">
        <Stack gap={6}>
          <Text size="sm">
            {d.data.Email} {REASONS[Suppressed.Reason] ?? Suppressed.Reason} on{' '}
            {formatDateTime(Suppressed.CreatedAt, tz)}
            {Suppressed.Detail && Suppressed.Reason === 'bounced' ? `: ${Suppressed.Detail}` : '.'}
          </Text>
          {HardBounces + SoftBounces > 0 ? (
            <Text size="sm" c="dimmed">
              Hard bounces: {HardBounces} · soft bounces: {SoftBounces}
            </Text>
          ) : null}
          {lift.isError ? <ErrorBlock error={lift.error} /> : null}
          <div>
            <Button
              size="xs"
              variant="light"
              color="red"
              loading={lift.isPending}
              onClick={() => lift.mutate()}
            >
              Send to this address again
            </Button>
          </div>
        </Stack>
      </Alert>
    );
  if (SoftBounces + HardBounces === 0) return null;
  return (
    <Alert color="yellow" title="Delivery problems" role="status">
      <Text size="sm">
        Hard bounces: {HardBounces} · soft bounces: {SoftBounces}
        {LastBounce
          ? ` · last ${formatDateTime(LastBounce.CreatedAt, tz)}${LastBounce.Status ? ` (${LastBounce.Status})` : ''}`
          : ''}
      </Text>
    </Alert>
  );
}

export default function ContactHistoryTab({ recordId }: RecordActionProps) {
  const me = useIdentity();
  const tz = displayTimeZone(me);
  const notice = <DeliverabilityNotice contactId={Number(recordId)} tz={tz} />;
  const history = useQuery({
    queryKey: ['contact-communications', recordId],
    queryFn: () => api.get<RecipientLog[]>(`/api/communication/contacts/${recordId}/history`),
  });
  if (history.isPending) return <LoadingBlock label="Loading the messages" />;
  if (history.isError) return <ErrorBlock error={history.error} />;
  if (history.data.length === 0)
    return (
      <Stack gap="sm">
        {notice}
        <Text c="dimmed" size="sm" p="md">
          No message has been sent to this contact yet.
        </Text>
      </Stack>
    );
  return (
    <Stack gap="sm">
      {notice}
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
    </Stack>
  );
}
