import { useState } from 'react';
import { Alert, Button, Card, Group, Stack, Table, Text } from '@mantine/core';
import { usePeople, type PersonRow } from '../controllers/people';
import { NewPersonForm } from './NewPersonForm';
import { DisablePersonModal, NewPasswordModal } from './PersonDialogs';
import { PersonTokensModal } from './PersonTokensModal';

/** Settings → People: the registrar adds people, gives them a role and a department, disables them or sets a new password. */
export function PeopleCard() {
  const page = usePeople(true);
  const [resetting, setResetting] = useState<PersonRow | null>(null);
  const [disabling, setDisabling] = useState<PersonRow | null>(null);
  const [tokensOf, setTokensOf] = useState<PersonRow | null>(null);
  const departmentName = (id: number | null) => (id === null ? 'Every department' : (page.departments.find((d) => d.id === id)?.code ?? String(id)));
  return (
    <Card withBorder data-testid="people-card">
      <Stack gap="xs">
        <Text fw={600}>People</Text>
        <Table striped aria-label="People">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Login</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>Role</Table.Th>
              <Table.Th>Department</Table.Th>
              <Table.Th>Sign-in</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {page.people.map((person) => (
              <Table.Tr key={person.id} data-testid={`person-${person.login}`}>
                <Table.Td>{person.login}</Table.Td>
                <Table.Td>{person.name}</Table.Td>
                <Table.Td>{person.role}</Table.Td>
                <Table.Td>{departmentName(person.department_id)}</Table.Td>
                <Table.Td>
                  <PersonActions
                    person={person}
                    lockedUntil={page.lockedUntil(person)}
                    onUnlock={() => void page.unlock(person)}
                    onEnable={() => void page.setDisabled(person, false)}
                    onDisable={() => setDisabling(person)}
                    onNewPassword={() => setResetting(person)}
                    onTokens={() => setTokensOf(person)}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <NewPersonForm page={page} />
        {page.problem && (
          <Alert color="red" role="alert" data-testid="person-problem">
            {page.problem}
          </Alert>
        )}
        <DisablePersonModal person={disabling} onDisable={(person) => void page.setDisabled(person, true)} onClose={() => setDisabling(null)} />
        <PersonTokensModal person={tokensOf} onClose={() => setTokensOf(null)} />
        <NewPasswordModal person={resetting} onSet={page.setPassword} onClose={() => setResetting(null)} />
      </Stack>
    </Card>
  );
}

/** A person's sign-in: a lock of failed sign-ins (and Unlock), enable or disable, a new password, their tokens. */
function PersonActions(props: {
  person: PersonRow;
  lockedUntil: string | null;
  onUnlock: () => void;
  onEnable: () => void;
  onDisable: () => void;
  onNewPassword: () => void;
  onTokens: () => void;
}) {
  const { person, lockedUntil } = props;
  return (
    <Group gap={4} wrap="nowrap">
      {lockedUntil !== null && (
        <>
          <Text size="xs" c="orange" fw={600} data-testid={`locked-${person.login}`}>
            Locked until {lockedUntil}
          </Text>
          <Button
            size="compact-xs"
            color="orange"
            variant="light"
            onClick={props.onUnlock}
            title="Locked after repeated failed sign-ins"
            aria-label={`Unlock ${person.login}`}
            data-testid={`unlock-${person.login}`}
          >
            Unlock
          </Button>
        </>
      )}
      <Button
        size="compact-xs"
        variant="default"
        // Enabling is at once; disabling asks first (it ends the person's sessions and tokens).
        onClick={person.disabled ? props.onEnable : props.onDisable}
        aria-label={`${person.disabled ? 'Enable' : 'Disable'} ${person.login}`}
      >
        {person.disabled ? 'Enable' : 'Disable'}
      </Button>
      <Button size="compact-xs" variant="default" onClick={props.onNewPassword} aria-label={`New password for ${person.login}`}>
        New password…
      </Button>
      <Button size="compact-xs" variant="default" onClick={props.onTokens} aria-label={`Tokens of ${person.login}`} data-testid={`tokens-${person.login}`}>
        Tokens…
      </Button>
    </Group>
  );
}
