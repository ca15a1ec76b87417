import { Alert, Button, Center, Code, Divider, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import type { SessionProblem } from '../stores/session';
import { useSignIn } from '../controllers/session';
import { SubmitForm } from './SubmitForm';

const WHY: Record<Exclude<SessionProblem, 'none'>, string> = {
  'used-link': 'That sign-in link has already been used: each link works once.',
  'no-session': 'This browser is not signed in to Termwise.',
  ended: 'Your session has ended (a session lasts a day, or eight hours unused).',
  disabled: 'Your account can no longer sign in: the registrar has disabled it. Ask them to enable it again.',
  'password-changed':
    'The registrar set a new password for your account, so every session and personal token of yours has ended. Sign in again with the new password.',
  'access-changed': 'The registrar changed your role or department, so your session has ended. Sign in again to work with your new access.',
  'signed-out': 'You have signed out.',
};

/**
 * Headless mode without a session: a campus server's people sign in with their login and password;
 * on a laptop, the sign-in link that the terminal printed opens the page.
 */
export function SignedOut({ problem }: { problem: Exclude<SessionProblem, 'none'> }) {
  const form = useSignIn();
  return (
    <Center h="100vh" p="md">
      <Stack maw={560} data-testid="signed-out">
        <Title order={2}>Sign in to Termwise</Title>
        <Alert color="yellow" role="status">
          {WHY[problem]}
        </Alert>
        {form.available && (
          <SubmitForm label="Sign in" onSubmit={form.submit}>
            <Stack gap="xs">
              <TextInput
                label="Login"
                autoComplete="username"
                required
                value={form.login}
                onChange={(e) => form.setLogin(e.currentTarget.value)}
                data-testid="signin-login"
              />
              <PasswordInput
                label="Password"
                autoComplete="current-password"
                required
                value={form.password}
                onChange={(e) => form.setPassword(e.currentTarget.value)}
                data-testid="signin-password"
              />
              {form.error && (
                <Alert color="red" role="alert" data-testid="signin-error">
                  {form.error}
                </Alert>
              )}
              <Button type="submit" loading={form.busy} data-testid="signin-submit">
                Sign in
              </Button>
            </Stack>
          </SubmitForm>
        )}
        <Divider label="On this computer" labelPosition="left" />
        <Text size="sm">
          Open the sign-in link that <Code>npm run serve</Code> printed when it started. A fresh link is always kept in the file <Code>login-url</Code> in
          Termwise&apos;s data folder; <Code>npm run serve -- --open</Code> opens the browser with it.
        </Text>
      </Stack>
    </Center>
  );
}
