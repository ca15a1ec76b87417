import { Alert, Button, Card, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDepartmentsAdmin } from '../controllers/people';
import { SubmitForm } from './SubmitForm';

/** Settings → Departments: the registrar's list of the campus's departments, and adding one. */
export function DepartmentsCard() {
  const page = useDepartmentsAdmin(true);
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
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {page.departments.map((d) => (
              <Table.Tr key={d.id} data-testid={`department-${d.code}`}>
                <Table.Td>{d.code}</Table.Td>
                <Table.Td>{d.name}</Table.Td>
                <Table.Td>{d.campuses === null ? 'All' : d.campuses.join(', ')}</Table.Td>
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
        {page.problem && (
          <Alert color="red" role="alert">
            {page.problem}
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
