import { useState } from 'react';
import { Badge, Button, Card, FileButton, Group, NumberInput, ScrollArea, Select, Table, Text, TextInput } from '@mantine/core';
import { addRoom, removeRoom, uploadRooms, useRooms } from '../controllers/rooms';
import { messageOf } from '../api/errors';
import { ErrorNote } from './ErrorNote';
import { notifyDone } from '../lib/notify';
import { useCampusList } from '../controllers/catalog';
import { useAccount, useRole } from '../controllers/session';

/**
 * Rooms with their seats and, on a campus of several departments, whose they are (the shared pool,
 * or this department's own). A scheduler adds, uploads and removes their department's rooms; the
 * registrar the pool's too; a viewer reads.
 */
export function RoomsPanel({ canWrite }: { canWrite: boolean }) {
  const { isRegistrar } = useRole();
  const severalDepartments = useAccount().departments.length > 1;
  // Rooms added here, in another window or by a script show on the change event.
  const rooms = useRooms();
  const [name, setName] = useState('');
  const [capacity, setCapacity] = useState<number | string>(40);
  const [campus, setCampus] = useState<string | null>(null);
  const campuses = useCampusList();
  const [error, setError] = useState<string | null>(null);
  const act = async (work: () => Promise<unknown>): Promise<void> => {
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  return (
    <Card withBorder data-testid="rooms-panel">
      <Group justify="space-between" mb="xs">
        <Text fw={600}>Rooms ({rooms.data?.length ?? 0})</Text>
        {canWrite && (
          <FileButton
            accept=".csv,.xlsx,.json"
            onChange={(file) =>
              void act(async () => {
                if (!file) return;
                const result = await uploadRooms(file);
                notifyDone(`${result.processed} rooms imported, ${result.skipped} skipped`, 'Rooms');
              })
            }
          >
            {(props) => (
              <Button size="xs" variant="default" {...props}>
                Upload rooms…
              </Button>
            )}
          </FileButton>
        )}
      </Group>
      {canWrite && (
        <Group gap="xs" align="end" mb="xs">
          <TextInput size="xs" label="Room" value={name} onChange={(e) => setName(e.currentTarget.value)} w={140} />
          <NumberInput size="xs" label="Seats" min={1} value={capacity} onChange={setCapacity} w={80} />
          <Select size="xs" label="Campus" clearable allowDeselect={false} placeholder="any" data={campuses} value={campus} onChange={setCampus} w={110} />
          <Button
            size="xs"
            disabled={!name.trim()}
            onClick={() => void act(() => addRoom({ name, capacity: Number(capacity), campus }).then(() => setName('')))}
          >
            Add
          </Button>
        </Group>
      )}
      <ErrorNote message={error ?? rooms.error} />
      <ScrollArea h={180}>
        <Table fz="xs">
          <Table.Tbody>
            {(rooms.data ?? []).map((r) => (
              <Table.Tr key={r.name}>
                <Table.Td>{r.name}</Table.Td>
                <Table.Td>
                  {r.capacity === null ? (
                    <Badge variant="light" color="gray">
                      seats unknown
                    </Badge>
                  ) : (
                    `${r.capacity} seats`
                  )}
                </Table.Td>
                <Table.Td>{r.campus ?? 'any campus'}</Table.Td>
                {severalDepartments && <Table.Td>{r.department_id === null ? 'shared' : "this department's"}</Table.Td>}
                <Table.Td>
                  {r.id !== null && canWrite && (isRegistrar || r.department_id !== null) && (
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      color="red"
                      aria-label={`Remove ${r.name}`}
                      onClick={() => void act(() => removeRoom(r.id ?? 0))}
                    >
                      Remove
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </Card>
  );
}
