/**
 * `/a/memberships/renewals`: the renewal run screen. The preview says who renews today and at what price (the new
 * term's prices beside the current ones); staff start the run, follow its progress (renewal invoices made so far)
 * and read its results (invoices made with links, autopay charges, grace and lapse, reminders mailed); the latest
 * runs are listed below.
 */
import {
  formatDateInput,
  formatInstant,
  invoicesResource,
  membershipsResource,
  type RenewalPreview,
  type RenewalRun,
  type RenewalRunDetail,
} from '@guildhall/shared';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { formatMoney } from '../../platform/fields/field-display.tsx';
import { Figure } from '../../platform/figure.tsx';
import { useIdentity } from '../../platform/identity.ts';
import { notifyError } from '../../platform/notify.ts';
import { LoadingBlock, PageHeader } from '../../platform/page.tsx';
import { recordPath } from '../../platform/screens/resources.ts';

const STATUS_COLOR: Record<RenewalRun['Status'], string> = { running: 'blue', done: 'green', failed: 'red' };
const STATUS_NAME: Record<RenewalRun['Status'], string> = {
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
};

function Preview({ preview }: { preview: RenewalPreview }) {
  if (preview.Due === 0)
    return (
      <Alert color="green" title="Nothing to renew today">
        Every membership due by {formatDateInput(preview.Today)} has its renewal invoice. A run now would
        still charge autopay cards that are due, move unpaid memberships to grace or lapsed, and mail the
        reminders due.
      </Alert>
    );
  return (
    <Stack gap="xs">
      <Text>
        <b>{preview.Due.toLocaleString('en-US')}</b> {preview.Due === 1 ? 'membership is' : 'memberships are'}{' '}
        due for renewal on {formatDateInput(preview.Today)}. Each gets an invoice at the new term's prices
        {preview.Rows.length < preview.Due ? `; the first ${preview.Rows.length} are shown` : ''}.
      </Text>
      <Table.ScrollContainer minWidth={760}>
        <Table striped data-testid="renewal-preview">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Member</Table.Th>
              <Table.Th>Membership</Table.Th>
              <Table.Th>Term ends</Table.Th>
              <Table.Th>Next term</Table.Th>
              <Table.Th ta="right">Current term</Table.Th>
              <Table.Th ta="right">New term</Table.Th>
              <Table.Th ta="right">Invoice</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.Rows.map((r) => (
              <Table.Tr key={r.MembershipId}>
                <Table.Td>
                  <Anchor component={Link} to={recordPath(membershipsResource, r.MembershipId)}>
                    {r.ContactName}
                  </Anchor>
                </Table.Td>
                <Table.Td>{r.Name}</Table.Td>
                <Table.Td>{formatDateInput(r.TermEnd)}</Table.Td>
                <Table.Td>from {formatDateInput(r.NextTermStart)}</Table.Td>
                <Table.Td ta="right">{formatMoney(r.CurrentTotal)}</Table.Td>
                <Table.Td ta="right">
                  {formatMoney(r.NewTotal)}
                  {r.NewTotal !== r.CurrentTotal ? (
                    <Badge ml="xs" size="xs" color={r.NewTotal > r.CurrentTotal ? 'orange' : 'teal'}>
                      {r.NewTotal > r.CurrentTotal ? 'up' : 'down'}
                    </Badge>
                  ) : null}
                </Table.Td>
                <Table.Td ta="right">{formatMoney(r.Invoice)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

function RunResult({ runId, due }: { runId: number; due: number }) {
  const me = useIdentity();
  const zone = me.tenant.settings.defaultTimezone;
  const queryClient = useQueryClient();
  const detail = useQuery({
    queryKey: ['memberships', 'renewal-run', runId],
    queryFn: async () => {
      const answer = await api.get<RenewalRunDetail>(`/api/memberships/renewals/runs/${runId}`);
      if (answer.Run.Status !== 'running') {
        void queryClient.invalidateQueries({ queryKey: ['memberships', 'renewal-preview'] });
        void queryClient.invalidateQueries({ queryKey: ['memberships', 'renewal-runs'] });
      }
      return answer;
    },
    refetchInterval: (q) => (q.state.data?.Run.Status === 'running' ? 1000 : false),
  });
  if (detail.error) return <Alert color="red">The run could not be loaded.</Alert>;
  const d = detail.data;
  if (!d) return <LoadingBlock />;
  const run = d.Run;
  return (
    <Paper withBorder p="md" data-testid="renewal-run-result">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={4}>Run {run.RunId}</Title>
          <Badge color={STATUS_COLOR[run.Status]}>{STATUS_NAME[run.Status]}</Badge>
        </Group>
        {run.Status === 'running' ? (
          <Stack gap={4}>
            <Progress value={due > 0 ? Math.min(100, (100 * run.Invoiced) / due) : 100} animated />
            <Text size="sm" c="dimmed">
              {run.Invoiced.toLocaleString('en-US')} of {due.toLocaleString('en-US')} renewal invoices made…
            </Text>
          </Stack>
        ) : null}
        {run.Status === 'failed' ? (
          <Alert color="red" title="The run stopped">
            {run.Error ?? 'An error stopped the run.'} What it made is kept; run it again to finish (nothing
            is invoiced twice).
          </Alert>
        ) : null}
        {run.Status === 'done' ? (
          <SimpleGrid cols={{ base: 2, sm: 4 }}>
            <Figure
              label="Renewal invoices"
              value={run.Invoiced.toLocaleString('en-US')}
              hint="made at the new term's prices"
            />
            <Figure
              label="Autopay charges"
              value={run.Charged.toLocaleString('en-US')}
              hint="asked of the card on file"
            />
            <Figure
              label="Status changes"
              value={run.Moved.toLocaleString('en-US')}
              hint="to grace or lapsed, by the calendar"
            />
            <Figure
              label="Reminders mailed"
              value={run.Reminded.toLocaleString('en-US')}
              hint="before the term ends"
            />
          </SimpleGrid>
        ) : null}
        <Text size="xs" c="dimmed">
          Started {formatInstant(run.StartedAt, zone)} by {run.StartedBy ?? 'the schedule'}
          {run.FinishedAt ? `, finished ${formatInstant(run.FinishedAt, zone)}` : ''}.
        </Text>
        {d.Invoices.length > 0 ? (
          <Table.ScrollContainer minWidth={640}>
            <Table striped data-testid="renewal-run-invoices">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Member</Table.Th>
                  <Table.Th>Membership</Table.Th>
                  <Table.Th>New term</Table.Th>
                  <Table.Th ta="right">Amount</Table.Th>
                  <Table.Th>Invoice</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.Invoices.map((i) => (
                  <Table.Tr key={`${i.MembershipId}-${i.TermStart}`}>
                    <Table.Td>
                      <Anchor component={Link} to={recordPath(membershipsResource, i.MembershipId)}>
                        {i.ContactName}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{i.Name}</Table.Td>
                    <Table.Td>
                      {formatDateInput(i.TermStart)} to {formatDateInput(i.TermEnd)}
                    </Table.Td>
                    <Table.Td ta="right">{formatMoney(i.Amount)}</Table.Td>
                    <Table.Td>
                      {i.InvoiceId !== null ? (
                        <Anchor component={Link} to={recordPath(invoicesResource, i.InvoiceId)}>
                          Invoice {i.InvoiceId} ({i.State})
                        </Anchor>
                      ) : (
                        'nothing to pay'
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
      </Stack>
    </Paper>
  );
}

export function RenewalRunPage() {
  const me = useIdentity();
  const zone = me.tenant.settings.defaultTimezone;
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState<{ runId: number; due: number } | null>(null);
  const preview = useQuery({
    queryKey: ['memberships', 'renewal-preview'],
    queryFn: () => api.get<RenewalPreview>('/api/memberships/renewals/preview'),
  });
  const runs = useQuery({
    queryKey: ['memberships', 'renewal-runs'],
    queryFn: () => api.get<{ Runs: RenewalRun[] }>('/api/memberships/renewals/runs'),
  });
  const start = useMutation({
    mutationFn: () => api.post<RenewalRun>('/api/memberships/renewals/run', {}),
    onSuccess: (run) => {
      setCurrent({ runId: run.RunId, due: preview.data?.Due ?? 0 });
      void queryClient.invalidateQueries({ queryKey: ['memberships', 'renewal-runs'] });
    },
    onError: notifyError,
  });
  const running = runs.data?.Runs.some((r) => r.Status === 'running') ?? false;
  return (
    <>
      <PageHeader
        title="Renewal run"
        description="Renewal invoices for the memberships due, autopay charges, grace and lapse, and the reminders due: preview first, then run. A run never invoices a membership twice."
        actions={
          <Button
            leftSection={<IconPlayerPlay size={16} />}
            onClick={() => start.mutate()}
            loading={start.isPending}
            disabled={running || !preview.data}
          >
            Run renewals now
          </Button>
        }
      />
      <Stack gap="lg">
        {current ? <RunResult runId={current.runId} due={current.due} /> : null}
        <Stack gap="xs">
          <Title order={3}>Preview</Title>
          {preview.error ? <Alert color="red">The preview could not be loaded.</Alert> : null}
          {preview.data ? <Preview preview={preview.data} /> : preview.error ? null : <LoadingBlock />}
        </Stack>
        <Stack gap="xs">
          <Title order={3}>Latest runs</Title>
          {runs.data && runs.data.Runs.length === 0 ? <Text c="dimmed">No run yet.</Text> : null}
          {runs.data && runs.data.Runs.length > 0 ? (
            <Table.ScrollContainer minWidth={640}>
              <Table striped highlightOnHover data-testid="renewal-runs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Run</Table.Th>
                    <Table.Th>Started</Table.Th>
                    <Table.Th>By</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th ta="right">Invoices</Table.Th>
                    <Table.Th ta="right">Charges</Table.Th>
                    <Table.Th ta="right">Status changes</Table.Th>
                    <Table.Th ta="right">Reminders</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {runs.data.Runs.map((r) => (
                    <Table.Tr key={r.RunId}>
                      <Table.Td>
                        <Anchor
                          component="button"
                          onClick={() => setCurrent({ runId: r.RunId, due: r.Invoiced })}
                        >
                          Run {r.RunId}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{formatInstant(r.StartedAt, zone)}</Table.Td>
                      <Table.Td>{r.StartedBy ?? 'Schedule'}</Table.Td>
                      <Table.Td>
                        <Badge color={STATUS_COLOR[r.Status]} variant="light">
                          {STATUS_NAME[r.Status]}
                        </Badge>
                      </Table.Td>
                      <Table.Td ta="right">{r.Invoiced}</Table.Td>
                      <Table.Td ta="right">{r.Charged}</Table.Td>
                      <Table.Td ta="right">{r.Moved}</Table.Td>
                      <Table.Td ta="right">{r.Reminded}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          ) : null}
        </Stack>
      </Stack>
    </>
  );
}
