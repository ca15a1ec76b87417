import { Button, Group, Select, Text } from '@mantine/core';
import { useAccount } from '../controllers/session';

const ROLE_WORDS = { registrar: 'Registrar', scheduler: 'Scheduler', viewer: 'Viewer' } as const;

/** The header's account line: who is signed in, the department the screens act in (a switch for the registrar), and signing out. */
export function AccountBar() {
  const account = useAccount();
  const { me } = account;
  return (
    <Group gap="sm" data-testid="account-bar">
      {account.canSwitch ? (
        <Select
          aria-label="Department"
          size="xs"
          w={220}
          allowDeselect={false}
          data={account.departments.map((d) => ({ value: d.code, label: `${d.code} — ${d.name}` }))}
          value={account.acting?.code ?? null}
          onChange={(code) => account.switchTo(code)}
          data-testid="department-switch"
        />
      ) : (
        account.acting && (
          <Text size="sm" data-testid="department-name">
            {account.acting.name}
          </Text>
        )
      )}
      {account.isPerson && me?.person && (
        <Text size="sm" c="dimmed" data-testid="signed-in-as">
          {me.person.name} · {ROLE_WORDS[me.role]}
        </Text>
      )}
      {account.signOut && (
        <Button size="xs" variant="subtle" onClick={() => void account.signOut?.()} data-testid="sign-out">
          Sign out
        </Button>
      )}
    </Group>
  );
}
