/** Billing's dashboard widgets: open receivables, overdue invoices, revenue this month (GET /api/billing/dashboard). */
import { type BillingDashboard, formatMoney } from '@guildhall/shared';
import { Anchor, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { LoadingBlock } from '../../platform/page.tsx';

function useFigures() {
  return useQuery({
    queryKey: ['dashboard', 'billing'],
    queryFn: () => api.get<BillingDashboard>('/api/billing/dashboard'),
  });
}

function Figure(props: {
  value: string | undefined;
  label: string;
  hint?: string | undefined;
  to: string;
  error: boolean;
}) {
  if (props.error)
    return (
      <Text size="sm" c="red">
        This widget could not be loaded.
      </Text>
    );
  if (props.value === undefined) return <LoadingBlock />;
  return (
    <Stack gap={2}>
      <Title order={2}>{props.value}</Title>
      {props.hint ? (
        <Text size="xs" c="dimmed">
          {props.hint}
        </Text>
      ) : null}
      <Anchor component={Link} to={props.to} size="sm">
        {props.label}
      </Anchor>
    </Stack>
  );
}

const money = (d: BillingDashboard | undefined, cents: (d: BillingDashboard) => number) =>
  d ? formatMoney(cents(d), { currency: d.currency }) : undefined;

export function OpenReceivables() {
  const q = useFigures();
  return (
    <Figure
      value={money(q.data, (d) => d.openReceivablesCents)}
      hint={q.data ? `${q.data.openInvoiceCount.toLocaleString('en-US')} open invoices` : undefined}
      label="Receivables aging"
      to="/a/billing/reports"
      error={Boolean(q.error)}
    />
  );
}

export function OverdueInvoices() {
  const q = useFigures();
  return (
    <Figure
      value={q.data?.overdueCount.toLocaleString('en-US')}
      hint={q.data ? `${money(q.data, (d) => d.overdueCents)} past due` : undefined}
      label="Open invoices"
      to="/micronet/list/billing/invoices"
      error={Boolean(q.error)}
    />
  );
}

export function RevenueThisMonth() {
  const q = useFigures();
  return (
    <Figure
      value={money(q.data, (d) => d.revenueThisMonthCents)}
      hint={q.data ? `Last month ${money(q.data, (d) => d.revenueLastMonthCents)}` : undefined}
      label="Revenue by account"
      to="/a/billing/reports"
      error={Boolean(q.error)}
    />
  );
}
