import { notifications } from '@mantine/notifications';
import { ApiError, messageOf } from '../api/errors';

/** A notification's close button is named, for screen readers (Mantine's has no name of its own). */
const CLOSE = { closeButtonProps: { 'aria-label': 'Dismiss notification' } };

/**
 * A refusal or a failure, in the server's words. Without a title of its own, a rule's refusal (a 4xx:
 * "the only registrar who can sign in") is titled as one, and only a fault as "Something went wrong".
 */
export function notifyError(error: unknown, title?: string): void {
  const refused = error instanceof ApiError && error.status >= 400 && error.status < 500;
  notifications.show({ color: 'red', title: title ?? (refused ? 'Not done' : 'Something went wrong'), message: messageOf(error), autoClose: 8000, ...CLOSE });
}

export function notifyDone(message: string, title = 'Done'): void {
  notifications.show({ color: 'green', title, message, autoClose: 4000, ...CLOSE });
}
