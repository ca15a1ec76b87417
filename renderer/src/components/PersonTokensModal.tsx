import { Alert, Modal, Stack, Text } from '@mantine/core';
import { TokenTable } from './TokenTable';
import { usePersonTokens, type PersonRow } from '../controllers/people';

/** People → a person → Tokens: the registrar sees a person's personal tokens, live and revoked, and revokes a leaked one. */
export function PersonTokensModal({ person, onClose }: { person: PersonRow | null; onClose: () => void }) {
  const page = usePersonTokens(person);
  return (
    <Modal opened={person !== null} onClose={onClose} title={`${person?.name ?? ''}'s personal tokens`} size="lg">
      <Stack gap="xs" data-testid="person-tokens">
        <Text size="sm" c="dimmed">
          Scripts sign in with these tokens as {person?.name}. Revoke one that may have leaked: it is refused from the next request, on every server process. A
          new password revokes them all.
        </Text>
        {page.error && (
          <Alert color="red" role="alert">
            {page.error}
          </Alert>
        )}
        {page.tokens.length === 0 ? (
          <Text size="sm">{person?.name} has no personal tokens.</Text>
        ) : (
          <TokenTable tokens={page.tokens} label="Personal tokens" testId="person-token" onRevoke={(token) => void page.revoke(token)} />
        )}
      </Stack>
    </Modal>
  );
}
