import { formatDateInput, leadingMembership, membershipStatusName } from '@guildhall/shared';
import { Text } from '@mantine/core';
import { useMyMemberships } from './my-memberships.ts';

/** The member's home: their membership and until when it runs (or when it ended); that they have none. */
export default function MyMembershipSummary() {
  const { data } = useMyMemberships();
  if (!data) return null;
  const m = leadingMembership(data.Memberships);
  const status = m ? membershipStatusName(m.Status).toLowerCase() : '';
  const end = m?.TermEnd ? formatDateInput(m.TermEnd) : null;
  const text = !m
    ? 'You have no membership yet.'
    : m.Status === 'active' || m.Status === 'grace'
      ? `${m.Name}, ${status}${end ? ` until ${end}` : ''}.`
      : m.Status === 'pending'
        ? `${m.Name}, pending: it starts once paid or approved.`
        : `${m.Name}, ${status}${end ? ` since its term ended on ${end}` : ''}.`;
  return (
    <Text size="sm" fw={600} mb="md" data-testid="home-summary-membership">
      {text}
    </Text>
  );
}
