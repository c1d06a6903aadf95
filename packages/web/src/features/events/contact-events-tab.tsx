/**
 * The contact record's Events tab: the contact's registrations and attendance (and the guests they registered),
 * upcoming and past, with each one's status, check-in and the continuing-education credits it earned; each row
 * opens the event, the door's check-in screen of its occurrence, or the invoice.
 */
import {
  attendeeStatusName,
  type ContactEventRow,
  type ContactEvents,
  formatInstant,
  invoicesResource,
} from '@guildhall/shared';
import { Anchor, Badge, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { Figure } from '../../platform/figure.tsx';
import { useDisplayTimeZone } from '../../platform/identity.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { recordPath } from '../../platform/screens/resources.ts';

const STATUS_COLORS: Record<number, string> = {
  1: 'yellow',
  2: 'orange',
  3: 'gray',
  4: 'blue',
  5: 'green',
  6: 'red',
  7: 'grape',
};

function Rows({ rows, timeZone }: { rows: ContactEventRow[]; timeZone: string }) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped highlightOnHover>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Event</Table.Th>
            <Table.Th>When</Table.Th>
            <Table.Th>Attendee</Table.Th>
            <Table.Th>Type</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Credits</Table.Th>
            <Table.Th>Links</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.AttendeeId}>
              <Table.Td>
                <Anchor component={Link} to={`/a/events/${r.EventId}`}>
                  {r.EventName}
                </Anchor>
                {r.Category ? (
                  <Text size="xs" c="dimmed">
                    {r.Category}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>{formatInstant(r.StartsAt, timeZone)}</Table.Td>
              <Table.Td>
                {r.AttendeeName}
                {r.IsAttendee ? null : (
                  <Text size="xs" c="dimmed">
                    guest they registered
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{r.RegistrationType ?? '—'}</Table.Td>
              <Table.Td>
                <Badge color={STATUS_COLORS[r.EventAttendeeStatusId] ?? 'gray'} variant="light">
                  {attendeeStatusName(r.EventAttendeeStatusId)}
                </Badge>
                {r.CheckedInAt ? (
                  <Text size="xs" c="dimmed">
                    checked in {formatInstant(r.CheckedInAt, timeZone)}
                  </Text>
                ) : null}
              </Table.Td>
              <Table.Td>{r.CreditsEarned ?? '—'}</Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Anchor size="sm" component={Link} to={`/a/events/check-in/${r.EventDetailId}`}>
                    Check-in
                  </Anchor>
                  {r.InvoiceId !== null ? (
                    <Anchor size="sm" component={Link} to={recordPath(invoicesResource, r.InvoiceId)}>
                      Invoice
                    </Anchor>
                  ) : null}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export default function ContactEventsTab({ recordId }: { recordId: string }) {
  const timeZone = useDisplayTimeZone();
  const answer = useQuery({
    queryKey: ['events', 'contact', recordId],
    queryFn: () => api.get<ContactEvents>(`/api/events/contacts/${encodeURIComponent(recordId)}/events`),
  });
  if (answer.error)
    return (
      <Text c="red" size="sm">
        The contact's events could not be loaded.
      </Text>
    );
  const data = answer.data;
  if (!data) return <LoadingBlock />;
  const now = Date.now();
  const upcoming = data.Rows.filter((r) => Date.parse(r.EndsAt) > now);
  const past = data.Rows.filter((r) => Date.parse(r.EndsAt) <= now);
  const transcript = data.Rows.filter(
    (r) => r.IsAttendee && r.EventAttendeeStatusId === 5 && r.CreditsEarned,
  );
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Figure label="Upcoming" value={data.upcoming} hint="registered, offered or awaiting payment" />
        <Figure label="Attended" value={data.attended} />
        <Figure label="No-shows" value={data.noShows} />
        <Figure
          label="Continuing-education credits"
          value={data.credits}
          hint="earned by checking in at events"
        />
      </SimpleGrid>
      {data.Rows.length === 0 ? (
        <Text c="dimmed">
          No event registrations yet. Register this contact from an event's occurrence, or they can register
          from the member area.
        </Text>
      ) : null}
      {upcoming.length > 0 ? (
        <Stack gap="xs">
          <Title order={4}>Upcoming</Title>
          <Rows rows={upcoming} timeZone={timeZone} />
        </Stack>
      ) : null}
      {past.length > 0 ? (
        <Stack gap="xs">
          <Title order={4}>Past</Title>
          <Rows rows={past} timeZone={timeZone} />
        </Stack>
      ) : null}
      {transcript.length > 0 ? (
        <Stack gap="xs">
          <Title order={4}>Credits transcript</Title>
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Event</Table.Th>
                <Table.Th>Attended</Table.Th>
                <Table.Th>Credits</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {transcript.map((r) => (
                <Table.Tr key={r.AttendeeId}>
                  <Table.Td>{r.EventName}</Table.Td>
                  <Table.Td>{formatInstant(r.CheckedInAt ?? r.StartsAt, timeZone)}</Table.Td>
                  <Table.Td>{r.CreditsEarned}</Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Td fw={600}>Total</Table.Td>
                <Table.Td />
                <Table.Td fw={600}>{data.credits}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Stack>
      ) : null}
    </Stack>
  );
}
