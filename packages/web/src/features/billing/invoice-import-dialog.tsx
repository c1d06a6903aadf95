/**
 * "Create invoices from file" (spec 000 section 2, issue 15): a button of the invoices list that opens a wizard.
 * The CSV file is uploaded (a file that is not a CSV of rows is refused with the server's reason), its columns are
 * matched to the invoice fields, a dry run shows the invoices it would create and every refused row with its line
 * and reasons, then the invoices are created as a job whose progress shows until it is done.
 */
import {
  type InvoiceImportDryRun,
  type InvoiceImportStatus,
  type invoiceImportUploadSchema,
  invoiceMappingProblems,
} from '@guildhall/shared';
import {
  Alert,
  Badge,
  Button,
  FileInput,
  Group,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Stepper,
  Table,
  Text,
} from '@mantine/core';
import { IconAlertCircle, IconFileImport } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { z } from 'zod';
import { ApiError, api, isApiError, toApiError } from '../../platform/api-client.ts';
import { formatMoney } from '../../platform/fields/field-display.tsx';
import type { ListActionProps } from '../../platform/modules/web-module.ts';
import { notifyError } from '../../platform/notify.ts';
import { StackedModal } from '../../platform/screens/dialogs.tsx';

type Upload = z.infer<typeof invoiceImportUploadSchema>;
type Step = 'file' | 'columns' | 'check' | 'create';
const STEPS: Step[] = ['file', 'columns', 'check', 'create'];
const right = { textAlign: 'right' } as const;
const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

async function uploadCsv(file: File): Promise<Upload> {
  const body = new FormData();
  body.append('file', file);
  let res: Response;
  try {
    res = await fetch('/api/billing/invoices/import/upload', {
      method: 'POST',
      body,
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, 'We could not reach the server. Check your connection and try again.', {
      isKnown: true,
    });
  }
  const payload: unknown = await res.json().catch(() => null);
  if (!res.ok) throw toApiError(res.status, payload);
  return payload as Upload;
}

/** The invoices list's "Create invoices from file" button and its wizard. */
export default function InvoiceImportAction({ onChanged }: ListActionProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconFileImport size={16} aria-hidden />}
        onClick={() => setOpen(true)}
      >
        Create invoices from file…
      </Button>
      {open ? (
        <InvoiceImportDialog
          onClose={(created) => {
            setOpen(false);
            if (created) onChanged();
          }}
        />
      ) : null}
    </>
  );
}

function InvoiceImportDialog({ onClose }: { onClose: (created: boolean) => void }) {
  const [step, setStep] = useState<Step>('file');
  const [file, setFile] = useState<File | null>(null);
  const [upload, setUpload] = useState<Upload | null>(null);
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [dryRun, setDryRun] = useState<InvoiceImportDryRun | null>(null);
  const [refusal, setRefusal] = useState<{ title: string; message: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const status = useQuery({
    queryKey: ['billing', 'invoice-import', upload?.ImportId],
    queryFn: () => api.get<InvoiceImportStatus>(`/api/billing/invoices/import/${upload?.ImportId ?? ''}`),
    enabled: step === 'create' && upload !== null,
    refetchInterval: (q) => (q.state.data && ['done', 'failed'].includes(q.state.data.Status) ? false : 500),
  });
  const s = status.data;
  const finished = s?.Status === 'done' || s?.Status === 'failed';

  /** Runs a step; a refusal the user can act on (4xx) shows in the dialog, anything else as a notification. */
  async function run(title: string, work: () => Promise<void>) {
    setBusy(true);
    setRefusal(null);
    try {
      await work();
    } catch (e) {
      if (isApiError(e) && e.status >= 400 && e.status < 500) setRefusal({ title, message: e.message });
      else notifyError(e);
    } finally {
      setBusy(false);
    }
  }

  const chosen = () => Object.fromEntries(Object.entries(mapping).filter(([, v]) => v));
  const problems = upload ? invoiceMappingProblems(chosen()) : [];
  const close = () => onClose(step === 'create' && (s?.Created ?? 0) > 0);

  const onUpload = () =>
    run('This file cannot be used', async () => {
      if (!file) return;
      const u = await uploadCsv(file);
      setUpload(u);
      setMapping(u.Mapping);
      setDryRun(null);
      setStep('columns');
    });
  const onCheck = () =>
    run('The file cannot be checked', async () => {
      if (!upload) return;
      setDryRun(
        await api.post<InvoiceImportDryRun>('/api/billing/invoices/import/dryRun', {
          ImportId: upload.ImportId,
          Mapping: chosen(),
        }),
      );
      setStep('check');
    });
  const onCreate = () =>
    run('The invoices cannot be created', async () => {
      if (!upload) return;
      await api.post<InvoiceImportStatus>('/api/billing/invoices/import/commit', {
        ImportId: upload.ImportId,
        Mapping: chosen(),
      });
      setStep('create');
    });

  const refusalBlock = refusal ? (
    <Alert color="red" role="alert" title={refusal.title} icon={<IconAlertCircle size={18} aria-hidden />}>
      {refusal.message}
    </Alert>
  ) : null;

  return (
    <StackedModal
      opened
      onClose={close}
      size="xl"
      title="Create invoices from file"
      closeOnClickOutside={false}
    >
      <Stepper active={STEPS.indexOf(step)} size="sm" mb="md" allowNextStepsSelect={false}>
        <Stepper.Step label="File" />
        <Stepper.Step label="Columns" />
        <Stepper.Step label="Check" />
        <Stepper.Step label="Create" />
      </Stepper>

      {step === 'file' ? (
        <Stack gap="md">
          <Text size="sm">
            A CSV file of invoice lines: who is billed (account number or email), the item, the quantity and
            the unit price, and optionally an invoice reference (rows with the same contact and reference make
            one invoice), a revenue account, the invoice and due dates (YYYY-MM-DD) and a memo.
          </Text>
          <FileInput
            label="CSV file"
            accept=".csv,text/csv"
            placeholder="Choose a file"
            value={file}
            onChange={(f) => {
              setFile(f);
              setRefusal(null);
            }}
            clearable
            data-autofocus
          />
          {refusalBlock}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button disabled={!file} loading={busy} onClick={() => void onUpload()}>
              Upload
            </Button>
          </Group>
        </Stack>
      ) : null}

      {step === 'columns' && upload ? (
        <Stack gap="md" component="section" aria-labelledby="invoice-import-columns">
          <Text fw={700} id="invoice-import-columns">
            Match the columns ({plural(upload.Rows, 'row', 'rows')} in {upload.FileName})
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
            {upload.Fields.map((f) => (
              <Select
                key={f.Id}
                label={f.Name}
                data={upload.Columns}
                value={mapping[f.Id] ?? null}
                clearable
                placeholder="Not used"
                onChange={(v) => {
                  setMapping((m) => ({ ...m, [f.Id]: v ?? '' }));
                  setRefusal(null);
                }}
              />
            ))}
          </SimpleGrid>
          {problems.length > 0 ? (
            <Alert color="yellow" title="Match these columns first">
              {problems.join(' ')}
            </Alert>
          ) : null}
          {refusalBlock}
          <Group justify="space-between">
            <Button
              variant="default"
              onClick={() => {
                setRefusal(null);
                setStep('file');
              }}
            >
              Back
            </Button>
            <Button disabled={problems.length > 0} loading={busy} onClick={() => void onCheck()}>
              Check the file
            </Button>
          </Group>
        </Stack>
      ) : null}

      {step === 'check' && dryRun ? (
        <Stack gap="md" component="section" aria-labelledby="invoice-import-check">
          <Text fw={700} id="invoice-import-check">
            What the file will do
          </Text>
          <Group gap="sm" aria-live="polite">
            <Badge color="green">{plural(dryRun.Invoices, 'invoice to create', 'invoices to create')}</Badge>
            <Badge color="gray">Total {formatMoney(dryRun.TotalCents)}</Badge>
            <Badge color={dryRun.Rejected > 0 ? 'red' : 'gray'}>
              {plural(dryRun.Rejected, 'row refused', 'rows refused')}
            </Badge>
          </Group>
          {dryRun.Rejected > 0 ? (
            <>
              <Text size="sm">
                {dryRun.Invoices > 0
                  ? `The refused rows are left out; the other invoices can be created. Fix the rows in the file and upload it again to bill them.`
                  : 'No invoice can be created from this file. Fix the rows below and upload the file again.'}
              </Text>
              <Text size="sm" fw={700}>
                Refused rows
              </Text>
              <Table.ScrollContainer minWidth={500} mah={260}>
                <Table striped aria-label="Refused rows">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Row</Table.Th>
                      <Table.Th>Why it is refused</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {dryRun.RejectedRows.map((r) => (
                      <Table.Tr key={r.Row}>
                        <Table.Td>{r.Row}</Table.Td>
                        <Table.Td>{r.Reasons.join(' ')}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </>
          ) : null}
          {dryRun.Invoices > 0 ? (
            <Text size="sm" fw={700}>
              Invoices to create
            </Text>
          ) : null}
          {dryRun.Invoices > 0 ? (
            <Table.ScrollContainer minWidth={500} mah={260}>
              <Table striped aria-label="Invoices to create">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Rows</Table.Th>
                    <Table.Th>Contact</Table.Th>
                    <Table.Th style={right}>Lines</Table.Th>
                    <Table.Th style={right}>Total</Table.Th>
                    <Table.Th>Due</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {dryRun.Planned.map((p) => (
                    <Table.Tr key={p.Rows.join(',')}>
                      <Table.Td>{p.Rows.join(', ')}</Table.Td>
                      <Table.Td>{p.ContactName}</Table.Td>
                      <Table.Td style={right}>{p.Lines}</Table.Td>
                      <Table.Td style={right}>{formatMoney(p.TotalCents)}</Table.Td>
                      <Table.Td>{p.DueDate ?? 'By the payment terms'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          ) : null}
          {dryRun.Truncated ? (
            <Text size="sm" c="dimmed">
              Only the first invoices and refused rows are listed.
            </Text>
          ) : null}
          {refusalBlock}
          <Group justify="space-between">
            <Button
              variant="default"
              onClick={() => {
                setRefusal(null);
                setStep('columns');
              }}
            >
              Back
            </Button>
            <Button disabled={dryRun.Invoices === 0} loading={busy} onClick={() => void onCreate()}>
              {`Create ${plural(dryRun.Invoices, 'invoice', 'invoices')}`}
            </Button>
          </Group>
        </Stack>
      ) : null}

      {step === 'create' ? (
        <Stack gap="md" component="section" aria-label="Creating the invoices">
          <Progress
            value={s?.Status === 'done' ? 100 : s && s.Total > 0 ? (s.Processed / s.Total) * 100 : 0}
            aria-label="Invoices created"
            animated={!finished}
          />
          <Text size="sm" role="status">
            {!s || s.Status === 'queued' || s.Status === 'uploaded'
              ? 'Waiting to start…'
              : s.Status === 'running'
                ? `${s.Processed.toLocaleString('en')} of ${plural(s.Total, 'invoice', 'invoices')} created…`
                : s.Status === 'done'
                  ? `Created ${plural(s.Created, 'invoice', 'invoices')}.${s.Rejected > 0 ? ` ${plural(s.Rejected, 'refused row was', 'refused rows were')} left out.` : ''}`
                  : ''}
          </Text>
          {s?.Status === 'failed' ? (
            <Alert color="red" role="alert" title="The invoices could not all be created">
              {s.Error}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button disabled={!finished} onClick={close}>
              Show the invoices
            </Button>
          </Group>
        </Stack>
      ) : null}
    </StackedModal>
  );
}
