import type { ImportDryRun, ImportStatus, ImportUpload } from '@guildhall/shared';
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  FileInput,
  Group,
  Progress,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError, api, toApiError } from '../../platform/api-client.ts';
import { notifyError } from '../../platform/notify.ts';
import { PageHeader } from '../../platform/page.tsx';

type Upload = ImportUpload;
type DryRun = ImportDryRun;

const ACTION_COLOR = { create: 'green', update: 'blue', reject: 'red' } as const;

async function uploadCsv(file: File): Promise<Upload> {
  const body = new FormData();
  body.append('file', file);
  let res: Response;
  try {
    res = await fetch('/api/contacts/import/upload', { method: 'POST', body, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, 'We could not reach the server. Check your connection and try again.', {
      isKnown: true,
    });
  }
  const payload: unknown = await res.json().catch(() => null);
  if (!res.ok) throw toApiError(res.status, payload);
  return payload as Upload;
}

/** Downloads the rows the import leaves out, as the CSV file the server makes (their line and reasons added). */
async function downloadRejected(body: unknown): Promise<void> {
  let res: Response;
  try {
    res = await fetch('/api/contacts/import/rejected', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'text/csv' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'We could not reach the server. Check your connection and try again.', {
      isKnown: true,
    });
  }
  if (!res.ok) throw toApiError(res.status, await res.json().catch(() => null));
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'rejected.csv';
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Contacts CSV import: upload, map columns, dry run, then commit as a job with its progress. */
export function ContactsImportPage() {
  const [file, setFile] = useState<File | null>(null);
  const [upload, setUpload] = useState<Upload | null>(null);
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [dryRun, setDryRun] = useState<DryRun | null>(null);
  const [jobStarted, setJobStarted] = useState(false);
  const [allOrNothing, setAllOrNothing] = useState(false);
  const [busy, setBusy] = useState(false);

  const status = useQuery({
    queryKey: ['contacts-import', upload?.ImportId],
    queryFn: () => api.get<ImportStatus>(`/api/contacts/import/${upload?.ImportId ?? ''}`),
    enabled: jobStarted && upload !== null,
    refetchInterval: (q) => (q.state.data && ['done', 'failed'].includes(q.state.data.Status) ? false : 500),
  });

  async function step<T>(fn: () => Promise<T>): Promise<T | null> {
    setBusy(true);
    try {
      return await fn();
    } catch (error) {
      notifyError(error);
      return null;
    } finally {
      setBusy(false);
    }
  }

  const body = () => ({
    ImportId: upload?.ImportId,
    Mapping: Object.fromEntries(Object.entries(mapping).filter(([, v]) => v)),
  });
  const s = status.data;
  const percent = s && s.Total > 0 ? Math.round((s.Processed / s.Total) * 100) : 0;

  return (
    <>
      <PageHeader
        title="Import contacts"
        description="Upload a CSV file, match its columns, check what will happen, then import."
        actions={
          <Button component={Link} to="/micronet/list/contacts/contacts" variant="subtle">
            Back to contacts
          </Button>
        }
      />
      <Stack gap="md" maw={960}>
        <Card withBorder>
          <Group align="flex-end">
            <FileInput
              label="CSV file"
              accept=".csv,text/csv"
              value={file}
              onChange={(f) => {
                setFile(f);
                setUpload(null);
                setDryRun(null);
                setJobStarted(false);
              }}
              placeholder="Choose a file"
              w={320}
            />
            <Button
              disabled={!file || jobStarted}
              loading={busy && !upload}
              onClick={() =>
                void step(async () => {
                  if (!file) return;
                  const u = await uploadCsv(file);
                  setUpload(u);
                  setMapping(u.Mapping);
                  setDryRun(null);
                })
              }
            >
              Upload
            </Button>
          </Group>
        </Card>
        {upload ? (
          <Card withBorder component="section" aria-labelledby="import-mapping">
            <Text fw={700} component="h2" id="import-mapping" mt={0}>
              Match the columns ({upload.Rows} rows in {upload.FileName})
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              {upload.Fields.map((f) => (
                <Select
                  key={f.Id}
                  label={f.Name}
                  data={upload.Columns}
                  value={mapping[f.Id] ?? null}
                  clearable
                  placeholder="Not imported"
                  disabled={jobStarted}
                  onChange={(v) => {
                    setMapping((m) => ({ ...m, [f.Id]: v ?? '' }));
                    setDryRun(null);
                  }}
                />
              ))}
            </SimpleGrid>
            <Group mt="md">
              <Button
                variant="default"
                loading={busy && !dryRun}
                disabled={jobStarted}
                onClick={() =>
                  void step(async () =>
                    setDryRun(await api.post<DryRun>('/api/contacts/import/dryRun', body())),
                  )
                }
              >
                Dry run
              </Button>
            </Group>
          </Card>
        ) : null}
        {dryRun ? (
          <Card withBorder component="section" aria-labelledby="import-dry-run">
            <Text fw={700} component="h2" id="import-dry-run" mt={0}>
              Dry run
            </Text>
            <Group gap="sm" mb="sm" aria-live="polite">
              <Badge color="green">{dryRun.Create} to create</Badge>
              <Badge color="blue">{dryRun.Update} to update</Badge>
              <Badge color="red">{dryRun.Reject} rejected</Badge>
            </Group>
            <Table.ScrollContainer minWidth={600}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Row</Table.Th>
                    <Table.Th>Action</Table.Th>
                    <Table.Th>Name</Table.Th>
                    <Table.Th>Why</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {dryRun.Rows.map((r) => (
                    <Table.Tr key={r.Row}>
                      <Table.Td>{r.Row}</Table.Td>
                      <Table.Td>
                        <Badge variant="light" color={ACTION_COLOR[r.Action]}>
                          {r.Action}
                        </Badge>
                      </Table.Td>
                      <Table.Td>{r.Name}</Table.Td>
                      <Table.Td>{r.Reasons.join(' ')}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {dryRun.Truncated ? (
              <Text size="sm" c="dimmed">
                The first rows only are listed.
              </Text>
            ) : null}
            <Checkbox
              mt="md"
              label="All or nothing: import only if every row is valid"
              description="Otherwise the valid rows are imported and the rejected rows are left out."
              checked={allOrNothing}
              disabled={jobStarted}
              onChange={(e) => setAllOrNothing(e.currentTarget.checked)}
            />
            <Group mt="md">
              <Button
                disabled={
                  jobStarted || (allOrNothing && dryRun.Reject > 0) || dryRun.Create + dryRun.Update === 0
                }
                onClick={() =>
                  void step(async () => {
                    await api.post<ImportStatus>('/api/contacts/import/commit', {
                      ...body(),
                      AllOrNothing: allOrNothing,
                    });
                    setJobStarted(true);
                  })
                }
              >
                {dryRun.Reject > 0 && !allOrNothing
                  ? `Import ${dryRun.Create + dryRun.Update} valid ${dryRun.Create + dryRun.Update === 1 ? 'row' : 'rows'}`
                  : 'Import'}
              </Button>
              {dryRun.Reject > 0 && !jobStarted ? (
                <Button variant="default" onClick={() => void step(() => downloadRejected(body()))}>
                  Download rejected rows
                </Button>
              ) : null}
            </Group>
            {dryRun.Reject > 0 ? (
              <Text size="sm" c={allOrNothing ? 'red' : 'dimmed'} mt="xs">
                {allOrNothing
                  ? 'Fix the rejected rows first: nothing is imported while any row is rejected.'
                  : `The ${dryRun.Reject} rejected ${dryRun.Reject === 1 ? 'row is' : 'rows are'} left out. Download ${dryRun.Reject === 1 ? 'it' : 'them'} with the reasons, fix and import again.`}
              </Text>
            ) : null}
          </Card>
        ) : null}
        {jobStarted ? (
          <Card withBorder component="section" aria-label="Import progress">
            <Progress
              value={s?.Status === 'done' ? 100 : percent}
              aria-label="Import progress"
              animated={s?.Status !== 'done'}
            />
            <Text size="sm" mt="xs" role="status">
              {!s || s.Status === 'queued' || s.Status === 'uploaded'
                ? 'Waiting to start…'
                : s.Status === 'running'
                  ? `${s.Processed} of ${s.Total} rows`
                  : s.Status === 'done'
                    ? `Imported: ${s.Created} created, ${s.Updated} updated.${s.Rejected > 0 ? ` ${s.Rejected} rejected ${s.Rejected === 1 ? 'row was' : 'rows were'} left out.` : ''}`
                    : ''}
            </Text>
            {s?.Status === 'done' && s.Rejected > 0 ? (
              <Group mt="xs">
                <Button variant="default" onClick={() => void step(() => downloadRejected(body()))}>
                  Download rejected rows
                </Button>
              </Group>
            ) : null}
            {s?.Status === 'failed' ? (
              <Alert color="red" title="The import stopped">
                {s.Error}
              </Alert>
            ) : null}
          </Card>
        ) : null}
      </Stack>
    </>
  );
}
