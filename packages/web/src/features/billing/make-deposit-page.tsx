/**
 * Make a deposit (back office): the cash and checks not yet deposited (spec: PaymentId, IsSelected), selected into
 * one bank deposit with its slip reference. Posted through POST /api/billing/deposits/make.
 */
import {
  type depositResultSchema,
  depositsResource,
  PAYMENT_METHOD_LABELS,
  type UndepositedPayment,
} from '@guildhall/shared';
import { Alert, Button, Checkbox, Group, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { api } from '../../platform/api-client.ts';
import { formatMoney } from '../../platform/fields/field-display.tsx';
import { formatDay } from '../../platform/format.ts';
import { useDisplayTimeZone } from '../../platform/identity.ts';
import { notifySaved } from '../../platform/notify.ts';
import { LoadingBlock, PageHeader } from '../../platform/page.tsx';
import { recordPath } from '../../platform/screens/resources.ts';

const right = { textAlign: 'right' } as const;

export function MakeDepositPage() {
  const shownZone = useDisplayTimeZone();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: ['billing', 'undeposited'],
    queryFn: () => api.get<{ Data: UndepositedPayment[] }>('/api/billing/deposits/undeposited'),
  });
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [reference, setReference] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const rows = list.data?.Data ?? [];
  const total = rows.filter((r) => selected.has(r.PaymentId)).reduce((s, r) => s + r.amountCents, 0);
  const toggle = (id: number) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  async function deposit() {
    setBusy(true);
    setError(null);
    try {
      const answer = await api.post<z.infer<typeof depositResultSchema>>('/api/billing/deposits/make', {
        paymentIds: [...selected],
        reference: reference.trim() || null,
      });
      await queryClient.invalidateQueries({ queryKey: ['billing', 'undeposited'] });
      notifySaved(`Deposit of ${formatMoney(answer.totalCents)} made`);
      navigate(recordPath(depositsResource, answer.depositId));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <PageHeader
        title="Make a deposit"
        description="Cash and checks received, taken to the bank together."
      />
      <Stack gap="md" maw={980}>
        {list.isPending ? <LoadingBlock /> : null}
        {list.data && rows.length === 0 ? (
          <Text c="dimmed">Every payment received by cash or check is deposited.</Text>
        ) : null}
        {rows.length > 0 ? (
          <Paper withBorder p="md">
            <Table aria-label="Undeposited payments">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>
                    <Checkbox
                      aria-label="Select all"
                      checked={selected.size === rows.length}
                      indeterminate={selected.size > 0 && selected.size < rows.length}
                      onChange={() =>
                        setSelected(
                          selected.size === rows.length ? new Set() : new Set(rows.map((r) => r.PaymentId)),
                        )
                      }
                    />
                  </Table.Th>
                  <Table.Th>Received</Table.Th>
                  <Table.Th>From</Table.Th>
                  <Table.Th>Method</Table.Th>
                  <Table.Th style={right}>Amount</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((r) => (
                  <Table.Tr key={r.PaymentId}>
                    <Table.Td>
                      <Checkbox
                        aria-label={`Deposit payment ${r.PaymentId} from ${r.contactName}`}
                        checked={selected.has(r.PaymentId)}
                        onChange={() => toggle(r.PaymentId)}
                      />
                    </Table.Td>
                    <Table.Td>{formatDay(r.paidAt, shownZone)}</Table.Td>
                    <Table.Td>{r.contactName}</Table.Td>
                    <Table.Td>
                      {PAYMENT_METHOD_LABELS[r.method as keyof typeof PAYMENT_METHOD_LABELS] ?? r.method}
                      {r.checkNumber ? ` #${r.checkNumber}` : ''}
                    </Table.Td>
                    <Table.Td style={right}>{formatMoney(r.amountCents)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Group justify="space-between" mt="md" align="flex-end">
              <TextInput
                label="Slip reference"
                placeholder="Slip 0002"
                value={reference}
                onChange={(e) => setReference(e.currentTarget.value)}
              />
              <Text>
                {selected.size} selected · <b data-testid="deposit-total">{formatMoney(total)}</b>
              </Text>
            </Group>
          </Paper>
        ) : null}
        {error ? (
          <Alert color="red" title="The deposit is not made">
            {error}
          </Alert>
        ) : null}
        <Group>
          <Button onClick={() => void deposit()} loading={busy} disabled={selected.size === 0}>
            Make the deposit
          </Button>
        </Group>
      </Stack>
    </>
  );
}
