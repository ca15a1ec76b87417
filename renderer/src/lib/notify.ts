import { notifications } from '@mantine/notifications';
import { messageOf } from '../api/errors';

export function notifyError(error: unknown, title = 'Something went wrong'): void {
  notifications.show({ color: 'red', title, message: messageOf(error), autoClose: 8000 });
}

export function notifyDone(message: string, title = 'Done'): void {
  notifications.show({ color: 'green', title, message, autoClose: 4000 });
}
