/**
 * The upload field (spec 001 sections 3 and 4): '% DONE' while the bytes go, then COMPLETED or FAILED with the
 * server's message; read-only or archived hides Delete and Upload. Its value is the uploaded file model (Name, Url,
 * ContentType, FileId); a custom field of type file will use it as is.
 */
import {
  allowedExtensions,
  canChangeUploadField,
  checkUpload,
  fileUploadStatusText,
  type UploadedFile,
  type UploadKind,
} from '@guildhall/shared';
import { Anchor, Button, FileButton, Group, Progress, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { IconTrash, IconUpload } from '@tabler/icons-react';
import { useId, useRef, useState } from 'react';
import { uploadMessage, uploadWithProgress } from './files-api.ts';

type UploadState =
  | { status: 'idle' }
  | { status: 'uploading'; percent: number }
  | { status: 'completed' }
  | { status: 'failed'; message: string };

export interface UploadFieldProps {
  label: string;
  /** Where the file is sent (the upload URL of the field); `?makePublic=true&forceSave=true` is added when public. */
  uploadUrl: string;
  value: UploadedFile | null;
  onChange: (value: UploadedFile | null) => void;
  isPublic?: boolean;
  readOnly?: boolean;
  IsArchived?: boolean;
  /** Images only (jpg, gif, jpeg, png, bmp) or any file of the spec's list. */
  kind?: UploadKind;
  /** A drop area (a file dragged onto it, or a click to choose) instead of the Upload button. */
  dropzone?: boolean;
}

export function withPublic(url: string, isPublic: boolean | undefined): string {
  if (!isPublic || url.includes('makePublic=')) return url;
  return `${url}${url.includes('?') ? '&' : '?'}makePublic=true&forceSave=true`;
}

export function UploadField(props: UploadFieldProps) {
  const [state, setState] = useState<UploadState>({ status: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const statusId = useId();
  const changeable = canChangeUploadField({
    readOnly: props.readOnly ?? false,
    IsArchived: props.IsArchived ?? false,
  });
  const kind = props.kind ?? 'file';
  const accept = allowedExtensions(kind)
    .map((e) => `.${e}`)
    .join(',');

  async function send(file: File | null) {
    if (!file) return;
    // The server checks again, and the content too; this saves sending 50 MB to hear "too large".
    const check = checkUpload(file, kind);
    if (!check.ok) {
      setState({ status: 'failed', message: check.message });
      return;
    }
    abort.current = new AbortController();
    setState({ status: 'uploading', percent: 0 });
    try {
      const answer = await uploadWithProgress<UploadedFile[]>(
        withPublic(props.uploadUrl, props.isPublic),
        file,
        (fraction) => setState({ status: 'uploading', percent: fraction * 100 }),
        abort.current.signal,
      );
      const first = answer[0];
      if (!first) throw new Error('The server answered no file.');
      props.onChange(first);
      setState({ status: 'completed' });
    } catch (error) {
      setState({ status: 'failed', message: uploadMessage(error) });
    }
  }

  return (
    <Stack gap={4} className="gh-upload-field">
      <Text size="sm" fw={500}>
        {props.label}
      </Text>
      <Group gap="sm" wrap="wrap">
        {props.value ? (
          <Anchor href={props.value.Url} target="_blank" rel="noopener" size="sm">
            {props.value.Name}
          </Anchor>
        ) : props.dropzone ? null : (
          <Text size="sm" c="dimmed">
            No file
          </Text>
        )}
        {changeable && !props.dropzone ? (
          <FileButton onChange={(f) => void send(f)} accept={accept}>
            {(p) => (
              <Button
                {...p}
                size="xs"
                variant="light"
                leftSection={<IconUpload size={14} />}
                loading={state.status === 'uploading'}
                aria-describedby={statusId}
              >
                Upload
              </Button>
            )}
          </FileButton>
        ) : null}
        {changeable && props.value ? (
          <Button
            size="xs"
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={14} />}
            onClick={() => {
              props.onChange(null);
              setState({ status: 'idle' });
            }}
          >
            Delete
          </Button>
        ) : null}
      </Group>
      {changeable && props.dropzone ? (
        <Dropzone
          onDrop={(files) => void send(files[0] ?? null)}
          multiple={false}
          loading={state.status === 'uploading'}
          aria-describedby={statusId}
          aria-label={props.label}
          p="md"
        >
          <Group justify="center" gap="xs" style={{ pointerEvents: 'none' }}>
            <IconUpload size={18} aria-hidden />
            <Text size="sm">Drop a file here, or click to choose one (at most 50 MB)</Text>
          </Group>
        </Dropzone>
      ) : null}
      <div id={statusId} aria-live="polite">
        {state.status === 'uploading' ? (
          <Group gap="xs">
            <Progress value={state.percent} w={160} size="sm" aria-label="Upload progress" />
            <Text size="xs" data-testid="upload-status">
              {fileUploadStatusText({ status: 'uploading', percent: state.percent })}
            </Text>
          </Group>
        ) : null}
        {state.status === 'completed' ? (
          <Text size="xs" c="green" data-testid="upload-status">
            {fileUploadStatusText({ status: 'completed' })}
          </Text>
        ) : null}
        {state.status === 'failed' ? (
          <Text size="xs" c="red" data-testid="upload-status" role="alert">
            {fileUploadStatusText({ status: 'failed' })}: {state.message}
          </Text>
        ) : null}
      </div>
    </Stack>
  );
}
