/**
 * The contact record's Files tab: the contact's folders and files, uploads into them, and a file of the library
 * added to them (chosen in the select-existing-file dialog, copied into the contact's files).
 */
import type { FileEntry } from '@guildhall/shared';
import { Button, Group, Stack } from '@mantine/core';
import { IconLibrary } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { notifyError, notifySaved } from '../../platform/notify.ts';
import { FileBrowser } from './file-browser.tsx';
import { SelectExistingFileDialog } from './file-picker-dialogs.tsx';
import { filesApi } from './files-api.ts';

export default function ContactFilesTab({ recordId }: { recordId: string }) {
  const contactId = Number(recordId);
  const [picking, setPicking] = useState(false);
  const queryClient = useQueryClient();
  async function add(entry: FileEntry) {
    try {
      await filesApi.copy(entry.Id, { ContactId: contactId });
      notifySaved(`Added ${entry.Name} to the contact's files.`);
      await queryClient.invalidateQueries({ queryKey: ['files'] });
    } catch (error) {
      notifyError(error);
    }
  }
  return (
    <Stack gap="sm">
      <Group justify="flex-end">
        <Button
          size="xs"
          variant="default"
          leftSection={<IconLibrary size={14} />}
          onClick={() => setPicking(true)}
        >
          Add from the library
        </Button>
      </Group>
      <FileBrowser mode="manage" contactId={contactId} />
      <SelectExistingFileDialog
        opened={picking}
        onClose={() => setPicking(false)}
        onChoose={(entry) => void add(entry)}
        title="Add a file from the library"
      />
    </Stack>
  );
}
