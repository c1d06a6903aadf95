/**
 * The event record's Waitlist, Finances and Check-in tabs, from one read of the event's overview
 * (`GET /api/events/events/{id}/overview`): who waits for a seat and who was offered one, the registrations' money
 * (billed, paid, outstanding, void, refunded, and by registration type), and each occurrence's seats with the way to
 * its door's check-in screen.
 */
import {
  attendeeStatusName,
  type EventOverview,
  eventAttendeesResource,
  formatInstant,
} from '@guildhall/shared';
import { Anchor, Badge, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { Figure } from '../../platform/figure.tsx';
import { useDisplayTimeZone } from '../../platform/identity.ts';
import type { RecordActionProps } from '../../platform/modules/web-module.ts';
import { formatMoney } from '../../platform/money.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { recordPath } from '../../platform/screens/resources.ts';

function useOverview(recordId: string) {
  return useQuery({
    queryKey: ['events', 'overview', recordId],
    queryFn: ({ signal }) =>
      api.get<EventOverview>(`/api/events/events/${encodeURIComponent(recordId)}/overview`, { signal }),
  });
}

function Loaded({
  recordId,
  children,
}: {
  recordId: string;
  children: (o: EventOverview) => React.ReactNode;
}) {
  const overview = useOverview(recordId);
  if (overview.error) return <ErrorBlock error={overview.error} onRetry={() => void overview.refetch()} />;
  if (!overview.data) return <LoadingBlock />;
  return <>{children(overview.data)}</>;
}

export function WaitlistTab({ recordId }: RecordActionProps) {
  const timeZone = useDisplayTimeZone();
  return (
    <Loaded recordId={recordId}>
      {(o) =>
        o.Waitlist.length === 0 ? (
          <Text size="sm" c="dimmed">
            No one is waiting for a seat.
          </Text>
        ) : (
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              In the order people joined the waitlist. When a seat frees, the first in line is offered it by
              mail and holds it until the offer expires.
            </Text>
            <Table.ScrollContainer minWidth={640}>
              <Table striped aria-label="Waitlist">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>#</Table.Th>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Occurrence</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Joined</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {o.Waitlist.map((w, i) => (
                    <Table.Tr key={w.AttendeeId}>
                      <Table.Td>{i + 1}</Table.Td>
                      <Table.Td>
                        <Anchor
                          component={Link}
                          to={recordPath(eventAttendeesResource, String(w.AttendeeId))}
                        >
                          {w.AttendeeName}
                        </Anchor>
                        {w.AttendeeEmail ? (
                          <Text size="xs" c="dimmed">
                            {w.AttendeeEmail}
                          </Text>
                        ) : null}
                      </Table.Td>
                      <Table.Td>{formatInstant(w.StartsAt, timeZone)}</Table.Td>
                      <Table.Td>
                        <Badge variant="light" color={w.EventAttendeeStatusId === 2 ? 'orange' : 'yellow'}>
                          {attendeeStatusName(w.EventAttendeeStatusId)}
                        </Badge>
                        {w.OfferExpiresAt ? (
                          <Text size="xs" c="dimmed">
                            offer expires {formatInstant(w.OfferExpiresAt, timeZone)}
                          </Text>
                        ) : null}
                      </Table.Td>
                      <Table.Td>{formatInstant(w.CreatedAt, timeZone)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Stack>
        )
      }
    </Loaded>
  );
}

export function FinancesTab({ recordId }: RecordActionProps) {
  return (
    <Loaded recordId={recordId}>
      {({ Finances: f }) => (
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            {f.Registrations} {f.Registrations === 1 ? 'registration' : 'registrations'}, {f.Invoices}{' '}
            {f.Invoices === 1 ? 'invoice' : 'invoices'} (void ones apart). Refunds are the credits
            cancellations gave back under the event's refund rule.
          </Text>
          <SimpleGrid cols={{ base: 2, sm: 5 }} data-testid="event-finances">
            <Figure label="Billed" value={formatMoney(f.BilledCents)} />
            <Figure label="Paid" value={formatMoney(f.PaidCents)} />
            <Figure label="Outstanding" value={formatMoney(f.OutstandingCents)} />
            <Figure label="Refunded" value={formatMoney(f.RefundedCents)} />
            <Figure label="Voided" value={formatMoney(f.VoidedCents)} />
          </SimpleGrid>
          {f.ByType.length > 0 ? (
            <Table striped aria-label="By registration type">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Registration type</Table.Th>
                  <Table.Th>Attendees</Table.Th>
                  <Table.Th>Paid</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {f.ByType.map((t) => (
                  <Table.Tr key={t.RegistrationTypeId ?? 'none'}>
                    <Table.Td>{t.Name}</Table.Td>
                    <Table.Td>{t.Attendees}</Table.Td>
                    <Table.Td>{formatMoney(t.PaidCents)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          ) : null}
        </Stack>
      )}
    </Loaded>
  );
}

export function CheckInTab({ recordId }: RecordActionProps) {
  const timeZone = useDisplayTimeZone();
  return (
    <Loaded recordId={recordId}>
      {(o) => (
        <Table.ScrollContainer minWidth={640}>
          <Table striped aria-label="Occurrences at the door">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Occurrence</Table.Th>
                <Table.Th>Registered</Table.Th>
                <Table.Th>Checked in</Table.Th>
                <Table.Th>Waitlist</Table.Th>
                <Table.Th>Door</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {o.Occurrences.map((d) => (
                <Table.Tr key={d.EventDetailId}>
                  <Table.Td>
                    {formatInstant(d.StartsAt, timeZone)}
                    {d.Status === 'cancelled' ? (
                      <Badge ml="xs" color="gray" variant="light">
                        Cancelled
                      </Badge>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    {d.Registered}
                    {d.Capacity !== null ? ` of ${d.Capacity}` : ''}
                  </Table.Td>
                  <Table.Td>{d.CheckedIn}</Table.Td>
                  <Table.Td>{d.Waitlisted}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`/a/events/check-in/${d.EventDetailId}`}>
                      Open check-in
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Loaded>
  );
}
