import { Alert, Button, Card, Code, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';
import { TokenTable } from './TokenTable';
import { useMyTokens } from '../controllers/people';
import { SubmitForm } from './SubmitForm';

/** Settings → My tokens: personal tokens for scripts that act as the signed-in person; a new one is shown once. */
export function TokensCard() {
  const page = useMyTokens(true);
  return (
    <Card withBorder data-testid="tokens-card">
      <Stack gap="xs">
        <Text fw={600}>My tokens</Text>
        <Text size="sm" c="dimmed">
          A script that sends one of these (Authorization: Bearer …) acts as you, with your role. Revoking a token refuses it at once.
        </Text>
        {page.created && (
          <Alert color="green" title={`Your new token "${page.created.label}"`} withCloseButton onClose={page.dismissCreated} data-testid="token-created">
            <Stack gap={6}>
              <Text size="sm">Copy it now: it is not shown again.</Text>
              <Group gap="xs">
                <Code data-testid="token-value">{page.created.token}</Code>
                <CopyButton value={page.created.token}>
                  {({ copied, copy }) => (
                    <Button size="compact-xs" variant="default" onClick={copy}>
                      {copied ? 'Copied' : 'Copy'}
                    </Button>
                  )}
                </CopyButton>
              </Group>
            </Stack>
          </Alert>
        )}
        {page.tokens.length > 0 && <TokenTable tokens={page.tokens} label="My tokens" testId="token" onRevoke={(token) => void page.revoke(token)} />}
        <SubmitForm label="Make a token" onSubmit={page.create}>
          <Group align="end" gap="xs">
            <TextInput
              label="What will use it"
              required
              placeholder="nightly export"
              value={page.label}
              onChange={(e) => page.setLabel(e.currentTarget.value)}
              w={260}
              data-testid="token-label"
            />
            <Button type="submit" data-testid="token-create">
              Make a token
            </Button>
          </Group>
        </SubmitForm>
      </Stack>
    </Card>
  );
}
