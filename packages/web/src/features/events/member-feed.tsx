import { Button, Card, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { notifyError, notifyInfo } from '../../platform/notify.ts';
import { eventsApi } from './events-api.ts';

/**
 * The member's calendar feed of their registrations: a secret address to subscribe to from a calendar program
 * (Google Calendar, Outlook, Apple Calendar), copied from here; resetting it makes a new one and the old one stops
 * working (for an address shared by mistake).
 */
export function MemberFeedCard() {
  const client = useQueryClient();
  const feed = useQuery({
    queryKey: ['events', 'feed'],
    queryFn: ({ signal }) => eventsApi.memberFeed(signal),
  });
  const reset = useMutation({
    mutationFn: eventsApi.memberFeedReset,
    onSuccess: (answer) => {
      client.setQueryData(['events', 'feed'], answer);
      notifyInfo(
        feed.data?.FeedUrl
          ? 'Your calendar address is new; the old one no longer works.'
          : 'Your calendar address is ready to copy.',
      );
    },
    onError: (e) => notifyError(e),
  });
  if (feed.error) return <ErrorBlock error={feed.error} onRetry={() => void feed.refetch()} />;
  const url = feed.data?.FeedUrl ?? null;
  return (
    <Card withBorder padding="md" mb="md" component="section" aria-labelledby="member-feed-title">
      <Stack gap="xs">
        <Text fw={600} id="member-feed-title">
          My events in my calendar
        </Text>
        <Text size="sm" c="dimmed">
          Subscribe to this address in your calendar program: the events you register for appear there, and
          leave it when you cancel. Keep it to yourself; anyone with the address can read it.
        </Text>
        {url ? (
          <>
            <Group gap="xs" align="end" wrap="nowrap">
              <TextInput
                label="Calendar address"
                value={url}
                readOnly
                style={{ flex: 1 }}
                onFocus={(e) => e.currentTarget.select()}
              />
              <CopyButton value={url}>
                {({ copied, copy }) => (
                  <Button variant={copied ? 'light' : 'filled'} onClick={copy}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Group>
              <Button
                variant="default"
                size="compact-sm"
                loading={reset.isPending}
                onClick={() =>
                  modals.openConfirmModal({
                    title: 'Reset your calendar address?',
                    children: (
                      <Text size="sm">
                        Calendars subscribed to the current address stop receiving your events; subscribe
                        again with the new one.
                      </Text>
                    ),
                    labels: { confirm: 'Reset the address', cancel: 'Keep it' },
                    confirmProps: { color: 'red' },
                    onConfirm: () => reset.mutate(),
                  })
                }
              >
                Reset the address
              </Button>
            </Group>
          </>
        ) : feed.data ? (
          <Group>
            <Button size="compact-sm" loading={reset.isPending} onClick={() => reset.mutate()}>
              Make my calendar address
            </Button>
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}
