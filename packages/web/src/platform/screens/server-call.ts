import { fillServerCall, type ServerCallDeclaration } from '@guildhall/shared';
import { notifications } from '@mantine/notifications';
import { notifyError } from '../notify.ts';
import { confirmDialog } from './dialogs.tsx';
import { followPendingDownload } from './export-download.tsx';
import { requestWithHeaders } from './screens-api.ts';

interface ServerCallAnswer {
  PendingDownloadFileId?: string | null;
  Message?: string;
  message?: string;
  Data?: { NoSuccessToaster?: boolean } | null;
}

/**
 * "Server call with confirm" (spec 000 section 7): asks, then GETs or POSTs the configured path with the row's
 * values. A PendingDownloadFileId in the answer shows the processing toast and polls the file (every 3 s, as
 * exports do); Data.NoSuccessToaster suppresses the success toast ("{action} completed" unless the answer says
 * more). Answers whether the call was made.
 */
export async function runServerCall(
  title: string,
  call: ServerCallDeclaration,
  row: Readonly<Record<string, unknown>>,
): Promise<boolean> {
  const path = fillServerCall(call.path, row);
  const question = fillServerCall(call.confirm, row, false);
  if (path === null || question === null) {
    notifyError(new Error(`${title} cannot run for this record.`));
    return false;
  }
  if (!(await confirmDialog({ title, message: question, okLabel: title }))) return false;
  try {
    const { data } = await requestWithHeaders<ServerCallAnswer | undefined>(path, {
      method: call.method,
      ...(call.method === 'POST' ? { body: {} } : {}),
    });
    if (data?.PendingDownloadFileId) followPendingDownload(data.PendingDownloadFileId);
    else if (data?.Data?.NoSuccessToaster !== true)
      notifications.show({
        color: 'green',
        title: 'Success',
        message: data?.Message ?? data?.message ?? `${title} completed`,
      });
    return true;
  } catch (error) {
    notifyError(error);
    return false;
  }
}
