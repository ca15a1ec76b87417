import { memo, useMemo, useState } from 'react';
import { Badge, Button, Card, FileButton, Group, Modal, NumberInput, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { addRoom, changeRoom, removeRoom, uploadRooms, useRooms } from '../controllers/rooms';
import { messageOf } from '../api/errors';
import { ErrorNote } from './ErrorNote';
import { notifyDone } from '../lib/notify';
import { useCampusList } from '../controllers/catalog';
import type { Campus } from '../../../core/domain/campuses';
import { useAccount, useRole } from '../controllers/session';
import { useWindowedRows, WindowBox, WindowedTableRows } from './WindowedRows';

const LIST_HEIGHT = 180;

/** The owner choice meaning the campus pool. */
const SHARED = 'shared';

interface RoomEdit {
  /** null: a room in use in meetings, declared by saving. */
  id: number | null;
  name: string;
  capacity: number;
  campus: string | null;
  /** SHARED, or a department's id. */
  owner: string;
}

type Act = (work: () => Promise<unknown>) => Promise<void>;
type Choices = { value: string; label: string }[];
type ListedRoom = NonNullable<ReturnType<typeof useRooms>['data']>[number];

/** A new room: its name, seats, campus and (the registrar, on a campus of several departments) whose it is. */
function NewRoomForm({
  campuses,
  ownerChoices,
  ownerWords,
  act,
}: {
  campuses: Campus[];
  ownerChoices: Choices;
  ownerWords: (owner: number | null) => string;
  act: Act;
}) {
  const { isRegistrar } = useRole();
  const { departments, acting } = useAccount();
  const [name, setName] = useState('');
  const [capacity, setCapacity] = useState<number | string>(40);
  const [campus, setCampus] = useState<string | null>(null);
  // The registrar's new room: shared (the pool) or one department's; a scheduler's is always their department's.
  const [owner, setOwner] = useState<string>(SHARED);
  return (
    <Group gap="xs" align="end" mb="xs">
      <TextInput size="xs" label="Room" value={name} onChange={(e) => setName(e.currentTarget.value)} w={140} />
      <NumberInput size="xs" label="Seats" min={1} value={capacity} onChange={setCapacity} w={80} />
      <Select size="xs" label="Campus" clearable allowDeselect={false} placeholder="any" data={campuses} value={campus} onChange={setCampus} w={110} />
      {isRegistrar && departments.length > 1 && (
        <Select
          size="xs"
          label="Belongs to"
          allowDeselect={false}
          data={ownerChoices}
          value={owner}
          onChange={(v) => setOwner(v ?? SHARED)}
          w={110}
          data-testid="room-new-owner"
        />
      )}
      <Button
        size="xs"
        disabled={!name.trim()}
        onClick={() =>
          void act(() =>
            addRoom({
              name,
              capacity: Number(capacity),
              campus,
              ...(isRegistrar && departments.length > 1 ? { department_id: owner === SHARED ? null : Number(owner) } : {}),
            }).then(() => {
              // A room of another department is listed with that department's rooms, not this one's.
              if (owner !== SHARED && Number(owner) !== acting?.id)
                notifyDone(
                  `${name} belongs to ${ownerWords(Number(owner)).replace(/'s$/, '')} alone: it is listed with that department's rooms.`,
                  'Room added',
                );
              setName('');
            }),
          )
        }
      >
        Add
      </Button>
    </Group>
  );
}

/** A listed room's buttons: Declare… for a room typed in a meeting, Edit and Remove for a declared one the caller may change. */
function RoomActions({ room, onEdit, act }: { room: ListedRoom; onEdit: (edit: RoomEdit) => void; act: Act }) {
  const { isRegistrar } = useRole();
  const { acting } = useAccount();
  return (
    <>
      {room.id === null && (
        // A room typed in a meeting: declared with its seats and campus, auto-fill may use it.
        <Button
          size="compact-xs"
          variant="subtle"
          aria-label={`Declare ${room.name}`}
          title="Typed in a meeting, not declared: give it its seats and campus so auto-fill can use it"
          onClick={() => onEdit({ id: null, name: room.name, capacity: 40, campus: room.campus, owner: isRegistrar ? SHARED : String(acting?.id ?? SHARED) })}
          data-testid={`room-declare-${room.name}`}
        >
          Declare…
        </Button>
      )}
      {room.id !== null && (isRegistrar || room.department_id !== null) && (
        <Button
          size="compact-xs"
          variant="subtle"
          aria-label={`Edit ${room.name}`}
          onClick={() =>
            onEdit({
              id: room.id ?? 0,
              name: room.name,
              capacity: room.capacity ?? 40,
              campus: room.campus,
              owner: room.department_id === null ? SHARED : String(room.department_id),
            })
          }
        >
          Edit
        </Button>
      )}
      {room.id !== null && (isRegistrar || room.department_id !== null) && (
        <Button size="compact-xs" variant="subtle" color="red" aria-label={`Remove ${room.name}`} onClick={() => void act(() => removeRoom(room.id ?? 0))}>
          Remove
        </Button>
      )}
    </>
  );
}

/** The dialog that declares a room typed in meetings, or changes a declared one's seats, campus and owner. */
function RoomEditDialog({
  editing,
  onChange,
  campuses,
  ownerChoices: ownerEditChoices,
  error,
  act,
}: {
  editing: RoomEdit | null;
  onChange: (edit: RoomEdit | null) => void;
  campuses: Campus[];
  ownerChoices: Choices;
  error: string | null;
  act: Act;
}) {
  const { isRegistrar } = useRole();
  const { departments } = useAccount();
  return (
    <Modal opened={editing !== null} onClose={() => onChange(null)} title={`Room ${editing?.name ?? ''}`}>
      {editing && (
        <Stack gap="sm">
          <NumberInput
            label="Seats"
            min={1}
            value={editing.capacity}
            onChange={(v) => onChange({ ...editing, capacity: Number(v) || 1 })}
            data-testid="room-edit-seats"
          />
          <Select
            label="Campus"
            clearable
            allowDeselect={false}
            placeholder="any"
            data={campuses}
            value={editing.campus}
            onChange={(v) => onChange({ ...editing, campus: v })}
          />
          {isRegistrar && departments.length > 1 && (
            <Select
              label="Belongs to"
              description="Shared: every department books it. A department's: that department alone."
              allowDeselect={false}
              data={ownerEditChoices}
              value={editing.owner}
              onChange={(v) => onChange({ ...editing, owner: v ?? SHARED })}
              data-testid="room-edit-owner"
            />
          )}
          <ErrorNote message={error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => onChange(null)}>
              Cancel
            </Button>
            <Button
              onClick={() =>
                void act(async () => {
                  const ownerOf = isRegistrar ? { department_id: editing.owner === SHARED ? null : Number(editing.owner) } : {};
                  if (editing.id === null) await addRoom({ name: editing.name, capacity: editing.capacity, campus: editing.campus, ...ownerOf });
                  else await changeRoom(editing.id, { capacity: editing.capacity, campus: editing.campus, ...ownerOf });
                  onChange(null);
                })
              }
              data-testid="room-edit-save"
            >
              Save
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/**
 * Whose a room may be, for the new-room form and the edit dialog: built once per list of departments,
 * so that a redraw (a live update of the rooms) hands an open list the same choices and never redraws
 * it under a click.
 */
function useOwnerChoices(departments: readonly { id: number; code: string; name: string }[]): { ownerChoices: Choices; ownerEditChoices: Choices } {
  const ownerChoices = useMemo(() => [{ value: SHARED, label: 'Shared' }, ...departments.map((d) => ({ value: String(d.id), label: d.code }))], [departments]);
  const ownerEditChoices = useMemo(
    () => [{ value: SHARED, label: 'Shared (the campus pool)' }, ...departments.map((d) => ({ value: String(d.id), label: `${d.code} — ${d.name}` }))],
    [departments],
  );
  return { ownerChoices, ownerEditChoices };
}

/**
 * Rooms with their seats and, on a campus of several departments, whose they are (the shared pool,
 * or this department's own). A scheduler adds, uploads and removes their department's rooms; the
 * registrar the pool's too; a viewer reads. Drawn again on its own reads, not on every redraw of the Scheduler.
 */
export const RoomsPanel = memo(function RoomsPanel({ canWrite }: { canWrite: boolean }) {
  const { departments, isPerson, acting } = useAccount();
  /** Whose a room is, in words: the pool's, the department's on screen, or (to the registrar) another's by its code. */
  const ownerWords = (owner: number | null): string =>
    owner === null ? 'shared' : owner === acting?.id ? "this department's" : `${departments.find((d) => d.id === owner)?.code ?? 'another department'}'s`;
  // A campus (people sign in, or several departments): rooms say whose they are. A laptop's are all its own.
  const severalDepartments = isPerson || departments.length > 1;
  const [editing, setEditing] = useState<RoomEdit | null>(null);
  // Rooms added here, in another window or by a script show on the change event.
  const rooms = useRooms();
  const listed = rooms.data ?? [];
  const windowed = useWindowedRows(listed.length, { maxHeight: LIST_HEIGHT, rowHeight: 30 });
  const { ownerChoices, ownerEditChoices } = useOwnerChoices(departments);
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
      {canWrite && <NewRoomForm campuses={campuses} ownerChoices={ownerChoices} ownerWords={ownerWords} act={act} />}
      <ErrorNote message={error ?? rooms.error} />
      <WindowBox box={windowed.box} maxHeight={LIST_HEIGHT} label="Rooms">
        <Table fz="xs">
          <Table.Tbody>
            <WindowedTableRows
              rows={listed}
              windowed={windowed}
              columns={severalDepartments ? 5 : 4}
              row={(r, at) => (
                <Table.Tr key={r.name} data-index={at.index} ref={windowed.measure}>
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
                  {severalDepartments && <Table.Td>{ownerWords(r.department_id)}</Table.Td>}
                  <Table.Td>{canWrite && <RoomActions room={r} onEdit={setEditing} act={act} />}</Table.Td>
                </Table.Tr>
              )}
            />
          </Table.Tbody>
        </Table>
      </WindowBox>
      <RoomEditDialog editing={editing} onChange={setEditing} campuses={campuses} ownerChoices={ownerEditChoices} error={error} act={act} />
    </Card>
  );
});
