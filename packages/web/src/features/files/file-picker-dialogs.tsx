/**
 * Choosing a file: the select-existing-file dialog (the tenant library, by folder; spec 000's "select existing file
 * from the library", used by the image dialog and the editors) and the contact file picker dialog (a contact's
 * folders and files; a folder opens on click). Both answer the chosen entry.
 */
import type { FileEntry } from '@guildhall/shared';
import { Modal } from '@mantine/core';
import { FileBrowser } from './file-browser.tsx';

export function SelectExistingFileDialog(props: {
  opened: boolean;
  onClose: () => void;
  onChoose: (entry: FileEntry) => void;
  imagesOnly?: boolean;
  title?: string;
}) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.title ?? 'Choose a file from the library'}
      size="lg"
      zIndex={1060}
    >
      <div style={{ maxHeight: 500, overflowY: 'auto' }}>
        <FileBrowser
          mode="pick"
          imagesOnly={props.imagesOnly ?? false}
          onPick={(entry) => {
            props.onChoose(entry);
            props.onClose();
          }}
        />
      </div>
    </Modal>
  );
}

export function ContactFilePickerDialog(props: {
  opened: boolean;
  contactId: number;
  onClose: () => void;
  onChoose: (entry: FileEntry) => void;
}) {
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Choose a file of the contact" size="lg">
      <FileBrowser
        mode="pick"
        contactId={props.contactId}
        onPick={(entry) => {
          props.onChoose(entry);
          props.onClose();
        }}
      />
    </Modal>
  );
}
