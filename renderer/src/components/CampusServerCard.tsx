import { useState } from 'react';
import { Alert, Button, Card, Group, List, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useCampusLink } from '../controllers/campus-link';
import { useLive } from '../api/live';
import type { Term } from '../api/wire';
import { TermPicker } from './TermPicker';
import { SubmitForm } from './SubmitForm';

/** Settings → Campus server, in the desktop app: plan offline or on a campus server, publish a term, fetch one back. */
export function CampusServerCard() {
  const link = useCampusLink();
  const current = useLive('schedule-settings', {}).data?.current_term ?? null;
  const [chosen, setChosen] = useState<Term | null>(null);
  const term = chosen ?? current;
  if (!link.available || !link.status) return null;
  const { status } = link;
  return (
    <Card withBorder data-testid="campus-server-card">
      <Stack gap="xs">
        <Text fw={600}>Campus server</Text>
        {status.connected ? (
          <>
            <Text size="sm">
              {status.online ? 'The screens plan on' : 'The screens plan on this computer; publishing goes to'} <code>{status.url}</code>.
            </Text>
            <Group>
              <Button variant="default" onClick={() => void link.goOnline(!status.online)}>
                {status.online ? 'Work offline' : 'Work on the server'}
              </Button>
              <Button variant="subtle" color="red" onClick={() => void link.disconnect()}>
                Disconnect
              </Button>
            </Group>
            {term && (
              <Group align="end">
                <TermPicker label="Term" value={term} onChange={setChosen} />
                <Button variant="default" onClick={() => void link.publish(term, true)}>
                  Check against the server
                </Button>
                <Button onClick={() => void link.publish(term, false)}>Publish this computer&apos;s term</Button>
                <Button variant="default" onClick={() => void link.fetchBack(term)}>
                  Fetch the server&apos;s term
                </Button>
              </Group>
            )}
            <Text size="xs" c="dimmed">
              Publishing replaces your department&apos;s term on the server with this computer&apos;s, all or nothing: the server refuses it, listing every
              clash with another department&apos;s bookings, until none is left. Fetching replaces this computer&apos;s term with the server&apos;s.
            </Text>
          </>
        ) : (
          <SubmitForm label="Connect to a campus server" onSubmit={link.connect}>
            <Group align="end" gap="xs">
              <TextInput
                label="Server address"
                placeholder="https://termwise.campus.example/"
                required
                value={link.form.url}
                onChange={(e) => link.edit({ url: e.currentTarget.value })}
                w={280}
              />
              <TextInput label="Login" required value={link.form.login} onChange={(e) => link.edit({ login: e.currentTarget.value })} w={140} />
              <PasswordInput label="Password" required value={link.form.password} onChange={(e) => link.edit({ password: e.currentTarget.value })} w={160} />
              <Button type="submit">Connect</Button>
            </Group>
            <Text size="xs" c="dimmed" mt={4}>
              The password is not kept: a personal token for this computer is, encrypted by the operating system.
            </Text>
          </SubmitForm>
        )}
        {link.problem && (
          <Alert color="red" role="alert">
            {link.problem}
            {link.clashes.length > 0 && (
              <List size="sm" mt={4}>
                {link.clashes.slice(0, 50).map((c) => (
                  <List.Item key={c}>{c}</List.Item>
                ))}
              </List>
            )}
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
