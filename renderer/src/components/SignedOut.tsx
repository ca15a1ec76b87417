import { Alert, Center, Code, Stack, Text, Title } from '@mantine/core';

const WHY = {
  'used-link': 'That sign-in link has already been used: each link works once.',
  'no-session': 'This browser is not signed in to Termwise.',
  ended: 'Your session has ended (it expires after a day, after eight idle hours, or when Termwise restarts).',
} as const;

/** Headless mode without a session: how to get in, in the words of the terminal that started Termwise. */
export function SignedOut({ problem }: { problem: keyof typeof WHY }) {
  return (
    <Center h="100vh" p="md">
      <Stack maw={560} data-testid="signed-out">
        <Title order={2}>Sign in to Termwise</Title>
        <Alert color="yellow" role="alert">
          {WHY[problem]}
        </Alert>
        <Text>
          Open the sign-in link that <Code>npm run serve</Code> printed when it started. A fresh link is always kept in the file <Code>login-url</Code> in
          Termwise&apos;s data folder; <Code>npm run serve -- --open</Code> opens the browser with it.
        </Text>
      </Stack>
    </Center>
  );
}
