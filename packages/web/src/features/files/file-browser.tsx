/**
 * A folder of the tenant's library or of a contact's files: the path from the top, folders first, 100 a page
 * (spec 001 section 9), a name search across the place. In `manage` mode staff create, rename, move and delete
 * folders and files and upload into the folder; in `pick` mode a click opens a folder and chooses a file.
 */
import {
  FILE_PAGE_SIZE,
  type FileEntry,
  formatFileSize,
  isFolderEntry,
  LIST_SEARCH_DEBOUNCE_MS,
  pageCount,
} from '@guildhall/shared';
import {
  ActionIcon,
  Anchor,
  Breadcrumbs,
  Button,
  Group,
  Menu,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDots, IconFile, IconFolder, IconFolderPlus, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { formatDay } from '../../platform/format.ts';
import { useDisplayTimeZone } from '../../platform/identity.ts';
import { notifyError, notifySaved } from '../../platform/notify.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { Pager } from '../../platform/pager.tsx';
import { filesApi, uploadUrl } from './files-api.ts';
import { UploadField } from './upload-field.tsx';

export interface FileBrowserProps {
  mode: 'manage' | 'pick';
  contactId?: number | undefined;
  imagesOnly?: boolean;
  onPick?: (entry: FileEntry) => void;
}

export function FileBrowser({ mode, contactId, imagesOnly, onPick }: FileBrowserProps) {
  const shownZone = useDisplayTimeZone();
  const [folderId, setFolderId] = useState<number | null>(null);
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, LIST_SEARCH_DEBOUNCE_MS);
  const [dialog, setDialog] = useState<
    { kind: 'folder' } | { kind: 'rename'; entry: FileEntry } | { kind: 'move'; entry: FileEntry } | null
  >(null);
  const queryClient = useQueryClient();
  const key = ['files', contactId ?? 0, folderId, debounced, page, imagesOnly ?? false];
  const folder = useQuery({
    queryKey: key,
    queryFn: () => filesApi.folder({ contactId, folderId, search: debounced, page, imagesOnly }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['files'] });
  const open = (id: number | null) => {
    setFolderId(id);
    setPage(1);
    setSearch('');
  };

  async function remove(entry: FileEntry) {
    const what = isFolderEntry(entry) ? `the folder '${entry.Name}' and everything in it` : `'${entry.Name}'`;
    if (!window.confirm(`Delete ${what}?`)) return;
    try {
      await filesApi.remove(entry.Id);
      notifySaved(`Deleted ${entry.Name}.`);
      await refresh();
    } catch (error) {
      notifyError(error);
    }
  }

  const data = folder.data;
  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <Breadcrumbs aria-label="Folder">
          <Anchor component="button" type="button" onClick={() => open(null)}>
            {contactId ? 'Files of this contact' : 'Library'}
          </Anchor>
          {(data?.Path ?? []).map((p) => (
            <Anchor key={p.Id} component="button" type="button" onClick={() => open(p.Id)}>
              {p.Name}
            </Anchor>
          ))}
        </Breadcrumbs>
        <Group gap="xs">
          <TextInput
            aria-label="Search files by name"
            placeholder="Search by name"
            leftSection={<IconSearch size={14} />}
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setPage(1);
            }}
            size="xs"
          />
          {mode === 'manage' ? (
            <Button
              size="xs"
              variant="default"
              leftSection={<IconFolderPlus size={14} />}
              onClick={() => setDialog({ kind: 'folder' })}
            >
              New folder
            </Button>
          ) : null}
        </Group>
      </Group>
      {mode === 'manage' ? (
        <UploadField
          label="Upload a file into this folder"
          dropzone
          uploadUrl={uploadUrl({ folderId, contactId: contactId ?? null })}
          value={null}
          onChange={(file) => {
            if (file) void refresh();
          }}
        />
      ) : null}
      {folder.error ? <ErrorBlock error={folder.error} onRetry={() => void folder.refetch()} /> : null}
      {!data && !folder.error ? <LoadingBlock /> : null}
      {data ? (
        data.Records.length === 0 ? (
          <Text c="dimmed" size="sm" py="md">
            {debounced ? 'No file has that name.' : 'This folder is empty.'}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={420}>
            <Table striped highlightOnHover aria-label="Files">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Size</Table.Th>
                  <Table.Th>Added</Table.Th>
                  {mode === 'manage' ? <Table.Th aria-label="Actions" /> : null}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.Records.map((entry) => (
                  <Table.Tr key={entry.Id}>
                    <Table.Td>
                      <EntryName entry={entry} mode={mode} onOpen={open} onPick={onPick} />
                    </Table.Td>
                    <Table.Td>{isFolderEntry(entry) ? '' : formatFileSize(entry.Size ?? 0)}</Table.Td>
                    <Table.Td>{formatDay(entry.CreatedAt, shownZone)}</Table.Td>
                    {mode === 'manage' ? (
                      <Table.Td>
                        <Menu position="bottom-end">
                          <Menu.Target>
                            <ActionIcon variant="subtle" aria-label={`Actions of ${entry.Name}`}>
                              <IconDots size={16} />
                            </ActionIcon>
                          </Menu.Target>
                          <Menu.Dropdown>
                            {entry.Url ? (
                              <Menu.Item component="a" href={entry.Url}>
                                Download
                              </Menu.Item>
                            ) : null}
                            <Menu.Item onClick={() => setDialog({ kind: 'rename', entry })}>Rename</Menu.Item>
                            <Menu.Item onClick={() => setDialog({ kind: 'move', entry })}>Move</Menu.Item>
                            <Menu.Item color="red" onClick={() => void remove(entry)}>
                              Delete
                            </Menu.Item>
                          </Menu.Dropdown>
                        </Menu>
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )
      ) : null}
      {data ? (
        <Group justify="space-between">
          <Text size="xs" c="dimmed">
            {data.TotalRecordAvailable} {data.TotalRecordAvailable === 1 ? 'entry' : 'entries'}
          </Text>
          <Pager pages={pageCount(data.TotalRecordAvailable, FILE_PAGE_SIZE)} page={page} onPage={setPage} />
        </Group>
      ) : null}
      {dialog?.kind === 'folder' ? (
        <NameDialog
          title="New folder"
          initial=""
          onClose={() => setDialog(null)}
          onSave={async (name) => {
            await filesApi.createFolder(name, folderId, contactId);
            await refresh();
          }}
        />
      ) : null}
      {dialog?.kind === 'rename' ? (
        <NameDialog
          title={`Rename ${dialog.entry.Name}`}
          initial={dialog.entry.Name}
          onClose={() => setDialog(null)}
          onSave={async (name) => {
            await filesApi.rename(dialog.entry.Id, name);
            await refresh();
          }}
        />
      ) : null}
      {dialog?.kind === 'move' ? (
        <MoveDialog
          entry={dialog.entry}
          contactId={contactId}
          onClose={() => setDialog(null)}
          onMoved={() => void refresh()}
        />
      ) : null}
    </Stack>
  );
}

function EntryName({
  entry,
  mode,
  onOpen,
  onPick,
}: {
  entry: FileEntry;
  mode: 'manage' | 'pick';
  onOpen: (id: number) => void;
  onPick: ((entry: FileEntry) => void) | undefined;
}) {
  if (isFolderEntry(entry))
    return (
      <UnstyledButton onClick={() => onOpen(entry.Id)} aria-label={`Open folder ${entry.Name}`}>
        <Group gap={6} wrap="nowrap">
          <IconFolder size={16} aria-hidden />
          <Text size="sm" fw={500}>
            {entry.Name}
          </Text>
        </Group>
      </UnstyledButton>
    );
  if (mode === 'pick')
    return (
      <UnstyledButton onClick={() => onPick?.(entry)} aria-label={`Choose ${entry.Name}`}>
        <Group gap={6} wrap="nowrap">
          <IconFile size={16} aria-hidden />
          <Text size="sm">{entry.Name}</Text>
        </Group>
      </UnstyledButton>
    );
  return (
    <Group gap={6} wrap="nowrap">
      <IconFile size={16} aria-hidden />
      <Anchor
        href={`${entry.Url}${entry.Url?.startsWith('/api/files/download/') ? '?open=true' : ''}`}
        target="_blank"
        rel="noopener"
        size="sm"
      >
        {entry.Name}
      </Anchor>
    </Group>
  );
}

function NameDialog(props: {
  title: string;
  initial: string;
  onClose: () => void;
  onSave: (name: string) => Promise<void>;
}) {
  const [name, setName] = useState(props.initial);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  return (
    <Modal opened onClose={props.onClose} title={props.title}>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          setSaving(true);
          try {
            await props.onSave(name);
            props.onClose();
          } catch (err) {
            setError(err instanceof Error ? err.message : String(err));
          } finally {
            setSaving(false);
          }
        }}
      >
        <Stack>
          <TextInput
            label="Name"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={error}
            data-autofocus
            required
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={saving}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Moving: the folders of the place, one level at a time, to choose the new folder (or the top). */
function MoveDialog(props: {
  entry: FileEntry;
  contactId: number | undefined;
  onClose: () => void;
  onMoved: () => void;
}) {
  const [browse, setBrowse] = useState<number | null>(null);
  const folders = useQuery({
    queryKey: ['files', 'move', props.contactId ?? 0, browse],
    queryFn: () => filesApi.folder({ contactId: props.contactId, folderId: browse }),
  });
  const [target, setTarget] = useState<string | null>(null);
  const options = [
    {
      value: browse === null ? 'top' : String(browse),
      label: browse === null ? 'The top of the library' : 'This folder',
    },
    ...(folders.data?.Records ?? [])
      .filter((r) => isFolderEntry(r) && r.Id !== props.entry.Id)
      .map((r) => ({ value: String(r.Id), label: r.Name })),
  ];
  return (
    <Modal opened onClose={props.onClose} title={`Move ${props.entry.Name}`}>
      <Stack>
        <Breadcrumbs>
          <Anchor component="button" type="button" onClick={() => setBrowse(null)}>
            Top
          </Anchor>
          {(folders.data?.Path ?? []).map((p) => (
            <Anchor key={p.Id} component="button" type="button" onClick={() => setBrowse(p.Id)}>
              {p.Name}
            </Anchor>
          ))}
        </Breadcrumbs>
        <Select label="Move to" data={options} value={target} onChange={setTarget} />
        <Group justify="space-between">
          <Button
            variant="subtle"
            disabled={!target || target === 'top' || target === String(browse)}
            onClick={() => target && setBrowse(Number(target))}
          >
            Open folder
          </Button>
          <Button
            disabled={!target}
            onClick={async () => {
              try {
                await filesApi.move(props.entry.Id, target === 'top' || !target ? null : Number(target));
                notifySaved(`Moved ${props.entry.Name}.`);
                props.onMoved();
                props.onClose();
              } catch (error) {
                notifyError(error);
              }
            }}
          >
            Move here
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
