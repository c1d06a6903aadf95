import { type MembershipCounts, membershipStatusName } from '@guildhall/shared';
import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { LoadingBlock } from '../../platform/page.tsx';

function useCounts() {
  return useQuery({
    queryKey: ['dashboard', 'memberships.counts'],
    queryFn: () => api.get<MembershipCounts>('/api/memberships/counts'),
  });
}

function Figure(props: { value: number | undefined; label: string; to: string; error: boolean }) {
  if (props.error)
    return (
      <Text size="sm" c="red">
        This widget could not be loaded.
      </Text>
    );
  if (props.value === undefined) return <LoadingBlock />;
  return (
    <Stack gap={2}>
      <Title order={2}>{props.value.toLocaleString('en-US')}</Title>
      <Anchor component={Link} to={props.to} size="sm">
        {props.label}
      </Anchor>
    </Stack>
  );
}

const LIST = '/micronet/list/memberships/memberships';

export function ActiveMembers() {
  const counts = useCounts();
  return (
    <Figure value={counts.data?.Active} label="Active memberships" to={LIST} error={Boolean(counts.error)} />
  );
}

export function RenewalsDue() {
  const counts = useCounts();
  return (
    <Figure
      value={counts.data?.RenewalsDue30}
      label="Terms ending in the next 30 days"
      to={LIST}
      error={Boolean(counts.error)}
    />
  );
}

export function LapsedThisMonth() {
  const counts = useCounts();
  return (
    <Figure
      value={counts.data?.LapsedThisMonth}
      label="Lapsed this month"
      to={LIST}
      error={Boolean(counts.error)}
    />
  );
}

export function MembershipsByStatus() {
  const counts = useCounts();
  if (!counts.data) return <LoadingBlock />;
  return (
    <Stack gap={4}>
      {counts.data.ByStatus.map((s) => (
        <Text key={s.Status} size="sm">
          {membershipStatusName(s.Status)}: {s.Count.toLocaleString('en-US')}
        </Text>
      ))}
    </Stack>
  );
}
