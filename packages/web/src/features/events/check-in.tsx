import { Badge, Button, Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { formatDateTime } from '../../platform/format.ts';
import { useDisplayTimeZone } from '../../platform/identity.ts';
import { notifyError, notifyInfo } from '../../platform/notify.ts';
import { LoadingBlock, PageHeader } from '../../platform/page.tsx';
import { eventsApi } from './events-api.ts';

const STATUS: Record<number, { label: string; color: string }> = {
  4: { label: 'Registered', color: 'blue' },
  5: { label: 'Checked in', color: 'green' },
  6: { label: 'No-show', color: 'gray' },
  7: { label: 'Awaiting payment', color: 'orange' },
};

/**
 * `/a/events/check-in/:EventDetailId`: the door, on a phone. Search by name or email, or type (or scan into the
 * box) the code on the confirmation; one large button per person.
 */
export function CheckInPage() {
  const shownZone = useDisplayTimeZone();
  const id = Number(useParams().EventDetailId);
  const [search, setSearch] = useState('');
  const [code, setCode] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 350);
  const client = useQueryClient();
  const list = useQuery({
    queryKey: ['events', 'check-in', id, debounced],
    queryFn: ({ signal }) => eventsApi.checkInList(id, debounced, signal),
    placeholderData: keepPreviousData,
  });
  const act = useMutation({
    mutationFn: eventsApi.checkIn,
    onSuccess: (answer) => {
      notifyInfo(answer.message);
      setCode('');
      void client.invalidateQueries({ queryKey: ['events', 'check-in', id] });
    },
    onError: (e) => notifyError(e),
  });
  const noShows = useMutation({
    mutationFn: () => eventsApi.markNoShows(id),
    onSuccess: (answer) => {
      notifyInfo(answer.message);
      void client.invalidateQueries({ queryKey: ['events', 'check-in', id] });
    },
    onError: (e) => notifyError(e),
  });
  if (list.error) return <ErrorBlock error={list.error} onRetry={() => void list.refetch()} />;
  if (!list.data) return <LoadingBlock />;
  const data = list.data;
  return (
    <>
      <PageHeader
        title={`Check-in: ${data.Name}`}
        description={`${formatDateTime(data.StartsAt, shownZone)} · ${data.checkedIn} of ${data.registered} checked in`}
      />
      <Stack gap="sm" maw={560}>
        {Date.parse(data.EndsAt) <= Date.now() && data.notCheckedIn > 0 ? (
          <Group justify="space-between" wrap="nowrap" data-testid="no-shows">
            <Text size="sm">
              {data.notCheckedIn} registered {data.notCheckedIn === 1 ? 'attendee was' : 'attendees were'} not
              checked in.
            </Text>
            <Button
              variant="default"
              loading={noShows.isPending}
              onClick={() =>
                modals.openConfirmModal({
                  title: 'Mark the rest as no-shows?',
                  children: (
                    <Text size="sm">
                      The occurrence is over: {data.notCheckedIn} registered{' '}
                      {data.notCheckedIn === 1 ? 'attendee who was' : 'attendees who were'} not checked in
                      will be marked as no-show. A late arrival can still be checked in afterwards.
                    </Text>
                  ),
                  labels: { confirm: `Mark ${data.notCheckedIn} as no-show`, cancel: 'Cancel' },
                  onConfirm: () => noShows.mutate(),
                })
              }
            >
              Mark the rest as no-shows
            </Button>
          </Group>
        ) : null}
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (code.trim()) act.mutate({ EventDetailId: id, Code: code.trim() });
          }}
        >
          <Group align="flex-end" gap="xs" wrap="nowrap">
            <TextInput
              label="Code on the confirmation"
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              autoCapitalize="characters"
              style={{ flex: 1 }}
            />
            <Button type="submit" loading={act.isPending}>
              Check in
            </Button>
          </Group>
        </form>
        <TextInput
          label="Find by name or email"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          type="search"
        />
        {data.Results.length === 0 ? <Text c="dimmed">Nobody registered matches.</Text> : null}
        {data.Results.map((a) => {
          const status = STATUS[a.EventAttendeeStatusId] ?? { label: 'Registered', color: 'blue' };
          const checked = a.EventAttendeeStatusId === 5;
          return (
            <Card key={a.AttendeeId} withBorder padding="sm" data-testid="check-in-row">
              <Group justify="space-between" wrap="nowrap">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text fw={600} truncate>
                    {a.AttendeeName}
                  </Text>
                  <Group gap={6}>
                    <Badge color={status.color} variant="light">
                      {status.label}
                    </Badge>
                    {a.RegistrationType ? (
                      <Text size="xs" c="dimmed">
                        {a.RegistrationType}
                      </Text>
                    ) : null}
                  </Group>
                </Stack>
                <Button
                  size="md"
                  variant={checked ? 'default' : 'filled'}
                  color={checked ? 'gray' : 'green'}
                  onClick={() => act.mutate({ EventDetailId: id, AttendeeId: a.AttendeeId, Undo: checked })}
                  aria-label={checked ? `Undo check-in of ${a.AttendeeName}` : `Check in ${a.AttendeeName}`}
                >
                  {checked ? 'Undo' : 'Check in'}
                </Button>
              </Group>
            </Card>
          );
        })}
      </Stack>
    </>
  );
}
