import type { Maintenance, Status } from '@guildhall/shared';
import { displayTimeZone } from '@guildhall/shared';
import {
  Button,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { formatDateTime } from '../../platform/format.ts';
import { useIdentity } from '../../platform/identity.ts';
import { notifySaved } from '../../platform/notify.ts';
import { LoadingBlock, PageHeader, RequirePermission } from '../../platform/page.tsx';
import { maintenanceKey, statusKey, useMaintenance, useStatus } from '../../platform/status-banner.tsx';

const LEVELS: Array<{ value: Status['Level']; label: string }> = [
  { value: 'info', label: 'Information' },
  { value: 'warning', label: 'Warning' },
  { value: 'critical', label: 'Critical' },
];

/** ISO instant to the value of a datetime-local input (the browser's timezone). */
export function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value back to an ISO instant; null when empty or invalid. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

export function StatusPage() {
  return (
    <RequirePermission permission="status.manage">
      <StatusScreen />
    </RequirePermission>
  );
}

function StatusScreen() {
  const status = useStatus();
  const maintenance = useMaintenance();
  return (
    <>
      <PageHeader
        title="Status messages"
        description="Tell everyone in your association what is going on. The status message shows as a banner until each user has opened it; the maintenance notice shows until the maintenance ends."
      />
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <Paper withBorder p="lg" component="section" aria-labelledby="status-heading">
          <Text fw={700} component="h2" id="status-heading" mb="md">
            Status message
          </Text>
          {status.isPending ? <LoadingBlock /> : null}
          {status.isError ? <ErrorBlock error={status.error} onRetry={() => void status.refetch()} /> : null}
          {status.data ? <StatusForm key={status.data.UpdatedAt ?? 'none'} initial={status.data} /> : null}
        </Paper>
        <Paper withBorder p="lg" component="section" aria-labelledby="maintenance-heading">
          <Text fw={700} component="h2" id="maintenance-heading" mb="md">
            Scheduled maintenance
          </Text>
          {maintenance.isPending ? <LoadingBlock /> : null}
          {maintenance.isError ? (
            <ErrorBlock error={maintenance.error} onRetry={() => void maintenance.refetch()} />
          ) : null}
          {maintenance.data ? (
            <MaintenanceForm key={JSON.stringify(maintenance.data)} initial={maintenance.data} />
          ) : null}
        </Paper>
      </SimpleGrid>
    </>
  );
}

function StatusForm({ initial }: { initial: Status }) {
  const me = useIdentity();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState(initial.Message);
  const [level, setLevel] = useState<Status['Level']>(initial.Level);
  const save = useMutation({
    mutationFn: (body: { Message: string; Level: Status['Level'] }) => api.put<Status>('/api/status', body),
    onSuccess: (saved) => {
      queryClient.setQueryData(statusKey, saved);
      notifySaved();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ Message: message.trim(), Level: level });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {save.error ? <ErrorBlock error={save.error} /> : null}
        <Stack gap={4}>
          <Text size="sm" fw={500} id="status-level">
            Level
          </Text>
          <SegmentedControl
            aria-labelledby="status-level"
            data={LEVELS}
            value={level}
            onChange={(v) => setLevel(LEVELS.find((l) => l.value === v)?.value ?? 'info')}
          />
        </Stack>
        <Textarea
          label="Message"
          description="Leave empty to remove the banner. Saving a new message shows it again to everyone."
          autosize
          minRows={4}
          maxLength={2000}
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
        />
        {initial.UpdatedAt ? (
          <Text size="xs" c="dimmed">
            Last updated {formatDateTime(initial.UpdatedAt, displayTimeZone(me))}
          </Text>
        ) : null}
        <Group justify="flex-end">
          {initial.Message ? (
            <Button
              variant="default"
              onClick={() => save.mutate({ Message: '', Level: 'info' })}
              disabled={save.isPending}
            >
              Remove message
            </Button>
          ) : null}
          <Button type="submit" loading={save.isPending}>
            Save status
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function MaintenanceForm({ initial }: { initial: Maintenance }) {
  const queryClient = useQueryClient();
  const [message, setMessage] = useState(initial.Message);
  const [startsAt, setStartsAt] = useState(toLocalInput(initial.StartsAt));
  const [endsAt, setEndsAt] = useState(toLocalInput(initial.EndsAt));
  const [error, setError] = useState<string | undefined>();
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const save = useMutation({
    mutationFn: (body: Maintenance) => api.put<Maintenance>('/api/status/maintenance', body),
    onSuccess: (saved) => {
      queryClient.setQueryData(maintenanceKey, saved);
      notifySaved();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const start = fromLocalInput(startsAt);
    const end = fromLocalInput(endsAt);
    if (start && end && end <= start) {
      setError('The end must be after the start.');
      return;
    }
    setError(undefined);
    save.mutate({ Message: message.trim(), StartsAt: start, EndsAt: end });
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {save.error ? <ErrorBlock error={save.error} /> : null}
        <Textarea
          label="Notice"
          description="Leave empty to remove the notice."
          autosize
          minRows={3}
          maxLength={2000}
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            type="datetime-local"
            label="Starts"
            description={`Your timezone: ${browserZone}`}
            value={startsAt}
            onChange={(e) => setStartsAt(e.currentTarget.value)}
          />
          <TextInput
            type="datetime-local"
            label="Ends"
            description="The notice disappears after this."
            value={endsAt}
            error={error}
            onChange={(e) => setEndsAt(e.currentTarget.value)}
          />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            Save maintenance notice
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
