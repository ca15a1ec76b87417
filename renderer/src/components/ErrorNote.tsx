import { Alert } from '@mantine/core';

/** The server's words, as a visible alert screen readers announce. */
export function ErrorNote({ message, testId }: { message: string | null | undefined; testId?: string }) {
  if (!message) return null;
  return (
    <Alert color="red" role="alert" data-testid={testId} my="xs">
      {message}
    </Alert>
  );
}
