/**
 * `/a/billing/reports`: accounts receivable aging on a chosen day (current, 1-30, 31-60, 61-90, over 90 days past
 * due, in total and for the contacts who owe most) and revenue by account and month from the ledger. Payments by
 * method, deposits by month and invoices by status are in the report builder's shipped reports.
 */
import {
  AGING_BUCKET_LABELS,
  AGING_BUCKETS,
  type AgingReport,
  contactsResource,
  DATE_RANGE_CUSTOM,
  DATE_RANGE_OPTIONS,
  formatDateInput,
  formatMoney,
  formatMonth,
  type RevenueReport,
} from '@guildhall/shared';
import { Anchor, Group, Paper, ScrollArea, Select, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { DateFieldInput } from '../../platform/fields/field-inputs.tsx';
import { LoadingBlock, PageHeader } from '../../platform/page.tsx';
import { useFieldContext } from '../../platform/screens/field-context.ts';
import { recordPath } from '../../platform/screens/resources.ts';

const right = { textAlign: 'right' } as const;
/** The date-range options of the lists' date filters (0-37); Custom takes the From and To days. */
const PERIODS = DATE_RANGE_OPTIONS.map((o) => ({ value: String(o.Id), label: o.Name }));

export function BillingReportsPage() {
  return (
    <Stack gap="xl">
      <PageHeader
        title="Billing reports"
        description="What is owed and how late, and revenue by account and month."
      />
      <Aging />
      <Revenue />
    </Stack>
  );
}

function Aging() {
  const context = useFieldContext();
  const [asOf, setAsOf] = useState<string | null>(null);
  const day = asOf ?? '';
  const q = useQuery({
    queryKey: ['billing', 'reports', 'aging', day],
    queryFn: () => api.get<AgingReport>(`/api/billing/reports/aging${day ? `?asOf=${day}` : ''}`),
  });
  const r = q.data;
  const money = (cents: number) => formatMoney(cents, { currency: r?.currency ?? 'USD' });
  return (
    <Stack gap="sm" component="section" aria-labelledby="aging-title">
      <Group justify="space-between" align="flex-end">
        <Title order={2} size="h3" id="aging-title">
          Receivables aging
        </Title>
        <div style={{ width: 200 }}>
          <DateFieldInput
            name="asOf"
            field={{ type: 'date', label: 'As of' }}
            value={asOf}
            onChange={(v) => setAsOf(typeof v === 'string' ? v : null)}
            context={context}
          />
        </div>
      </Group>
      {q.error ? <ErrorBlock error={q.error} onRetry={() => void q.refetch()} /> : null}
      {!r && !q.error ? <LoadingBlock /> : null}
      {r ? (
        <>
          <Text size="sm" c="dimmed">
            {r.totals.invoiceCount.toLocaleString('en-US')} open invoices of{' '}
            {r.totals.contactCount.toLocaleString('en-US')} contacts on {formatDateInput(r.asOf)}.
          </Text>
          <Paper withBorder>
            <Table aria-label="Aging totals">
              <Table.Thead>
                <Table.Tr>
                  {AGING_BUCKETS.map((b) => (
                    <Table.Th key={b} style={right}>
                      {AGING_BUCKET_LABELS[b]}
                    </Table.Th>
                  ))}
                  <Table.Th style={right}>Total</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                <Table.Tr fw={700}>
                  {AGING_BUCKETS.map((b) => (
                    <Table.Td key={b} style={right}>
                      {money(r.totals[b])}
                    </Table.Td>
                  ))}
                  <Table.Td style={right}>{money(r.totals.totalCents)}</Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </Paper>
          <ScrollArea>
            <Table striped aria-label="Aging by contact">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Contact</Table.Th>
                  <Table.Th style={right}>Invoices</Table.Th>
                  {AGING_BUCKETS.map((b) => (
                    <Table.Th key={b} style={right}>
                      {AGING_BUCKET_LABELS[b]}
                    </Table.Th>
                  ))}
                  <Table.Th style={right}>Total</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {r.contacts.map((c) => (
                  <Table.Tr key={c.contactId}>
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={`${recordPath(contactsResource, c.contactId)}?tab=purchases`}
                      >
                        {c.contactName || `Contact ${c.contactId}`}
                      </Anchor>
                    </Table.Td>
                    <Table.Td style={right}>{c.invoiceCount}</Table.Td>
                    {AGING_BUCKETS.map((b) => (
                      <Table.Td key={b} style={right}>
                        {c[b] ? money(c[b]) : ''}
                      </Table.Td>
                    ))}
                    <Table.Td style={right}>{money(c.totalCents)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        </>
      ) : null}
    </Stack>
  );
}

function Revenue() {
  const [range, setRange] = useState(DATE_RANGE_CUSTOM);
  const context = useFieldContext();
  const [from, setFrom] = useState<string | null>(null);
  const [to, setTo] = useState<string | null>(null);
  const custom = range === DATE_RANGE_CUSTOM;
  const params = new URLSearchParams();
  if (!custom) params.set('range', String(range));
  else {
    if (from) params.set('from', from);
    if (to) params.set('to', to);
  }
  const query = params.toString();
  const q = useQuery({
    queryKey: ['billing', 'reports', 'revenue', query],
    queryFn: () => api.get<RevenueReport>(`/api/billing/reports/revenue${query ? `?${query}` : ''}`),
  });
  const r = q.data;
  const money = (cents: number) => formatMoney(cents, { currency: r?.currency ?? 'USD' });
  return (
    <Stack gap="sm" component="section" aria-labelledby="revenue-title">
      <Group justify="space-between" align="flex-end">
        <Title order={2} size="h3" id="revenue-title">
          Revenue by account and month
        </Title>
        <Group gap="xs" align="flex-end">
          <Select
            label="Period"
            data={PERIODS}
            value={String(range)}
            onChange={(v) => setRange(v === null ? DATE_RANGE_CUSTOM : Number(v))}
            allowDeselect={false}
            searchable
            w={190}
          />
          {custom ? (
            <>
              <div style={{ width: 150 }}>
                <DateFieldInput
                  name="from"
                  field={{ type: 'date', label: 'From' }}
                  value={from}
                  onChange={(v) => setFrom(typeof v === 'string' ? v : null)}
                  lowerThan={to}
                  context={context}
                />
              </div>
              <div style={{ width: 150 }}>
                <DateFieldInput
                  name="to"
                  field={{ type: 'date', label: 'To' }}
                  value={to}
                  onChange={(v) => setTo(typeof v === 'string' ? v : null)}
                  higherThan={from}
                  context={context}
                />
              </div>
            </>
          ) : null}
        </Group>
      </Group>
      {r ? (
        <Text size="sm" c="dimmed" data-testid="revenue-period">
          From {formatDateInput(r.from)} to {formatDateInput(r.to)}.
        </Text>
      ) : null}
      {q.error ? <ErrorBlock error={q.error} onRetry={() => void q.refetch()} /> : null}
      {!r && !q.error ? <LoadingBlock /> : null}
      {r ? (
        <ScrollArea>
          <Table striped aria-label="Revenue by account and month">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Account</Table.Th>
                {r.months.map((m) => (
                  <Table.Th key={m} style={{ ...right, whiteSpace: 'nowrap' }}>
                    {formatMonth(m)}
                  </Table.Th>
                ))}
                <Table.Th style={right}>Total</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {r.accounts.map((a) => (
                <Table.Tr key={a.accountId}>
                  <Table.Td>
                    {a.code} {a.name}
                  </Table.Td>
                  {a.byMonth.map((cents, i) => (
                    <Table.Td key={r.months[i]} style={right}>
                      {cents ? money(cents) : ''}
                    </Table.Td>
                  ))}
                  <Table.Td style={right}>{money(a.totalCents)}</Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr fw={700}>
                <Table.Td>Total</Table.Td>
                {r.totalsByMonth.map((cents, i) => (
                  <Table.Td key={r.months[i]} style={right}>
                    {money(cents)}
                  </Table.Td>
                ))}
                <Table.Td style={right}>{money(r.totalCents)}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </ScrollArea>
      ) : null}
    </Stack>
  );
}
