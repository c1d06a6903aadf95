/**
 * A saved report's mail schedules on the report screen (decision 0176): "Schedule by mail…" for its owner (daily,
 * weekly on a weekday, monthly on a day; staff of the association and typed addresses), and the schedules listed
 * with their last send, for whoever sees the report.
 */
import {
  REPORT_SCHEDULE_FREQUENCIES,
  type ReportParameterDefinition,
  type ReportSchedule,
  type ReportScheduleInput,
  type ResourceDeclaration,
  WEEKDAY_NAMES,
} from '@guildhall/shared';
import {
  ActionIcon,
  Button,
  Card,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  TagsInput,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMail, IconSend, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api-client.ts';
import { KeptParameterValues, ReportParameterFields } from './report-parameters.tsx';

/** A saved report's parameters and where their fields are declared (the schedule keeps values for them). */
interface ParameterProps {
  parameters: readonly ReportParameterDefinition[];
  resource: ResourceDeclaration | null | undefined;
}

interface Recipient {
  UserId: number;
  Name: string;
  Email: string;
}

const schedulesKey = (savedId: number) => ['reports', 'schedules', savedId] as const;
const base = (savedId: number) => `/api/reports/saved/${savedId}/schedules`;

const FREQUENCY_LABELS: Record<(typeof REPORT_SCHEDULE_FREQUENCIES)[number], string> = {
  daily: 'Daily',
  weekly: 'Weekly',
  monthly: 'Monthly',
};

function messageOf(e: unknown): string {
  if (e && typeof e === 'object' && 'message' in e && typeof e.message === 'string') return e.message;
  return "We couldn't save the schedule!";
}

function ScheduleForm({
  savedId,
  opened,
  onClose,
  parameters,
  resource,
  values,
}: {
  savedId: number;
  opened: boolean;
  onClose: () => void;
  values: Record<string, unknown>;
} & ParameterProps) {
  const [kept, setKept] = useState<Record<string, unknown>>(values);
  const queryClient = useQueryClient();
  const recipients = useQuery({
    queryKey: ['reports', 'schedule-recipients'],
    queryFn: () => api.get<Recipient[]>('/api/reports/schedule-recipients'),
    enabled: opened,
  });
  const [frequency, setFrequency] = useState<ReportScheduleInput['Frequency']>('weekly');
  const [weekday, setWeekday] = useState<string>('1');
  const [dayOfMonth, setDayOfMonth] = useState<number>(1);
  const [userIds, setUserIds] = useState<string[]>([]);
  const [addresses, setAddresses] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    setError(null);
    try {
      await api.post<ReportSchedule>(base(savedId), {
        Frequency: frequency,
        Weekday: frequency === 'weekly' ? Number(weekday) : null,
        DayOfMonth: frequency === 'monthly' ? dayOfMonth : null,
        UserIds: userIds.map(Number),
        Addresses: addresses,
        Parameters: kept,
      } satisfies ReportScheduleInput);
      await queryClient.invalidateQueries({ queryKey: schedulesKey(savedId) });
      notifications.show({
        color: 'green',
        title: 'Scheduled',
        message: 'The report will be mailed as CSV.',
      });
      onClose();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Schedule by mail">
      <Stack>
        <Text size="sm" c="dimmed">
          The report's CSV is mailed in the morning of the association's day.
        </Text>
        <SegmentedControl
          aria-label="How often"
          value={frequency}
          onChange={(v) => setFrequency(v as ReportScheduleInput['Frequency'])}
          data={REPORT_SCHEDULE_FREQUENCIES.map((f) => ({ value: f, label: FREQUENCY_LABELS[f] }))}
        />
        {frequency === 'weekly' ? (
          <Select
            label="Day of the week"
            value={weekday}
            onChange={(v) => setWeekday(v ?? '1')}
            data={WEEKDAY_NAMES.map((name, i) => ({ value: String(i + 1), label: name }))}
            allowDeselect={false}
          />
        ) : null}
        {frequency === 'monthly' ? (
          <NumberInput
            label="Day of the month"
            description="A shorter month sends on its last day."
            min={1}
            max={31}
            value={dayOfMonth}
            onChange={(v) => setDayOfMonth(typeof v === 'number' ? v : 1)}
          />
        ) : null}
        <MultiSelect
          label="Staff"
          placeholder="Choose colleagues"
          searchable
          value={userIds}
          onChange={setUserIds}
          data={(recipients.data ?? []).map((r) => ({
            value: String(r.UserId),
            label: `${r.Name} (${r.Email})`,
          }))}
        />
        <TagsInput
          label="Other addresses"
          description="Type an address and press Enter."
          value={addresses}
          onChange={setAddresses}
          splitChars={[',', ' ', ';']}
        />
        {parameters.length > 0 ? (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Each send runs with
            </Text>
            <ReportParameterFields
              parameters={parameters}
              resource={resource}
              values={kept}
              onChange={setKept}
            />
          </Stack>
        ) : null}
        {error ? (
          <Text c="red" size="sm" role="alert">
            {error}
          </Text>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button loading={saving} onClick={() => void save()}>
            Save schedule
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** "Schedule by mail…" for the report's owner. */
export function ScheduleButton({
  savedId,
  parameters,
  resource,
  values,
}: { savedId: number; values: Record<string, unknown> } & ParameterProps) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconMail size={16} aria-hidden />}
        onClick={() => setOpened(true)}
      >
        Schedule by mail…
      </Button>
      {opened ? (
        <ScheduleForm
          savedId={savedId}
          opened={opened}
          onClose={() => setOpened(false)}
          parameters={parameters}
          resource={resource}
          values={values}
        />
      ) : null}
    </>
  );
}

/** The report's schedules, with Send now and Delete for its owner; nothing when it has none. */
export function ReportSchedules({
  savedId,
  isOwner,
  parameters,
  resource,
}: { savedId: number; isOwner: boolean } & ParameterProps) {
  const queryClient = useQueryClient();
  const schedules = useQuery({
    queryKey: schedulesKey(savedId),
    queryFn: () => api.get<ReportSchedule[]>(base(savedId)),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: schedulesKey(savedId) });
  const act = async (run: () => Promise<unknown>, done: string) => {
    try {
      await run();
      await refresh();
      notifications.show({ color: 'green', title: 'Done', message: done });
    } catch (e) {
      notifications.show({ color: 'red', title: 'Sorry', message: messageOf(e) });
    }
  };
  const list = schedules.data ?? [];
  if (list.length === 0) return null;
  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        Mailed as CSV
      </Title>
      <Stack gap="xs">
        {list.map((s) => {
          const to = [...s.UserNames, ...s.Addresses].join(', ');
          return (
            <Group key={s.ScheduleId} justify="space-between" wrap="nowrap" data-testid="report-schedule">
              <div>
                <Text fw={500}>
                  {s.Summary} to {to}
                </Text>
                <KeptParameterValues parameters={parameters} resource={resource} values={s.Parameters} />
                <Text size="sm" c="dimmed">
                  {s.LastSentOn ? `Last sent ${s.LastSentOn}` : 'Not sent yet'}
                  {s.LastOutcome ? ` · ${s.LastOutcome}` : ''}
                </Text>
                {s.Note ? (
                  <Text size="sm" c="orange">
                    {s.Note}
                  </Text>
                ) : null}
              </div>
              {isOwner ? (
                <Group gap="xs" wrap="nowrap">
                  <Button
                    size="xs"
                    variant="default"
                    leftSection={<IconSend size={14} aria-hidden />}
                    onClick={() =>
                      void act(
                        () => api.post(`${base(savedId)}/${s.ScheduleId}/send`),
                        'The report was mailed.',
                      )
                    }
                  >
                    Send now
                  </Button>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Delete the schedule ${s.Summary}`}
                    onClick={() =>
                      void act(
                        () => api.delete(`${base(savedId)}/${s.ScheduleId}`),
                        'The schedule was deleted.',
                      )
                    }
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              ) : null}
            </Group>
          );
        })}
      </Stack>
    </Card>
  );
}
