/** The invoice record's actions: download its PDF, send it by mail with the PDF attached. */
import type { InvoiceDetail, sendInvoiceAnswerSchema } from '@guildhall/shared';
import { Button, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconDownload, IconMail } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import { api, isApiError } from '../../platform/api-client.ts';
import type { RecordActionProps } from '../../platform/modules/web-module.ts';
import { notifyError, notifySaved } from '../../platform/notify.ts';
import { StackedModal } from '../../platform/screens/dialogs.tsx';

export const invoicePdfUrl = (invoiceId: string | number) =>
  `/api/billing/invoices/${encodeURIComponent(String(invoiceId))}/pdf`;

export default function InvoiceRecordActions({ recordId }: RecordActionProps) {
  const [sending, setSending] = useState(false);
  return (
    <>
      <Button
        component="a"
        href={invoicePdfUrl(recordId)}
        download
        variant="default"
        leftSection={<IconDownload size={16} aria-hidden />}
      >
        Download PDF
      </Button>
      <Button
        variant="default"
        leftSection={<IconMail size={16} aria-hidden />}
        onClick={() => setSending(true)}
      >
        Send by mail…
      </Button>
      {sending ? <SendDialog invoiceId={recordId} onClose={() => setSending(false)} /> : null}
    </>
  );
}

function SendDialog({ invoiceId, onClose }: { invoiceId: string; onClose: () => void }) {
  const detail = useQuery({
    queryKey: ['billing', 'invoice', invoiceId],
    queryFn: () => api.get<InvoiceDetail>(`/api/billing/invoices/${encodeURIComponent(invoiceId)}`),
  });
  const [to, setTo] = useState('');
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function send() {
    setBusy(true);
    setError(null);
    try {
      const answer = await api.post<z.infer<typeof sendInvoiceAnswerSchema>>(
        `/api/billing/invoices/${encodeURIComponent(invoiceId)}/send`,
        { to: to.trim() || null, message: message.trim() || null },
      );
      notifySaved(`Invoice sent to ${answer.to}`);
      onClose();
    } catch (e) {
      if (isApiError(e) && e.status === 400) setError(e.message);
      else notifyError(e);
    } finally {
      setBusy(false);
    }
  }
  const number = detail.data?.number ?? '';
  return (
    <StackedModal opened onClose={onClose} title={`Send invoice ${number}`.trim()}>
      <Stack gap="md">
        <Text size="sm">
          The invoice goes as a PDF attachment, from the association's mail address. It is kept in the mail
          outbox.
        </Text>
        <TextInput
          label="To"
          description="Leave empty to send it to the contact's email address."
          placeholder="The contact's email address"
          type="email"
          value={to}
          onChange={(e) => {
            setTo(e.currentTarget.value);
            setError(null);
          }}
          error={error}
          data-autofocus
        />
        <Textarea
          label="Message"
          description="Added to the mail above the signature."
          autosize
          minRows={3}
          maxLength={5000}
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
        />
        <Button loading={busy} onClick={() => void send()} leftSection={<IconMail size={16} aria-hidden />}>
          Send the invoice
        </Button>
      </Stack>
    </StackedModal>
  );
}
