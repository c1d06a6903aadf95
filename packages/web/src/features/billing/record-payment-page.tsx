/**
 * Record a payment (back office): choose the contact, the amount and how it was paid, then allocate it to the
 * contact's open invoices (oldest first with one click, or by hand). What is not allocated stays a credit on the
 * contact's account. Posted through POST /api/billing/payments/record, which checks every amount again.
 */
import {
  type ContactAccount,
  formatDateInput,
  INVOICE_STATUS_LABELS,
  type LookupOption,
  PAYMENT_METHOD_LABELS,
  PAYMENT_METHOD_VALUES,
  type PaymentRecordWire,
  paymentsResource,
} from '@guildhall/shared';
import {
  Alert,
  Badge,
  Button,
  Group,
  NumberInput,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api, isApiError } from '../../platform/api-client.ts';
import { formatMoney } from '../../platform/fields/field-display.tsx';
import { moneySymbol } from '../../platform/money.ts';
import { notifySaved } from '../../platform/notify.ts';
import { PageHeader } from '../../platform/page.tsx';
import { recordPath } from '../../platform/screens/resources.ts';
import { STATUS_COLORS } from './status-colors.ts';

type Method = (typeof PAYMENT_METHOD_VALUES)[number];

const toCents = (v: string | number) => Math.round(Number(v || 0) * 100);
const right = { textAlign: 'right' } as const;

export function RecordPaymentPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const preset = Number(params.get('contact'));
  const [contactId, setContactId] = useState<number | null>(
    Number.isSafeInteger(preset) && preset > 0 ? preset : null,
  );
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [amount, setAmount] = useState<string | number>('');
  const [method, setMethod] = useState<Method>('check');
  const [checkNumber, setCheckNumber] = useState('');
  const [reference, setReference] = useState('');
  const [applied, setApplied] = useState<Record<number, string | number>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; errors?: Record<string, string[]> } | null>(null);

  const contacts = useQuery({
    queryKey: ['lookup', 'contacts', debounced],
    queryFn: ({ signal }) =>
      api.get<LookupOption[]>(
        `/api/contacts/contacts/contactLookup?search=${encodeURIComponent(debounced)}`,
        {
          signal,
        },
      ),
    staleTime: 30_000,
  });
  const account = useQuery({
    queryKey: ['billing', 'account', String(contactId)],
    queryFn: () => api.get<ContactAccount>(`/api/billing/contacts/${contactId}/account`),
    enabled: contactId !== null,
  });
  const open = useMemo(
    () =>
      (account.data?.invoices ?? [])
        .filter((i) => i.status === 'open' || i.status === 'partially_paid')
        .sort((a, b) => a.dueDate.localeCompare(b.dueDate) || a.invoiceId - b.invoiceId),
    [account.data],
  );
  const contactOptions = useMemo(() => {
    const list = (contacts.data ?? []).map((c) => ({ value: String(c.Id), label: c.Name }));
    if (contactId !== null && !list.some((o) => o.value === String(contactId)))
      list.unshift({ value: String(contactId), label: `Contact ${contactId}` });
    return list;
  }, [contacts.data, contactId]);

  const amountCents = toCents(amount);
  const appliedCents = open.reduce((s, i) => s + toCents(applied[i.invoiceId] ?? 0), 0);
  const leftCents = amountCents - appliedCents;

  function applyOldestFirst() {
    let left = amountCents;
    const next: Record<number, number> = {};
    for (const i of open) {
      const take = Math.max(0, Math.min(left, i.balanceCents));
      next[i.invoiceId] = take / 100;
      left -= take;
    }
    setApplied(next);
  }

  async function save() {
    if (contactId === null) return;
    setBusy(true);
    setError(null);
    try {
      const payment = await api.post<PaymentRecordWire>('/api/billing/payments/record', {
        contactId,
        amountCents,
        method,
        checkNumber: method === 'check' ? checkNumber.trim() || null : null,
        reference: reference.trim() || null,
        applications: open
          .map((i) => ({ invoiceId: i.invoiceId, amountCents: toCents(applied[i.invoiceId] ?? 0) }))
          .filter((a) => a.amountCents > 0),
        idempotencyKey: `record-${contactId}-${crypto.randomUUID()}`,
      });
      notifySaved(`Payment of ${formatMoney(payment.amountCents)} recorded`);
      navigate(recordPath(paymentsResource, payment.paymentId));
    } catch (e) {
      if (isApiError(e) && e.status === 400)
        setError({ message: e.message, ...(e.errors ? { errors: e.errors } : {}) });
      else setError({ message: e instanceof Error ? e.message : String(e) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <PageHeader
        title="Record a payment"
        description="Money received, applied to the contact's open invoices."
      />
      <Stack gap="md" maw={980}>
        <Paper withBorder p="md">
          <Stack gap="sm">
            <Select
              label="Received from"
              placeholder="Type a name"
              searchable
              required
              data={contactOptions}
              value={contactId === null ? null : String(contactId)}
              onSearchChange={setSearch}
              onChange={(v) => {
                setContactId(v ? Number(v) : null);
                setApplied({});
              }}
              nothingFoundMessage="No contact by that name"
            />
            <Group grow align="flex-start">
              <NumberInput
                label="Amount received"
                required
                prefix={moneySymbol()}
                decimalScale={2}
                fixedDecimalScale
                min={0}
                thousandSeparator=","
                value={amount}
                onChange={setAmount}
                error={error?.errors?.amountCents?.[0]}
              />
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  Method
                </Text>
                <SegmentedControl
                  aria-label="Method"
                  value={method}
                  onChange={(v) => setMethod(v as Method)}
                  data={PAYMENT_METHOD_VALUES.filter((m) => m !== 'card').map((m) => ({
                    value: m,
                    label: PAYMENT_METHOD_LABELS[m],
                  }))}
                />
              </Stack>
            </Group>
            <Group grow align="flex-start">
              {method === 'check' ? (
                <TextInput
                  label="Check number"
                  required
                  value={checkNumber}
                  onChange={(e) => setCheckNumber(e.currentTarget.value)}
                  error={error?.errors?.checkNumber?.[0]}
                />
              ) : null}
              <TextInput
                label="Reference"
                description="A bank reference, a note for the records."
                value={reference}
                onChange={(e) => setReference(e.currentTarget.value)}
              />
            </Group>
          </Stack>
        </Paper>

        {contactId !== null ? (
          <Paper withBorder p="md">
            <Group justify="space-between" mb="sm">
              <Text fw={600}>Open invoices</Text>
              <Button
                variant="light"
                size="compact-sm"
                onClick={applyOldestFirst}
                disabled={amountCents <= 0}
              >
                Apply oldest first
              </Button>
            </Group>
            {open.length === 0 ? (
              <Text size="sm" c="dimmed">
                {account.isPending
                  ? 'Loading…'
                  : 'No open invoices: the payment stays a credit on the account.'}
              </Text>
            ) : (
              <Table aria-label="Open invoices">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Invoice</Table.Th>
                    <Table.Th>Due</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th style={right}>Balance</Table.Th>
                    <Table.Th style={right}>Apply</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {open.map((i) => (
                    <Table.Tr key={i.invoiceId}>
                      <Table.Td>{i.number}</Table.Td>
                      <Table.Td>{formatDateInput(i.dueDate)}</Table.Td>
                      <Table.Td>
                        <Badge color={STATUS_COLORS[i.status] ?? 'gray'} variant="light">
                          {INVOICE_STATUS_LABELS[i.status]}
                        </Badge>
                      </Table.Td>
                      <Table.Td style={right}>{formatMoney(i.balanceCents)}</Table.Td>
                      <Table.Td style={{ width: 160 }}>
                        <NumberInput
                          aria-label={`Apply to ${i.number}`}
                          prefix={moneySymbol()}
                          decimalScale={2}
                          min={0}
                          max={i.balanceCents / 100}
                          value={applied[i.invoiceId] ?? ''}
                          onChange={(v) => setApplied((a) => ({ ...a, [i.invoiceId]: v }))}
                        />
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
            <Group justify="flex-end" gap="xl" mt="sm">
              <Text size="sm">
                Applied <b data-testid="applied-total">{formatMoney(appliedCents)}</b>
              </Text>
              <Text size="sm" c={leftCents < 0 ? 'red' : undefined}>
                {leftCents < 0 ? 'Over by ' : 'Left as credit '}
                <b data-testid="left-total">{formatMoney(Math.abs(leftCents))}</b>
              </Text>
            </Group>
          </Paper>
        ) : null}

        {error ? (
          <Alert color="red" title="The payment is not recorded">
            {error.message}
          </Alert>
        ) : null}
        <Group>
          <Button
            onClick={() => void save()}
            loading={busy}
            disabled={contactId === null || amountCents <= 0 || leftCents < 0}
          >
            Record the payment
          </Button>
        </Group>
      </Stack>
    </>
  );
}
