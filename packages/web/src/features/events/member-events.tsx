import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Radio,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Typography,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import DOMPurify from 'dompurify';
import { Suspense, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { formatDateTime } from '../../platform/format.ts';
import { useDisplayTimeZone } from '../../platform/identity.ts';
import { formatMoney } from '../../platform/money.ts';
import { notifyError, notifyInfo } from '../../platform/notify.ts';
import { LoadingBlock, PageHeader } from '../../platform/page.tsx';
import { useFieldContext } from '../../platform/screens/field-context.ts';
import { QuestionInputs } from '../custom-fields/index.ts';
import { eventsApi } from './events-api.ts';
import { EventsCalendar } from './events-calendar.tsx';
import { MemberCertifications } from './member-certifications.tsx';
import { MemberFeedCard } from './member-feed.tsx';
import { useMyRegistrations } from './my-registrations.ts';
import { OccurrencePicker } from './occurrence-picker.tsx';
import { when } from './when.ts';

const STATUS_NAME: Record<number, string> = {
  1: 'Waitlisted',
  2: 'Seat offered',
  3: 'Cancelled',
  4: 'Registered',
  5: 'Attended',
  6: 'No-show',
  7: 'Awaiting payment',
};

/** `/m/events`: the member area's events, as a calendar, and the member's own registrations. */
export function MemberEvents() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') ?? 'calendar';
  return (
    <>
      <PageHeader title="Events" description="What the association has planned. Open an event to register." />
      <Tabs value={tab} onChange={(v) => setParams(v === 'calendar' ? {} : { tab: v ?? 'calendar' })}>
        <Tabs.List mb="md">
          <Tabs.Tab value="calendar">Calendar</Tabs.Tab>
          <Tabs.Tab value="mine">My registrations</Tabs.Tab>
          <Tabs.Tab value="certifications">Certifications</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="calendar">
          {tab === 'calendar' ? <EventsCalendar area="member" /> : null}
        </Tabs.Panel>
        <Tabs.Panel value="mine">
          {tab === 'mine' ? (
            <>
              <MemberFeedCard />
              <MyRegistrations />
            </>
          ) : null}
        </Tabs.Panel>
        <Tabs.Panel value="certifications">
          {tab === 'certifications' ? <MemberCertifications /> : null}
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

function MyRegistrations() {
  const shownZone = useDisplayTimeZone();
  const client = useQueryClient();
  const list = useMyRegistrations();
  const done = (answer: { message: string }) => {
    notifyInfo(answer.message);
    void client.invalidateQueries({ queryKey: ['events'] });
  };
  const cancel = useMutation({
    mutationFn: eventsApi.memberCancel,
    onSuccess: done,
    onError: (e) => notifyError(e),
  });
  const accept = useMutation({
    mutationFn: eventsApi.memberAccept,
    onSuccess: done,
    onError: (e) => notifyError(e),
  });
  if (list.error) return <ErrorBlock error={list.error} onRetry={() => void list.refetch()} />;
  if (!list.data) return <LoadingBlock />;
  if (list.data.length === 0) return <Text>You have not registered for any event yet.</Text>;
  return (
    <Table striped withTableBorder>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Event</Table.Th>
          <Table.Th>When</Table.Th>
          <Table.Th>Who</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Code</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {list.data.map((r) => (
          <Table.Tr key={r.AttendeeId} data-testid="my-registration">
            <Table.Td>
              <Anchor component={Link} to={`/m/events/${r.HashedEventId}`}>
                {r.EventName}
              </Anchor>
            </Table.Td>
            <Table.Td>{when(r.StartsAt, r.EndsAt)}</Table.Td>
            <Table.Td>{r.AttendeeName}</Table.Td>
            <Table.Td>
              <Badge
                variant="light"
                color={
                  r.EventAttendeeStatusId === 4 ? 'blue' : r.EventAttendeeStatusId === 3 ? 'gray' : 'orange'
                }
              >
                {STATUS_NAME[r.EventAttendeeStatusId] ?? '—'}
              </Badge>
              {r.OfferExpiresAt ? (
                <Text size="xs" c="dimmed">
                  until {formatDateTime(r.OfferExpiresAt, shownZone)}
                </Text>
              ) : null}
            </Table.Td>
            <Table.Td>
              <Text ff="monospace" size="sm">
                {r.CheckInCode}
              </Text>
            </Table.Td>
            <Table.Td>
              <Group gap="xs" wrap="nowrap">
                {r.EventAttendeeStatusId === 2 ? (
                  <Button size="compact-sm" onClick={() => accept.mutate(r.AttendeeId)}>
                    Take the seat
                  </Button>
                ) : null}
                {r.canCancel ? (
                  <Button
                    size="compact-sm"
                    variant="default"
                    color="red"
                    onClick={() => cancel.mutate(r.AttendeeId)}
                  >
                    Cancel
                  </Button>
                ) : null}
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** `/m/events/:id` (EventDetail.General, by hashed id): the event, its occurrences and registration. */
export function MemberEventDetail() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const client = useQueryClient();
  const event = useQuery({
    queryKey: ['events', 'member', id],
    queryFn: ({ signal }) => eventsApi.memberEvent(id, signal),
  });
  const [detail, setDetail] = useState<string | null>(params.get('detail'));
  const [type, setType] = useState<string | null>(null);
  const [guests, setGuests] = useState<{ Name: string; Email: string }[]>([]);
  const [result, setResult] = useState<{ outcome: string; message: string } | null>(null);
  const [answers, setAnswers] = useState<Record<string, unknown>>({});
  const context = useFieldContext();
  const register = useMutation({
    mutationFn: eventsApi.memberRegister,
    onSuccess: (answer) => {
      setResult(answer);
      void client.invalidateQueries({ queryKey: ['events'] });
    },
    onError: (e) => notifyError(e),
  });
  if (event.error) return <ErrorBlock error={event.error} />;
  if (!event.data) return <LoadingBlock />;
  const e = event.data;
  const open = e.Occurrences.filter((o) => o.Status !== 'cancelled' && Date.parse(o.StartsAt) > Date.now());
  const chosenDetail = detail ?? (open.length === 1 ? String(open[0]?.EventDetailId) : null);
  const chosenType =
    type ?? (e.RegistrationTypes.length === 1 ? String(e.RegistrationTypes[0]?.RegistrationTypeId) : null);
  const registerButton = (
    <Button
      disabled={!chosenDetail || !e.RegistrationOpen}
      loading={register.isPending}
      onClick={() =>
        register.mutate({
          EventDetailId: Number(chosenDetail),
          ...(chosenType ? { RegistrationTypeId: Number(chosenType) } : {}),
          Attendees: guests
            .filter((g) => g.Name.trim())
            .map((g) => ({
              Name: g.Name.trim(),
              ...(g.Email.trim() ? { Email: g.Email.trim() } : {}),
            })),
          ...(e.Questions.length > 0 ? { Answers: answers } : {}),
        })
      }
    >
      Register
    </Button>
  );
  return (
    <>
      <PageHeader
        title={e.Name}
        description={[
          e.Category,
          e.Location,
          e.CreditHours ? `${e.CreditHours} continuing-education credits` : null,
        ]
          .filter(Boolean)
          .join(' · ')}
        above={
          <Anchor component={Link} to="/m/events" size="sm">
            ← Events
          </Anchor>
        }
      />
      <Stack gap="lg" maw={820}>
        {e.Image ? (
          <img
            src={e.Image.Url}
            alt={e.Name}
            className="gh-image"
            data-testid="event-image"
            style={{
              display: 'block',
              maxWidth: '100%',
              maxHeight: 360,
              borderRadius: 8,
              objectFit: 'cover',
            }}
          />
        ) : null}
        {e.Description ? (
          <Typography>
            {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized with DOMPurify */}
            <div dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(e.Description) }} />
          </Typography>
        ) : null}
        {e.OnlineUrl ? (
          <Text>
            Online:{' '}
            <Anchor href={e.OnlineUrl} target="_blank" rel="noopener noreferrer">
              {e.OnlineUrl}
            </Anchor>
          </Text>
        ) : null}
        <Card withBorder>
          <Stack gap="sm">
            <Text fw={600}>Register</Text>
            {!e.RegistrationOpen ? <Alert color="gray">Registration is closed.</Alert> : null}
            <OccurrencePicker event={e} value={chosenDetail} onChange={setDetail} seatsLeft />
            {e.RegistrationTypes.length > 0 ? (
              <Radio.Group label="Registration type" value={chosenType} onChange={setType}>
                <Stack gap={6} mt={4}>
                  {e.RegistrationTypes.map((t) => (
                    <Radio
                      key={t.RegistrationTypeId}
                      value={String(t.RegistrationTypeId)}
                      label={`${t.Name}: ${t.priceCents === 0 ? 'free' : formatMoney(t.priceCents - t.discountCents)}${t.discountCents > 0 ? ` (early-bird, was ${formatMoney(t.priceCents)})` : ''}`}
                    />
                  ))}
                </Stack>
              </Radio.Group>
            ) : null}
            <Stack gap={6}>
              <Text size="sm" fw={500}>
                Guests you bring
              </Text>
              {guests.map((g, i) => (
                <Group key={`guest-${i.toString()}`} gap="xs" align="flex-end">
                  <TextInput
                    label="Name"
                    value={g.Name}
                    onChange={(ev) => {
                      const v = ev.currentTarget.value;
                      setGuests((all) => all.map((x, j) => (j === i ? { ...x, Name: v } : x)));
                    }}
                  />
                  <TextInput
                    label="Email"
                    value={g.Email}
                    onChange={(ev) => {
                      const v = ev.currentTarget.value;
                      setGuests((all) => all.map((x, j) => (j === i ? { ...x, Email: v } : x)));
                    }}
                  />
                  <Button
                    variant="subtle"
                    color="red"
                    onClick={() => setGuests((all) => all.filter((_, j) => j !== i))}
                  >
                    Remove
                  </Button>
                </Group>
              ))}
              <Group>
                <Button
                  variant="default"
                  size="compact-sm"
                  onClick={() => setGuests((all) => [...all, { Name: '', Email: '' }])}
                >
                  Add a guest
                </Button>
              </Group>
            </Stack>
            {e.Questions.length > 0 ? (
              <Stack gap={6} component="section" aria-label="Questions">
                <Text size="sm" fw={500}>
                  A few questions
                </Text>
                <Suspense fallback={<LoadingBlock />}>
                  <QuestionInputs
                    questions={e.Questions}
                    values={answers}
                    onChange={setAnswers}
                    error={register.error}
                    context={context}
                    finish={registerButton}
                  />
                </Suspense>
              </Stack>
            ) : null}
            {result ? (
              <Alert
                color={result.outcome === 'registered' ? 'green' : 'orange'}
                data-testid="register-result"
              >
                {result.message}
              </Alert>
            ) : null}
            <Group>
              {e.Questions.length > 0 ? null : registerButton}
              <Anchor component={Link} to="/m/events?tab=mine" size="sm">
                My registrations
              </Anchor>
            </Group>
          </Stack>
        </Card>
      </Stack>
    </>
  );
}
