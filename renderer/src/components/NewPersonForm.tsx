import { Button, Group, PasswordInput, Select, TextInput } from '@mantine/core';
import type { usePeople, PersonRow } from '../controllers/people';
import { SubmitForm } from './SubmitForm';

const ROLES = [
  { value: 'scheduler', label: 'Scheduler (plans one department)' },
  { value: 'viewer', label: 'Viewer (reads one department)' },
  { value: 'registrar', label: 'Registrar (every department, people, rooms)' },
];

/** Settings → People's form for a new person: login, name, role, department (not for a registrar) and first password. */
export function NewPersonForm({ page }: { page: ReturnType<typeof usePeople> }) {
  return (
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
  );
}
