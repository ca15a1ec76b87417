import { useState } from 'react';
import { Button, Group, Modal, MultiSelect, Stack, TextInput } from '@mantine/core';
import { addDoctor } from '../controllers/catalog';
import { messageOf } from '../api/errors';
import type { Course } from '../api/wire';
import { ErrorNote } from './ErrorNote';

/**
 * Add a doctor: name, the courses they may teach, and when they are available (blank = any time).
 * Every list of doctors shows the new one on the change event.
 */
export function DoctorModal({ opened, courses, onClose }: { opened: boolean; courses: Course[]; onClose: () => void }) {
  const [name, setName] = useState('');
  const [allowed, setAllowed] = useState<string[]>([]);
  const [days, setDays] = useState('');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = async (): Promise<void> => {
    setError(null);
    try {
      await addDoctor({ name, allowed_courses: allowed, days: days || null, start: start || null, end: end || null });
      setName('');
      setAllowed([]);
      setDays('');
      setStart('');
      setEnd('');
      onClose();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Add doctor">
      <Stack gap="xs">
        <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} data-testid="doctor-name" />
        <MultiSelect
          label="May teach"
          searchable
          data={courses.map((c) => ({ value: c.code, label: `${c.code} — ${c.name}` }))}
          value={allowed}
          onChange={setAllowed}
        />
        <Group grow>
          <TextInput label="Days" placeholder="MWF" value={days} onChange={(e) => setDays(e.currentTarget.value)} />
          <TextInput label="From" placeholder="08:00" value={start} onChange={(e) => setStart(e.currentTarget.value)} />
          <TextInput label="To" placeholder="14:00" value={end} onChange={(e) => setEnd(e.currentTarget.value)} />
        </Group>
        <ErrorNote message={error} />
        <Group justify="flex-end">
          <Button onClick={() => void save()} disabled={!name.trim()} data-testid="doctor-save">
            Add doctor
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
