/** The invoice record's "Invoice" tab: the invoice as the contact receives it: lines, totals, payments, balance. */
import {
  formatMoney as formatIn,
  INVOICE_STATUS_LABELS,
  type InvoiceDetail,
  paymentsResource,
} from '@guildhall/shared';
import { Anchor, Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { formatDay } from '../../platform/format.ts';
import { useDisplayTimeZone } from '../../platform/identity.ts';
import type { RecordActionProps } from '../../platform/modules/web-module.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { recordPath } from '../../platform/screens/resources.ts';
import { STATUS_COLORS } from './status-colors.ts';

const right = { textAlign: 'right' } as const;

export default function InvoiceDocumentTab({ recordId }: RecordActionProps) {
  const shownZone = useDisplayTimeZone();
  const detail = useQuery({
    queryKey: ['billing', 'invoice', recordId],
    queryFn: () => api.get<InvoiceDetail>(`/api/billing/invoices/${encodeURIComponent(recordId)}`),
  });
  if (detail.error) return <ErrorBlock error={detail.error} onRetry={() => void detail.refetch()} />;
  const i = detail.data;
  if (!i) return <LoadingBlock />;
  // The invoice's own currency: the one it was issued in, whatever the association's is now.
  const formatMoney = (cents: number) => formatIn(cents, { currency: i.currency });
  const totals: [string, number, boolean][] = [
    ['Subtotal', i.subtotalCents, false],
    ...(i.discountCents ? [['Discounts', -i.discountCents, false] as [string, number, boolean]] : []),
    ['Tax', i.taxCents, false],
    ['Total', i.totalCents, true],
    ...(i.paidCents ? [['Paid and credited', -i.paidCents, false] as [string, number, boolean]] : []),
    ...(i.writtenOffCents ? [['Written off', -i.writtenOffCents, false] as [string, number, boolean]] : []),
    ['Balance due', i.balanceCents, true],
  ];
  return (
    <Stack gap="md" maw={980}>
      <Group justify="space-between">
        <Title order={3} size="h4">
          Invoice {i.number} · {i.contactName}
        </Title>
        <Badge color={STATUS_COLORS[i.status] ?? 'gray'} variant="light" size="lg">
          {INVOICE_STATUS_LABELS[i.status]}
        </Badge>
      </Group>
      <Table withTableBorder aria-label="Invoice lines">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Description</Table.Th>
            <Table.Th style={right}>Qty</Table.Th>
            <Table.Th style={right}>Unit price</Table.Th>
            <Table.Th style={right}>Discount</Table.Th>
            <Table.Th style={right}>Tax</Table.Th>
            <Table.Th style={right}>Amount</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {i.lines.map((l) => (
            <Table.Tr key={l.lineId}>
              <Table.Td>
                {l.description}
                <Text size="xs" c="dimmed">
                  {l.revenueAccount}
                </Text>
              </Table.Td>
              <Table.Td style={right}>{l.quantity}</Table.Td>
              <Table.Td style={right}>{formatMoney(l.unitPriceCents)}</Table.Td>
              <Table.Td style={right}>{l.discountCents ? `−${formatMoney(l.discountCents)}` : ''}</Table.Td>
              <Table.Td style={right}>{l.taxCents ? formatMoney(l.taxCents) : ''}</Table.Td>
              <Table.Td style={right}>{formatMoney(l.totalCents)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group justify="flex-end">
        <Paper withBorder p="sm" miw={300}>
          <Table aria-label="Invoice totals" withRowBorders={false}>
            <Table.Tbody>
              {totals.map(([label, cents, strong]) => (
                <Table.Tr key={label} fw={strong ? 700 : undefined}>
                  <Table.Td>{label}</Table.Td>
                  <Table.Td style={right}>
                    {cents < 0 ? `−${formatMoney(-cents)}` : formatMoney(cents)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      </Group>
      <Title order={4}>Payments and credits</Title>
      {i.applications.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing applied to this invoice yet.
        </Text>
      ) : (
        <Table aria-label="Payments and credits applied">
          <Table.Tbody>
            {i.applications.map((a) => (
              <Table.Tr key={a.applicationId} c={a.isReversed ? 'dimmed' : undefined}>
                <Table.Td>{formatDay(a.createdAt, shownZone)}</Table.Td>
                <Table.Td>
                  {a.paymentId != null ? (
                    <Anchor component={Link} to={recordPath(paymentsResource, a.paymentId)}>
                      {a.label}
                    </Anchor>
                  ) : (
                    a.label
                  )}
                  {a.isReversed ? ' (taken back)' : ''}
                </Table.Td>
                <Table.Td style={right}>{formatMoney(a.amountCents)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {i.memo ? <Text size="sm">{i.memo}</Text> : null}
      {i.voidReason ? (
        <Text size="sm" c="red">
          Void: {i.voidReason}
        </Text>
      ) : null}
    </Stack>
  );
}
