import {
  type Model,
  type PostAction,
  type ResourceDeclaration,
  SAVE_SUCCESS_MESSAGE,
  type SaveResponse,
} from '@guildhall/shared';
import { notifications } from '@mantine/notifications';
import { errorDialog, informationDialog, yesNoDialog } from './dialogs.tsx';
import { followPendingDownload } from './export-download.tsx';
import { ErrorValidationError, type SaveBody, saveRecord } from './screens-api.ts';

/** The outcome of a save: saved, or stopped by the user or an ErrorValidation dialog. */
export type SaveResult = { saved: true; answer: SaveResponse } | { saved: false };

/**
 * Posts the model and acts on ErrorValidation answers (spec 000 section 4): Proceed 0 repeats the save with
 * ForceSave; Error 1 shows the error dialog; YesNo 2 asks and sends the answer back (unless the answer says that
 * "No" cancels the save). Other errors are thrown.
 */
export async function saveWithBusinessChecks(
  r: ResourceDeclaration,
  model: Model,
  post: (body: SaveBody) => Promise<{ data: SaveResponse }> = (body) => saveRecord(r, body),
): Promise<SaveResult> {
  const extras: { ForceSave?: boolean; Answer?: 'Yes' | 'No' } = {};
  for (let attempt = 0; attempt < 4; attempt++) {
    try {
      const { data } = await post({ ...model, ...extras });
      return { saved: true, answer: data };
    } catch (error) {
      if (!(error instanceof ErrorValidationError)) throw error;
      const { Action, Message, NoCancelsSave } = error.answer;
      if (Action === 0) {
        extras.ForceSave = true;
        continue;
      }
      if (Action === 1) {
        await errorDialog(Message);
        return { saved: false };
      }
      const answer = await yesNoDialog(Message);
      // "No" to "Save it anyway?" is the user's decision, not an error: the form stays as typed.
      if (answer === null || (answer === 'No' && NoCancelsSave === true)) return { saved: false };
      extras.Answer = answer;
    }
  }
  return { saved: false };
}

export function notifySuccess(message: string, autoClose?: number): void {
  notifications.show({ color: 'green', title: 'Success', message, ...(autoClose ? { autoClose } : {}) });
}

/** After a save: the toast, a pending download, then the post-actions in order (0 toast, 1 information). */
export async function afterSave(answer: SaveResponse, autoClose?: number): Promise<void> {
  notifySuccess(answer.Message || SAVE_SUCCESS_MESSAGE, autoClose);
  if (answer.PendingDownloadFileId) followPendingDownload(answer.PendingDownloadFileId);
  await runPostActions(answer.PostActions);
}

export async function runPostActions(actions: readonly PostAction[]): Promise<void> {
  for (const action of actions) {
    if (action.Type === 0) notifySuccess(action.Message);
    else await informationDialog({ message: action.Message, extraButton: action.ExtraButton });
  }
}
