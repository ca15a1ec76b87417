import { Badge, Button, Table } from '@mantine/core';
import { clockTime, revocationWords, type TokenRow } from '../controllers/people';

const when = (iso: string): string => `${iso.slice(0, 10)} ${clockTime(iso)}`;

/** Personal tokens (never the tokens themselves): made, last used, and Revoke for a live one, or how it was revoked. */
export function TokenTable({
  tokens,
  label,
  testId,
  onRevoke,
}: {
  tokens: readonly TokenRow[];
  label: string;
  testId: string;
  onRevoke: (token: TokenRow) => void;
}) {
  return (
    <Table striped aria-label={label}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Name</Table.Th>
          <Table.Th>Made</Table.Th>
          <Table.Th>Last used</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {tokens.map((token) => (
          <Table.Tr key={token.id} data-testid={`${testId}-${token.label}`}>
            <Table.Td>{token.label}</Table.Td>
            <Table.Td>{when(token.created_at)}</Table.Td>
            <Table.Td>{token.last_used_at === null ? 'never' : when(token.last_used_at)}</Table.Td>
            <Table.Td>
              {token.revoked ? (
                <Badge color="gray" variant="light">
                  {revocationWords(token)}
                </Badge>
              ) : (
                <Button size="compact-xs" color="red" variant="light" onClick={() => onRevoke(token)} aria-label={`Revoke ${token.label}`}>
                  Revoke
                </Button>
              )}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
