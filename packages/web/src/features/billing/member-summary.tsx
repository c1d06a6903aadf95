import { formatMoney } from '@guildhall/shared';
import { Text } from '@mantine/core';
import { useAccount } from './member-account.ts';

/** The member's home: what they owe on open invoices, how many are overdue; or that nothing is owed. */
export default function MemberInvoicesSummary() {
  const { data } = useAccount();
  if (!data) return null;
  const open = data.invoices.filter((i) => i.balanceCents > 0 && i.status !== 'void').length;
  return (
    <Text size="sm" fw={600} mb="md" data-testid="home-summary-invoices">
      {data.openBalanceCents > 0
        ? `You owe ${formatMoney(data.openBalanceCents, { currency: data.currency })} on ${open} ${
            open === 1 ? 'invoice' : 'invoices'
          }${data.overdueCount > 0 ? `, ${data.overdueCount} overdue` : ''}.`
        : 'Nothing owed.'}
    </Text>
  );
}
