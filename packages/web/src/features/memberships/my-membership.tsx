import {
  billFrequencyName,
  formatDateInput,
  type MyMembership,
  membershipStatusName,
} from '@guildhall/shared';
import { Alert, Badge, Card, Group, SimpleGrid, Stack, Switch, Table, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../platform/api-client.ts';
import { formatMoney } from '../../platform/fields/field-display.tsx';
import { notifyError, notifySaved } from '../../platform/notify.ts';
import { LoadingBlock, PageHeader } from '../../platform/page.tsx';
import { MY_MEMBERSHIPS_KEY, useMyMemberships } from './my-memberships.ts';

const COLORS: Record<string, string> = {
  active: 'green',
  pending: 'blue',
  grace: 'orange',
  lapsed: 'red',
  dropped: 'gray',
};

function day(value: string | null): string {
  return value ? formatDateInput(value) : '—';
}

/** `/m/membership`: the member's own memberships: status, term, fees, what is owed, autopay on or off. */
export function MyMembershipPage() {
  const key = MY_MEMBERSHIPS_KEY;
  const { data, error } = useMyMemberships();
  if (error) return <Alert color="red">Your membership could not be loaded.</Alert>;
  if (!data) return <LoadingBlock />;
  return (
    <Stack gap="md">
      <PageHeader title="Your membership" description="Your membership, its term and dues." />
      {data.Memberships.length === 0 ? (
        <Alert color="blue">You hold no membership yet. Ask the association's office to join.</Alert>
      ) : null}
      {data.Memberships.map((m) => (
        <MembershipCard key={m.MembershipId} m={m} queryKey={key} />
      ))}
    </Stack>
  );
}

function MembershipCard({ m, queryKey }: { m: MyMembership; queryKey: string[] }) {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  async function toggle(on: boolean) {
    setBusy(true);
    try {
      const answer = await api.put<{ Memberships: MyMembership[] }>(
        `/api/mic/memberships/${m.MembershipId}/autopay`,
        {
          AutoPay: on,
        },
      );
      queryClient.setQueryData(queryKey, answer);
      notifySaved(on ? 'Autopay is on' : 'Autopay is off');
    } catch (e) {
      notifyError(e);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Card withBorder component="section" aria-label={m.Name}>
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h3">
          {m.Name}
        </Title>
        <Badge color={COLORS[m.Status] ?? 'gray'} data-testid="my-status">
          {membershipStatusName(m.Status)}
        </Badge>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 3 }} mb="md">
        <div>
          <Text size="xs" c="dimmed">
            Term
          </Text>
          <Text data-testid="my-term">
            {day(m.TermStart)} to {day(m.TermEnd)}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            Dues per term
          </Text>
          <Text>
            {formatMoney(m.TermTotal)}, billed {billFrequencyName(m.BillFrequencyTypeId).toLowerCase()}
          </Text>
        </div>
        <div>
          <Text size="xs" c="dimmed">
            Next bill
          </Text>
          <Text data-testid="my-next-bill">
            {m.OpenAmount !== null ? `${formatMoney(m.OpenAmount)} (open invoice)` : 'Nothing owed now'}
          </Text>
        </div>
      </SimpleGrid>
      <Table withTableBorder mb="md">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Fee</Table.Th>
            <Table.Th>Billed</Table.Th>
            <Table.Th ta="right">Per term</Table.Th>
            <Table.Th ta="right">Per bill</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {m.Fees.map((f) => (
            <Table.Tr key={`${f.Name}-${f.BillFrequencyTypeId}`}>
              <Table.Td>{f.Name}</Table.Td>
              <Table.Td>{billFrequencyName(f.BillFrequencyTypeId)}</Table.Td>
              <Table.Td ta="right">{formatMoney(f.Price)}</Table.Td>
              <Table.Td ta="right">{formatMoney(f.PerBillAmount)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {m.CoveredBy ? (
        <Text size="sm" data-testid="my-covered-by">
          Your member access comes with {m.CoveredBy}’s membership; the organisation pays its dues.
        </Text>
      ) : m.Status !== 'dropped' ? (
        <Switch
          label="Pay renewals automatically with my card on file (autopay)"
          checked={m.AutoPay}
          disabled={busy}
          onChange={(e) => void toggle(e.currentTarget.checked)}
        />
      ) : null}
    </Card>
  );
}
