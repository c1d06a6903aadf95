/**
 * A task's attachments and a project's files (issue 21, through the file library): upload one with progress, or
 * choose one from the library (the select-existing-file dialog) or from the related contact's files (the contact
 * file picker dialog); the chosen file is copied, so the library keeps its own. Download, open where safe, delete.
 */
import { type FileEntry, formatFileSize } from '@guildhall/shared';
import { ActionIcon, Anchor, Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconDownload, IconFile, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { formatDay } from '../../platform/format.ts';
import { useDisplayTimeZone } from '../../platform/identity.ts';
import { notifyError, notifySaved } from '../../platform/notify.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { ContactFilePickerDialog, SelectExistingFileDialog } from './file-picker-dialogs.tsx';
import { type AttachmentOwner, filesApi, uploadUrl } from './files-api.ts';
import { UploadField } from './upload-field.tsx';

export interface AttachmentsProps {
  owner: AttachmentOwner;
  ownerId: number;
  /** The record's related contact: its files can be chosen too. */
  contactId?: number | null | undefined;
}

export function Attachments({ owner, ownerId, contactId }: AttachmentsProps) {
  const shownZone = useDisplayTimeZone();
  const queryClient = useQueryClient();
  const key = ['files', owner, ownerId];
  const list = useQuery({ queryKey: key, queryFn: () => filesApi.attachments(owner, ownerId) });
  const [picker, setPicker] = useState<'library' | 'contact' | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const place = owner === 'task' ? { TaskId: ownerId } : { ProjectId: ownerId };

  async function attach(entry: FileEntry) {
    try {
      await filesApi.copy(entry.Id, place);
      notifySaved(`Attached ${entry.Name}.`);
      await refresh();
    } catch (error) {
      notifyError(error);
    }
  }
  async function remove(entry: FileEntry) {
    if (!window.confirm(`Delete '${entry.Name}'?`)) return;
    try {
      await filesApi.remove(entry.Id);
      notifySaved(`Deleted ${entry.Name}.`);
      await refresh();
    } catch (error) {
      notifyError(error);
    }
  }

  const rows = list.data?.Records ?? [];
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed">
          {owner === 'task'
            ? 'Files for this task: the contract to sign, the quote, the photos.'
            : 'Files of this project: plans, contracts, minutes.'}
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={() => setPicker('library')}>
            Choose from the library
          </Button>
          {contactId ? (
            <Button size="xs" variant="default" onClick={() => setPicker('contact')}>
              Choose from the contact’s files
            </Button>
          ) : null}
        </Group>
      </Group>
      <UploadField
        label={owner === 'task' ? 'Attach a file' : 'Add a file'}
        dropzone
        uploadUrl={uploadUrl(owner === 'task' ? { taskId: ownerId } : { projectId: ownerId })}
        value={null}
        onChange={(file) => {
          if (file) void refresh();
        }}
      />
      {list.error ? <ErrorBlock error={list.error} onRetry={() => void list.refetch()} /> : null}
      {!list.data && !list.error ? <LoadingBlock /> : null}
      {list.data && rows.length === 0 ? (
        <Text c="dimmed" size="sm" py="md">
          {owner === 'task' ? 'No file is attached to this task.' : 'This project has no files yet.'}
        </Text>
      ) : null}
      {rows.length > 0 ? (
        <Table.ScrollContainer minWidth={420}>
          <Table striped aria-label={owner === 'task' ? 'Attachments' : 'Project files'}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Size</Table.Th>
                <Table.Th>Added</Table.Th>
                <Table.Th aria-label="Actions" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((entry) => (
                <Table.Tr key={entry.Id}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <IconFile size={16} aria-hidden />
                      <Anchor href={`${entry.Url}?open=true`} target="_blank" rel="noopener" size="sm">
                        {entry.Name}
                      </Anchor>
                    </Group>
                  </Table.Td>
                  <Table.Td>{formatFileSize(entry.Size ?? 0)}</Table.Td>
                  <Table.Td>{formatDay(entry.CreatedAt, shownZone)}</Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <ActionIcon
                        component="a"
                        href={entry.Url ?? undefined}
                        variant="subtle"
                        aria-label={`Download ${entry.Name}`}
                      >
                        <IconDownload size={16} />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={`Delete ${entry.Name}`}
                        onClick={() => void remove(entry)}
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <SelectExistingFileDialog
        opened={picker === 'library'}
        onClose={() => setPicker(null)}
        onChoose={(entry) => void attach(entry)}
      />
      {contactId ? (
        <ContactFilePickerDialog
          opened={picker === 'contact'}
          contactId={contactId}
          onClose={() => setPicker(null)}
          onChoose={(entry) => void attach(entry)}
        />
      ) : null}
    </Stack>
  );
}
