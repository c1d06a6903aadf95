/**
 * System messages (decision 0154): the product's transactional mail (password reset, staff invitation, invoice,
 * event confirmation, renewal reminder, …), each in the association's wording. The list says which ones the
 * association reworded; a message opens in the rich-text editor with the values it offers as merge fields, with a
 * preview using sample values, and can go back to the product's wording.
 */
import {
  displayTimeZone,
  MERGE_FLAGS,
  type SystemTemplateView,
  systemTemplateEntity,
  TEMPLATE_TYPES,
} from '@guildhall/shared';
import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { ClientTable, type Column } from '../../platform/client-table.tsx';
import { RichTextEditor } from '../../platform/editor/rich-text-editor.tsx';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { formatDateTime } from '../../platform/format.ts';
import { useIdentity } from '../../platform/identity.ts';
import { LoadingBlock, PageHeader } from '../../platform/page.tsx';
import { SoftBadge } from '../../platform/soft-badge.tsx';

const path = (key: string) => `/api/communication/system-templates/${encodeURIComponent(key)}`;

export function SystemTemplatesPage() {
  const me = useIdentity();
  const tz = displayTimeZone(me);
  const query = useQuery({
    queryKey: ['system-templates'],
    queryFn: ({ signal }) => api.get<SystemTemplateView[]>('/api/communication/system-templates', { signal }),
  });
  const columns: Column<SystemTemplateView>[] = [
    {
      key: 'title',
      header: 'Message',
      sortValue: (t) => t.Title,
      render: (t) => (
        <Stack gap={0}>
          <Anchor component={Link} to={`/a/system-messages/${encodeURIComponent(t.Key)}`} size="sm" fw={600}>
            {t.Title}
          </Anchor>
          <Text size="xs" c="dimmed">
            {t.Description}
          </Text>
        </Stack>
      ),
    },
    { key: 'group', header: 'Area', sortValue: (t) => t.Group, render: (t) => t.Group, visibleFrom: 'sm' },
    {
      key: 'wording',
      header: 'Wording',
      sortValue: (t) => (t.IsCustomized ? 1 : 0),
      render: (t) =>
        t.IsCustomized ? (
          <SoftBadge color="blue">Reworded {t.UpdatedAt ? formatDateTime(t.UpdatedAt, tz) : ''}</SoftBadge>
        ) : (
          <SoftBadge color="gray">Default</SoftBadge>
        ),
    },
  ];
  return (
    <>
      <PageHeader
        title="System messages"
        description="The messages Guildhall sends for you: password resets, invitations, invoices, confirmations and reminders. Reword any of them; your wording is used from the next message on."
      />
      {query.isPending ? <LoadingBlock label="Loading the system messages" /> : null}
      {query.isError ? <ErrorBlock error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.data ? (
        <ClientTable
          label="System messages"
          rows={query.data}
          columns={columns}
          rowKey={(t) => t.Key}
          searchText={(t) => `${t.Title} ${t.Description} ${t.Group}`}
          searchLabel="Search system messages"
          initialSort={{ key: 'group', direction: 'asc' }}
          emptyText="No system messages."
        />
      ) : null}
    </>
  );
}

export function SystemTemplatePage() {
  const { key = '' } = useParams();
  const client = useQueryClient();
  const query = useQuery({
    queryKey: ['system-template', key],
    queryFn: ({ signal }) => api.get<SystemTemplateView>(path(key), { signal }),
  });
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [loaded, setLoaded] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  useEffect(() => {
    if (query.data && loaded !== `${query.data.Key}:${query.data.UpdatedAt ?? ''}`) {
      setSubject(query.data.Subject);
      setBody(query.data.BodyHtml);
      setLoaded(`${query.data.Key}:${query.data.UpdatedAt ?? ''}`);
    }
  }, [query.data, loaded]);
  const onSaved = (data: SystemTemplateView, message: string) => {
    client.setQueryData(['system-template', key], data);
    void client.invalidateQueries({ queryKey: ['system-templates'] });
    setSubject(data.Subject);
    setBody(data.BodyHtml);
    setLoaded(`${data.Key}:${data.UpdatedAt ?? ''}:${Date.now()}`);
    setSaved(message);
  };
  const save = useMutation({
    mutationFn: () => api.put<SystemTemplateView>(path(key), { Subject: subject, BodyHtml: body }),
    onSuccess: (data) => onSaved(data, 'Saved. The next message uses this wording.'),
  });
  const restore = useMutation({
    mutationFn: () => api.delete<SystemTemplateView>(path(key)),
    onSuccess: (data) => onSaved(data, 'The default wording is back.'),
  });
  const preview = useMutation({
    mutationFn: () =>
      api.post<{ Subject: string; Html: string }>(`${path(key)}/preview`, {
        Subject: subject,
        BodyHtml: body,
      }),
  });
  if (query.isPending) return <LoadingBlock label="Loading the message" />;
  if (query.isError) return <ErrorBlock error={query.error} onRetry={() => void query.refetch()} />;
  const t = query.data;
  return (
    <>
      <PageHeader
        title={t.Title}
        description={t.Description}
        above={
          <Anchor component={Link} to="/a/system-messages" size="sm">
            ← System messages
          </Anchor>
        }
        actions={
          t.IsCustomized ? (
            <Button
              variant="default"
              loading={restore.isPending}
              onClick={() => {
                if (window.confirm('Restore the default wording of this message? Your wording is lost.'))
                  restore.mutate();
              }}
            >
              Restore the default
            </Button>
          ) : undefined
        }
      />
      <Stack gap="md" maw={900}>
        {saved ? (
          <Alert color="green" role="status" withCloseButton onClose={() => setSaved(null)}>
            {saved}
          </Alert>
        ) : null}
        {save.isError ? <ErrorBlock error={save.error} /> : null}
        <TextInput
          label="Subject"
          description="Values go in double braces, for example {{Association.Name}}."
          value={subject}
          onChange={(e) => setSubject(e.currentTarget.value)}
          required
          maxLength={300}
        />
        <RichTextEditor
          key={loaded ?? 'loading'}
          label="Message"
          value={body}
          onChange={setBody}
          mergeContext={{
            flags: MERGE_FLAGS.RichText,
            templateType: TEMPLATE_TYPES.Transactional,
            entity: systemTemplateEntity(t.Key),
          }}
          minHeight={240}
        />
        <Text size="sm" c="dimmed">
          Values this message offers:{' '}
          {t.Fields.map((f) => `${f.Name} (${f.Description.toLowerCase()})`).join(', ')}, and the
          association's name and website.
        </Text>
        <Group>
          <Button onClick={() => save.mutate()} loading={save.isPending} disabled={!subject.trim()}>
            Save
          </Button>
          <Button variant="default" onClick={() => preview.mutate()} loading={preview.isPending}>
            Preview with sample values
          </Button>
        </Group>
        {preview.isError ? <ErrorBlock error={preview.error} /> : null}
        {preview.data ? (
          <>
            <Text size="sm">
              <Text span fw={600}>
                Subject:
              </Text>{' '}
              {preview.data.Subject}
            </Text>
            <iframe
              title="Preview of the message"
              sandbox=""
              srcDoc={preview.data.Html}
              style={{
                width: '100%',
                height: 380,
                border: '1px solid var(--mantine-color-gray-3)',
                borderRadius: 4,
              }}
            />
          </>
        ) : null}
      </Stack>
    </>
  );
}
