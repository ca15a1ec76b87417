import { useState } from 'react';
import { Button, Card, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDepartmentsAdmin } from '../controllers/people';
import { ErrorNote } from './ErrorNote';
import { SubmitForm } from './SubmitForm';

type DepartmentsAdmin = ReturnType<typeof useDepartmentsAdmin>;
type Renaming = { id: number; code: string; name: string };

/** Settings → Departments: the registrar's list of the campus's departments, adding one and renaming any (the built-in "main" too). */
export function DepartmentsCard() {
  const page = useDepartmentsAdmin(true);
  const [renaming, setRenaming] = useState<Renaming | null>(null);
  return (
    <Card withBorder data-testid="departments-card">
      <Stack gap="xs">
        <Text fw={600}>Departments</Text>
        <Table striped aria-label="Departments">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Code</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>Campuses</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {page.departments.map((d) => (
              <Table.Tr key={d.id} data-testid={`department-${d.code}`}>
                <Table.Td>{d.code}</Table.Td>
                <Table.Td>{d.name}</Table.Td>
                <Table.Td>{d.campuses === null ? 'All' : d.campuses.join(', ')}</Table.Td>
                <Table.Td>
                  <Button
                    size="compact-xs"
                    variant="default"
                    onClick={() => setRenaming({ id: d.id, code: d.code, name: d.name })}
                    aria-label={`Rename ${d.code}`}
                    data-testid={`department-rename-${d.code}`}
                  >
                    Rename…
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <SubmitForm label="Add a department" onSubmit={page.add}>
          <Group align="end" gap="xs">
            <TextInput label="Code" required value={page.code} onChange={(e) => page.setCode(e.currentTarget.value)} w={120} data-testid="department-code" />
            <TextInput
              label="Name"
              required
              value={page.name}
              onChange={(e) => page.setName(e.currentTarget.value)}
              w={260}
              data-testid="department-new-name"
            />
            <Button type="submit" data-testid="department-add">
              Add department
            </Button>
          </Group>
        </SubmitForm>
        <ErrorNote message={page.problem} />
        <RenameDepartmentModal page={page} renaming={renaming} onChange={setRenaming} />
      </Stack>
    </Card>
  );
}

/** A department's new code and name, saved by Rename; the dialog closes once the rename is stored. */
function RenameDepartmentModal({ page, renaming, onChange }: { page: DepartmentsAdmin; renaming: Renaming | null; onChange: (next: Renaming | null) => void }) {
  return (
    <Modal opened={renaming !== null} onClose={() => onChange(null)} title="Rename the department">
      {renaming && (
        <SubmitForm
          label="Rename the department"
          onSubmit={async () => {
            if (await page.rename(renaming.id, { code: renaming.code, name: renaming.name })) onChange(null);
          }}
        >
          <Stack gap="sm">
            <TextInput
              label="Code"
              required
              value={renaming.code}
              onChange={(e) => onChange({ ...renaming, code: e.currentTarget.value })}
              data-testid="department-rename-code"
            />
            <TextInput
              label="Name"
              required
              value={renaming.name}
              onChange={(e) => onChange({ ...renaming, name: e.currentTarget.value })}
              data-testid="department-rename-name"
            />
            <ErrorNote message={page.problem} />
            <Group justify="flex-end">
              <Button type="submit" data-testid="department-rename-save">
                Rename
              </Button>
            </Group>
          </Stack>
        </SubmitForm>
      )}
    </Modal>
  );
}
