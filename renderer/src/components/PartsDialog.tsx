import { useState } from 'react';
import { Button, Group, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { removePartOfTerm, savePartOfTerm } from '../controllers/timetable';
import { messageOf } from '../api/errors';
import { termLabel, type Term } from '../../../core/domain/terms';
import { WHOLE_TERM_CODE, type PartOfTerm } from '../../../core/domain/parts';
import { ErrorNote } from './ErrorNote';

type PartForm = { code: string; name: string; start_date: string; end_date: string };
const EMPTY_PART: PartForm = { code: '', name: '', start_date: '', end_date: '' };

/** A term's parts of term (summer halves, eight-week courses): list, add, change dates, remove unused ones. */
export function PartsDialog({ opened, term, parts, onClose }: { opened: boolean; term: Term; parts: PartOfTerm[]; onClose: () => void }) {
  const [form, setForm] = useState<PartForm>(EMPTY_PART);
  const [error, setError] = useState<string | null>(null);
  const act = async (work: () => Promise<unknown>): Promise<void> => {
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  const save = (): Promise<void> =>
    act(async () => {
      await savePartOfTerm(term, form);
      setForm(EMPTY_PART);
    });
  return (
    <Modal opened={opened} onClose={onClose} title={`Parts of term — ${termLabel(term)}`} size="lg">
      <Stack gap="xs" data-testid="parts-dialog">
        <Table fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Code</Table.Th>
              <Table.Th>Name</Table.Th>
              <Table.Th>Dates</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {parts.map((p) => (
              <Table.Tr key={p.code}>
                <Table.Td>{p.code}</Table.Td>
                <Table.Td>{p.name}</Table.Td>
                <Table.Td>{p.start_date && p.end_date ? `${p.start_date} – ${p.end_date}` : 'whole term'}</Table.Td>
                <Table.Td>
                  {p.code !== WHOLE_TERM_CODE && (
                    <Button size="compact-xs" variant="subtle" color="red" onClick={() => void act(() => removePartOfTerm(term, p.code))}>
                      Remove
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="sm" fw={600}>
          Add or change a part
        </Text>
        <PartFields form={form} onChange={setForm} />
        <ErrorNote message={error} />
        <Group justify="end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button onClick={() => void save()} disabled={!form.code.trim() || !form.name.trim()} data-testid="part-save">
            Save part
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** A part's code, name and first and last days. */
function PartFields({ form, onChange }: { form: PartForm; onChange: (next: PartForm) => void }) {
  return (
    <Group grow align="end">
      <TextInput label="Code" placeholder="S1" value={form.code} onChange={(e) => onChange({ ...form, code: e.currentTarget.value })} data-testid="part-code" />
      <TextInput
        label="Name"
        placeholder="First half"
        value={form.name}
        onChange={(e) => onChange({ ...form, name: e.currentTarget.value })}
        data-testid="part-name"
      />
      <TextInput
        label="First day"
        type="date"
        value={form.start_date}
        onChange={(e) => onChange({ ...form, start_date: e.currentTarget.value })}
        data-testid="part-start"
      />
      <TextInput
        label="Last day"
        type="date"
        value={form.end_date}
        onChange={(e) => onChange({ ...form, end_date: e.currentTarget.value })}
        data-testid="part-end"
      />
    </Group>
  );
}
