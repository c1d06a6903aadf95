/**
 * The payment record's actions: refund part or all of it (the refund rule of POST /api/utils/refund/validate checks
 * the amount first: never more than paid minus refunded) and mark a check bounced.
 */
import type { PaymentRecordWire } from '@guildhall/shared';
import { Button, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, isApiError } from '../../platform/api-client.ts';
import { formatMoney } from '../../platform/fields/field-display.tsx';
import type { RecordActionProps } from '../../platform/modules/web-module.ts';
import { notifyError, notifySaved } from '../../platform/notify.ts';
import { confirmDialog, StackedModal } from '../../platform/screens/dialogs.tsx';

/** The answer of POST /api/utils/refund/validate (spec 000). */
interface RefundVerdict {
  Data: { Valid: boolean };
  ErrorMessages: string[];
}

export default function PaymentRecordActions({ recordId, record }: RecordActionProps) {
  const queryClient = useQueryClient();
  const [refunding, setRefunding] = useState(false);
  const paid = Number(record.AmountCents ?? 0);
  const refunded = Number(record.RefundedCents ?? 0);
  const completed = record.Status === 'completed';
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['record', 'payments', recordId] }),
      queryClient.invalidateQueries({ queryKey: ['list'] }),
    ]);
  async function bounce() {
    const ok = await confirmDialog({
      title: 'Check bounced',
      message: 'Mark this check bounced? The invoices it paid owe again and its money leaves the books.',
      danger: true,
    });
    if (!ok) return;
    try {
      await api.post(`/api/billing/payments/${encodeURIComponent(recordId)}/bounce`, {});
      await refresh();
      notifySaved('Marked bounced');
    } catch (e) {
      notifyError(e);
    }
  }
  return (
    <>
      {completed && paid > refunded ? (
        <Button variant="default" onClick={() => setRefunding(true)}>
          Refund…
        </Button>
      ) : null}
      {completed && record.Method === 'check' ? (
        <Button variant="default" color="red" onClick={() => void bounce()}>
          Check bounced…
        </Button>
      ) : null}
      {refunding ? (
        <RefundDialog
          paymentId={recordId}
          refundable={paid - refunded}
          onClose={() => setRefunding(false)}
          onDone={refresh}
        />
      ) : null}
    </>
  );
}

function RefundDialog(props: {
  paymentId: string;
  refundable: number;
  onClose: () => void;
  onDone: () => Promise<unknown>;
}) {
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function refund() {
    setBusy(true);
    setError(null);
    try {
      // Validated first by the refund rule (spec 000: POST /api/utils/refund/validate), then made.
      const verdict = await api.post<RefundVerdict>('/api/utils/refund/validate', {
        PaymentId: Number(props.paymentId),
        Amount: amount.trim(),
      });
      if (!verdict.Data.Valid) {
        setError(verdict.ErrorMessages.join(' '));
        return;
      }
      const payment = await api.post<PaymentRecordWire>(
        `/api/billing/payments/${encodeURIComponent(props.paymentId)}/refund`,
        { amount: amount.trim(), reason: reason.trim() || null },
      );
      await props.onDone();
      notifySaved(`Refunded; ${formatMoney(payment.refundedCents)} refunded in all`);
      props.onClose();
    } catch (e) {
      if (isApiError(e) && e.status === 400) setError(e.message);
      else notifyError(e);
    } finally {
      setBusy(false);
    }
  }
  return (
    <StackedModal opened onClose={props.onClose} title="Refund the payment">
      <Stack gap="md">
        <Text size="sm">
          Up to {formatMoney(props.refundable)} can be refunded. What the payment paid on invoices is taken
          back from them, newest first, and they owe it again.
        </Text>
        <TextInput
          label="Amount to refund"
          required
          placeholder="0.00"
          value={amount}
          onChange={(e) => {
            setAmount(e.currentTarget.value);
            setError(null);
          }}
          error={error}
          data-autofocus
        />
        <TextInput label="Reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
        <Button color="red" loading={busy} disabled={amount.trim() === ''} onClick={() => void refund()}>
          Refund
        </Button>
      </Stack>
    </StackedModal>
  );
}
