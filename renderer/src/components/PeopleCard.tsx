import { useState } from 'react';
import { Alert, Button, Card, Group, Modal, PasswordInput, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { usePeople, type PersonRow } from '../controllers/people';
import { SubmitForm } from './SubmitForm';
import { PersonTokensModal } from './PersonTokensModal';

const ROLES = [
  { value: 'scheduler', label: 'Scheduler (plans one department)' },
  { value: 'viewer', label: 'Viewer (reads one department)' },
  { value: 'registrar', label: 'Registrar (every department, people, rooms)' },
];

/** Settings → People: the registrar adds people, gives them a role and a department, disables them or sets a new password. */
export function PeopleCard() {
  const page = usePeople(true);
  const [resetting, setResetting] = useState<PersonRow | null>(null);
  const [disabling, setDisabling] = useState<PersonRow | null>(null);
  const [tokensOf, setTokensOf] = useState<PersonRow | null>(null);
  const [password, setPassword] = useState('');
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
                    onNewPassword={() => {
                      setPassword('');
                      setResetting(person);
                    }}
                    onTokens={() => setTokensOf(person)}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <SubmitForm label="Add a person" onSubmit={page.add}>
          <Group align="end" gap="xs">
            <TextInput
              label="Login"
              required
              value={page.draft.login}
              onChange={(e) => page.edit({ login: e.currentTarget.value })}
              w={130}
              data-testid="person-login"
            />
            <TextInput
              label="Name"
              required
              value={page.draft.name}
              onChange={(e) => page.edit({ name: e.currentTarget.value })}
              w={170}
              data-testid="person-name"
            />
            <Select
              label="Role"
              data={ROLES}
              allowDeselect={false}
              value={page.draft.role}
              onChange={(role) => role && page.edit({ role: role as PersonRow['role'] })}
              w={170}
              data-testid="person-role"
            />
            {page.draft.role !== 'registrar' && (
              <Select
                label="Department"
                required
                data={page.departments.map((d) => ({ value: String(d.id), label: `${d.code} — ${d.name}` }))}
                value={page.draft.department_id == null ? null : String(page.draft.department_id)}
                onChange={(id) => page.edit({ department_id: id === null ? null : Number(id) })}
                w={190}
                data-testid="person-department"
              />
            )}
            <PasswordInput
              label="First password"
              required
              value={page.draft.password}
              onChange={(e) => page.edit({ password: e.currentTarget.value })}
              w={160}
              data-testid="person-password"
            />
            <Button type="submit" data-testid="person-add">
              Add person
            </Button>
          </Group>
        </SubmitForm>
        {page.problem && (
          <Alert color="red" role="alert" data-testid="person-problem">
            {page.problem}
          </Alert>
        )}
        <Modal opened={disabling !== null} onClose={() => setDisabling(null)} title={`Disable ${disabling?.name ?? ''}?`}>
          <Stack gap="sm">
            <Text size="sm">
              {disabling?.name} can no longer sign in: their open sessions and personal tokens stop at once. Their changes stay. Enable gives them back their
              sign-in.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDisabling(null)}>
                Cancel
              </Button>
              <Button
                color="red"
                onClick={() => {
                  if (disabling) void page.setDisabled(disabling, true);
                  setDisabling(null);
                }}
                data-testid="disable-confirm"
              >
                Disable
              </Button>
            </Group>
          </Stack>
        </Modal>
        <PersonTokensModal person={tokensOf} onClose={() => setTokensOf(null)} />
        <Modal
          opened={resetting !== null}
          onClose={() => {
            setResetting(null);
            setPassword('');
          }}
          title={`A new password for ${resetting?.name ?? ''}`}
        >
          <SubmitForm
            onSubmit={async () => {
              if (resetting && (await page.setPassword(resetting, password))) {
                setResetting(null);
                setPassword('');
              }
            }}
          >
            <Stack gap="sm">
              <Text size="sm">
                {resetting?.name}&apos;s open sessions end at once and their personal tokens are revoked: give the new password to them alone.
              </Text>
              <PasswordInput label="New password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} data-autofocus />
              <Group justify="flex-end">
                <Button type="submit">Set password</Button>
              </Group>
            </Stack>
          </SubmitForm>
        </Modal>
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
