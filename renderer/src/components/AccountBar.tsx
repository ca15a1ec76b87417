import { Button, Group, Select, Text } from '@mantine/core';
import { useAccount } from '../controllers/session';

const ROLE_WORDS = { registrar: 'Registrar', scheduler: 'Scheduler', viewer: 'Viewer' } as const;

/** The header's account line: who is signed in, the department the screens act in (a switch for the registrar), and signing out. */
export function AccountBar() {
  const account = useAccount();
  const { me } = account;
  return (
    // Long department and person names are cut to fit the header (whole on hover), never pushing Sign out below it.
    <Group gap="sm" wrap="nowrap" data-testid="account-bar" style={{ minWidth: 0 }}>
      {account.canSwitch ? (
        <Select
          aria-label="Department"
          size="xs"
          w={220}
          allowDeselect={false}
          data={account.departments.map((d) => ({ value: d.code, label: `${d.code} — ${d.name}` }))}
          title={account.acting ? `${account.acting.code} — ${account.acting.name}` : undefined}
          value={account.acting?.code ?? null}
          onChange={(code) => account.switchTo(code)}
          data-testid="department-switch"
        />
      ) : (
        account.acting && (
          <Text size="sm" truncate="end" maw={260} title={account.acting.name} data-testid="department-name">
            {account.acting.name}
          </Text>
        )
      )}
      {account.isPerson && me?.person && (
        <Text size="sm" c="dimmed" truncate="end" maw={280} title={`${me.person.name} · ${ROLE_WORDS[me.role]}`} data-testid="signed-in-as">
          {me.person.name} · {ROLE_WORDS[me.role]}
        </Text>
      )}
      {/* Signed in by the server's one-time link: the installation's registrar, no person of its own (on a laptop, its user). */}
      {!account.isPerson && account.signOut && me && (
        <Text size="sm" c="dimmed" data-testid="signed-in-as">
          {me.campus_server ? `${ROLE_WORDS[me.role]} · by the server's sign-in link` : 'This computer'}
        </Text>
      )}
      {account.signOut && (
        <Button size="xs" variant="subtle" style={{ flexShrink: 0 }} onClick={() => void account.signOut?.()} data-testid="sign-out">
          Sign out
        </Button>
      )}
    </Group>
  );
}
