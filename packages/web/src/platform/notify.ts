import { MESSAGES } from '@guildhall/shared';
import { notifications } from '@mantine/notifications';
import { GENERIC_ERROR_MESSAGE, isApiError } from './api-client.ts';

/** "We saved it!" (spec 000 section 8). */
export function notifySaved(message: string = MESSAGES.saved): void {
  notifications.show({ color: 'green', title: 'Success', message });
}

export function notifyInfo(message: string, title?: string): void {
  notifications.show({ color: 'blue', title, message });
}

export function notifyError(error: unknown, title = 'Oh no :('): void {
  const message =
    isApiError(error) && error.isKnown ? error.joinedErrors() || error.message : GENERIC_ERROR_MESSAGE;
  notifications.show({ color: 'red', title, message });
}
