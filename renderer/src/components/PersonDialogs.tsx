import { useState } from 'react';
import { Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import type { PersonRow } from '../controllers/people';
import { SubmitForm } from './SubmitForm';

/** Asks before disabling a person: their sessions and personal tokens stop at once; their changes stay. */
export function DisablePersonModal({ person, onDisable, onClose }: { person: PersonRow | null; onDisable: (person: PersonRow) => void; onClose: () => void }) {
  return (
    <Modal opened={person !== null} onClose={onClose} title={`Disable ${person?.name ?? ''}?`}>
      <Stack gap="sm">
        <Text size="sm">
          {person?.name} can no longer sign in: their open sessions and personal tokens stop at once. Their changes stay. Enable gives them back their sign-in.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            color="red"
            onClick={() => {
              if (person) onDisable(person);
              onClose();
            }}
            data-testid="disable-confirm"
          >
            Disable
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A new password for a person, set by the registrar: it closes once the password is set (true), and forgets what was typed on close. */
export function NewPasswordModal(props: { person: PersonRow | null; onSet: (person: PersonRow, password: string) => Promise<boolean>; onClose: () => void }) {
  const { person } = props;
  const [password, setPassword] = useState('');
  const close = (): void => {
    setPassword('');
    props.onClose();
  };
  return (
    <Modal opened={person !== null} onClose={close} title={`A new password for ${person?.name ?? ''}`}>
      <SubmitForm
        onSubmit={async () => {
          if (person && (await props.onSet(person, password))) close();
        }}
      >
        <Stack gap="sm">
          <Text size="sm">{person?.name}&apos;s open sessions end at once and their personal tokens are revoked: give the new password to them alone.</Text>
          <PasswordInput label="New password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} data-autofocus />
          <Group justify="flex-end">
            <Button type="submit">Set password</Button>
          </Group>
        </Stack>
      </SubmitForm>
    </Modal>
  );
}
