import { FILE_READY_POLL_MS } from '@guildhall/shared';
import { Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { GENERIC_ERROR_MESSAGE } from '../api-client.ts';

export const DOWNLOAD_PROCESSING_TITLE = 'Your download is processing';
export const DOWNLOAD_PROCESSING_TEXT =
  'This step may take several seconds before the download appears using the setting you have in your browser.';

/** Downloads a ready file: POST with the file name in a header, saved through a temporary link. */
export async function downloadFile(id: string, fallbackName: string): Promise<void> {
  const response = await fetch(`/api/files/download/${encodeURIComponent(id)}`, {
    method: 'POST',
    credentials: 'same-origin',
  });
  if (!response.ok) throw new Error(`Download failed (${response.status})`);
  const name = response.headers.get('File-Name') ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Follows a pending file (spec 000 sections 4 and 8): the "processing" toast, then the ready call every 3 s until
 * it answers 200, then a download link. Polling stops on any error. Answers a function that stops it.
 */
export function followPendingDownload(id: string, pollMs: number = FILE_READY_POLL_MS): () => void {
  const toastId = `download-${id}`;
  notifications.show({
    id: toastId,
    loading: true,
    title: DOWNLOAD_PROCESSING_TITLE,
    message: DOWNLOAD_PROCESSING_TEXT,
    autoClose: false,
    withCloseButton: true,
  });
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const fail = (message: string) => {
    notifications.update({
      id: toastId,
      loading: false,
      color: 'red',
      title: 'Oh no :(',
      message,
      autoClose: 8000,
    });
  };
  const poll = async () => {
    if (stopped) return;
    let response: Response;
    try {
      response = await fetch(`/api/files/ready/${encodeURIComponent(id)}`, { credentials: 'same-origin' });
    } catch {
      return fail('We could not reach the server. Check your connection and try again.');
    }
    if (stopped) return;
    if (response.status === 200) {
      const body = (await response.json().catch(() => ({}))) as { FileName?: string };
      const name = body.FileName ?? 'export.csv';
      notifications.update({
        id: toastId,
        loading: false,
        color: 'green',
        title: 'Your download is ready',
        autoClose: false,
        message: (
          <Stack gap={4} align="flex-start">
            <Text size="sm">{name}</Text>
            <Button
              size="xs"
              variant="light"
              onClick={() => {
                downloadFile(id, name)
                  .then(() => notifications.hide(toastId))
                  .catch(() => fail(GENERIC_ERROR_MESSAGE));
              }}
            >
              Download {name}
            </Button>
          </Stack>
        ),
      });
      return;
    }
    if (response.status === 202) {
      timer = setTimeout(poll, pollMs);
      return;
    }
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    fail(body.message ?? GENERIC_ERROR_MESSAGE);
  };
  timer = setTimeout(poll, pollMs);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}
