/** The contact record's Purchases tab: the account balance, open invoices, payments and credits of the contact. */
import {
  type ContactAccount,
  formatDateInput,
  formatMoney as formatIn,
  INVOICE_STATUS_LABELS,
  invoicesResource,
  PAYMENT_METHOD_LABELS,
  paymentsResource,
} from '@guildhall/shared';
import { Anchor, Badge, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { formatMoney } from '../../platform/fields/field-display.tsx';
import { Figure } from '../../platform/figure.tsx';
import { formatDay } from '../../platform/format.ts';
import { useDisplayTimeZone } from '../../platform/identity.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { recordPath } from '../../platform/screens/resources.ts';
import { STATUS_COLORS } from './status-colors.ts';

export default function ContactAccountTab({ recordId }: { recordId: string }) {
  const shownZone = useDisplayTimeZone();
  const account = useQuery({
    queryKey: ['billing', 'account', recordId],
    queryFn: () => api.get<ContactAccount>(`/api/billing/contacts/${encodeURIComponent(recordId)}/account`),
  });
  if (account.error)
    return (
      <Text c="red" size="sm">
        The account could not be loaded.
      </Text>
    );
  const a = account.data;
  if (!a) return <LoadingBlock />;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Figure
          label="Owed on open invoices"
          value={formatMoney(a.openBalanceCents)}
          {...(a.overdueCount > 0 ? { hint: `${a.overdueCount} overdue` } : {})}
        />
        <Figure
          label="Credit available"
          value={formatMoney(a.availableCreditCents)}
          hint="Unapplied payments and credits"
        />
        <Figure
          label="Account balance"
          value={formatMoney(a.accountBalanceCents)}
          hint={a.accountBalanceCents < 0 ? 'The association owes this contact' : 'Owed minus credit'}
        />
      </SimpleGrid>

      <Title order={4}>Invoices</Title>
      {a.invoices.length === 0 ? (
        <Text size="sm" c="dimmed">
          No invoices yet.
        </Text>
      ) : (
        <Table striped highlightOnHover aria-label="Invoices">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Number</Table.Th>
              <Table.Th>Date</Table.Th>
              <Table.Th>Due</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th style={{ textAlign: 'right' }}>Total</Table.Th>
              <Table.Th style={{ textAlign: 'right' }}>Balance</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {a.invoices.map((i) => (
              <Table.Tr key={i.invoiceId}>
                <Table.Td>
                  <Anchor component={Link} to={recordPath(invoicesResource, i.invoiceId)}>
                    {i.number}
                  </Anchor>
                </Table.Td>
                <Table.Td>{formatDateInput(i.issueDate)}</Table.Td>
                <Table.Td>{formatDateInput(i.dueDate)}</Table.Td>
                <Table.Td>
                  <Badge color={STATUS_COLORS[i.status] ?? 'gray'} variant="light">
                    {INVOICE_STATUS_LABELS[i.status]}
                  </Badge>
                </Table.Td>
                {/* Each invoice in the currency it was issued in. */}
                <Table.Td style={{ textAlign: 'right' }}>
                  {formatIn(i.totalCents, { currency: i.currency })}
                </Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>
                  {formatIn(i.balanceCents, { currency: i.currency })}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}

      <Group grow align="flex-start">
        <Stack gap="xs">
          <Title order={4}>Payments</Title>
          {a.payments.length === 0 ? (
            <Text size="sm" c="dimmed">
              No payments yet.
            </Text>
          ) : (
            <Table aria-label="Payments">
              <Table.Tbody>
                {a.payments.map((p) => (
                  <Table.Tr key={p.paymentId}>
                    <Table.Td>
                      <Anchor component={Link} to={recordPath(paymentsResource, p.paymentId)}>
                        {formatDay(p.paidAt, shownZone)}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      {PAYMENT_METHOD_LABELS[p.method as keyof typeof PAYMENT_METHOD_LABELS] ?? p.method}
                      {p.status === 'bounced' ? ' (bounced)' : ''}
                    </Table.Td>
                    <Table.Td style={{ textAlign: 'right' }}>{formatMoney(p.amountCents)}</Table.Td>
                    <Table.Td style={{ textAlign: 'right' }}>
                      {p.unappliedCents > 0 ? `${formatMoney(p.unappliedCents)} unapplied` : ''}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
        <Stack gap="xs">
          <Title order={4}>Credits</Title>
          {a.credits.length === 0 ? (
            <Text size="sm" c="dimmed">
              No credits.
            </Text>
          ) : (
            <Table aria-label="Credits">
              <Table.Tbody>
                {a.credits.map((c) => (
                  <Table.Tr key={c.creditId}>
                    <Table.Td>{c.reason}</Table.Td>
                    <Table.Td style={{ textAlign: 'right' }}>{formatMoney(c.amountCents)}</Table.Td>
                    <Table.Td style={{ textAlign: 'right' }}>
                      {c.unappliedCents > 0 ? `${formatMoney(c.unappliedCents)} left` : 'applied'}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      </Group>
    </Stack>
  );
}
