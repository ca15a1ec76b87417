import { Alert } from '@mantine/core';

/** The server's words, as a visible alert screen readers announce; with `onClose`, one the reader dismisses. */
export function ErrorNote({ message, testId, onClose }: { message: string | null | undefined; testId?: string; onClose?: () => void }) {
  if (!message) return null;
  return (
    <Alert color="red" role="alert" data-testid={testId} my="xs" {...(onClose ? { withCloseButton: true, onClose, closeButtonLabel: 'Dismiss' } : {})}>
      {message}
    </Alert>
  );
}
