import { Alert, Badge, Button, Modal, Stack, Table, Text } from '@mantine/core';
import { clockTime, revocationWords, usePersonTokens, type PersonRow } from '../controllers/people';

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
          <Table aria-label="Personal tokens">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Token</Table.Th>
                <Table.Th>Made</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th>State</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {page.tokens.map((token) => (
                <Table.Tr key={token.id} data-testid={`person-token-${token.label}`}>
                  <Table.Td>{token.label}</Table.Td>
                  <Table.Td>{token.created_at.slice(0, 10)}</Table.Td>
                  <Table.Td>{token.last_used_at === null ? 'never' : `${token.last_used_at.slice(0, 10)} ${clockTime(token.last_used_at)}`}</Table.Td>
                  <Table.Td>
                    {token.revoked ? (
                      <Badge color="gray" variant="light" tt="none">
                        {revocationWords(token)}
                      </Badge>
                    ) : (
                      <Button size="compact-xs" color="red" variant="light" onClick={() => void page.revoke(token)} aria-label={`Revoke ${token.label}`}>
                        Revoke
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Modal>
  );
}
