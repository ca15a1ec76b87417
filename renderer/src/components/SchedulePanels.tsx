import { memo, useMemo, type KeyboardEvent } from 'react';
import { Badge, Card, Modal, Table, Text } from '@mantine/core';
import type { Doctor, Entry } from '../api/wire';
import { colourOf } from '../lib/week';
import { instructorsOf } from '../lib/resource-rows';
import { useWindowedRows, WindowBox, WindowedTableRows } from './WindowedRows';

/** The panels' lists scroll within this height. */
const LIST_HEIGHT = 320;

/** The sections with warnings, curriculum conflicts first: they are the clashes students feel. Drawn again when the entries change. */
export const WarningsPanel = memo(function WarningsPanel({ entries }: { entries: readonly Entry[] }) {
  const warned = entries
    .filter((e) => e.warnings.length > 0)
    .sort((a, b) => Number(b.curriculum_conflicts.length > 0) - Number(a.curriculum_conflicts.length > 0));
  const curriculumCount = entries.filter((e) => e.curriculum_conflicts.length > 0).length;
  const windowed = useWindowedRows(warned.length, { maxHeight: LIST_HEIGHT, rowHeight: 40 });
  return (
    <Card withBorder>
      <Text fw={600} mb="xs">
        Entries with warnings ({warned.length})
        {curriculumCount > 0 && (
          <Badge color="red" variant="light" ml="xs" data-testid="curriculum-count">
            {curriculumCount} in curriculum conflicts
          </Badge>
        )}
      </Text>
      {warned.length === 0 && (
        <Text size="sm" c="dimmed">
          No warnings.
        </Text>
      )}
      <WindowBox box={windowed.box} maxHeight={LIST_HEIGHT} label="Entries with warnings">
        <Table fz="xs" data-testid="warnings-list">
          <Table.Tbody>
            <WindowedTableRows
              rows={warned}
              windowed={windowed}
              columns={2}
              row={(e, at) => (
                <Table.Tr key={e.id} data-curriculum={e.curriculum_conflicts.length > 0 || undefined} data-index={at.index} ref={windowed.measure}>
                  <Table.Td>
                    {e.course_code} §{e.section_name}
                    {e.curriculum_conflicts.length > 0 && (
                      <Text c="red" size="xs" fw={600}>
                        curriculum
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{e.warnings.join('; ')}</Table.Td>
                </Table.Tr>
              )}
            />
          </Table.Tbody>
        </Table>
      </WindowBox>
    </Card>
  );
});

/** Every instructor with availability and load; a click shows only their sections. */
export const DoctorsPanel = memo(function DoctorsPanel({
  doctors,
  entries,
  onPick,
}: {
  doctors: readonly Doctor[];
  entries: readonly Entry[];
  onPick: (doctorId: number) => void;
}) {
  // Each instructor's sections counted in one pass over the term (not one pass per instructor).
  const load = useMemo(() => {
    const counts = new Map<number, number>();
    for (const e of entries) for (const t of e.doctors) counts.set(t.id, (counts.get(t.id) ?? 0) + 1);
    return counts;
  }, [entries]);
  const windowed = useWindowedRows(doctors.length, { maxHeight: LIST_HEIGHT, rowHeight: 30 });
  return (
    <Card withBorder>
      <Text fw={600} mb="xs">
        Doctors ({doctors.length})
      </Text>
      <WindowBox box={windowed.box} maxHeight={LIST_HEIGHT} label="Doctors">
        <Table fz="xs">
          <Table.Tbody>
            <WindowedTableRows
              rows={doctors}
              windowed={windowed}
              columns={3}
              row={(d, at) => (
                <Table.Tr key={d.id} onClick={() => onPick(d.id)} style={{ cursor: 'pointer' }} data-index={at.index} ref={windowed.measure}>
                  <Table.Td>
                    <Badge color={colourOf(d.id)} variant="filled" size="xs" mr={6} />
                    {d.name}
                  </Table.Td>
                  <Table.Td>
                    {d.available_days ?? 'any day'} {d.available_time ?? 'any time'}
                  </Table.Td>
                  <Table.Td>{load.get(d.id) ?? 0} sections</Table.Td>
                </Table.Tr>
              )}
            />
          </Table.Tbody>
        </Table>
      </WindowBox>
    </Card>
  );
});

/**
 * The sections a crowded or joint block stands for; choosing one opens it. Every row is reached
 * with Tab or the arrow keys and opened with Enter; Escape closes the list and gives the focus back
 * to the block it came from.
 */
export function SectionsListModal({ listed, onClose, onChoose }: { listed: readonly Entry[] | null; onClose: () => void; onChoose: (entry: Entry) => void }) {
  const onKey = (event: KeyboardEvent<HTMLTableRowElement>, entry: Entry): void => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onChoose(entry);
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const row = event.key === 'ArrowDown' ? event.currentTarget.nextElementSibling : event.currentTarget.previousElementSibling;
      if (row instanceof HTMLElement) row.focus();
    }
  };
  return (
    <Modal opened={listed !== null} onClose={onClose} title="Sections at this time" returnFocus>
      <Table fz="sm" highlightOnHover aria-label="Sections at this time" data-testid="sections-list">
        <Table.Tbody>
          {(listed ?? []).map((e, i) => (
            <Table.Tr
              key={e.id}
              tabIndex={0}
              data-autofocus={i === 0 ? true : undefined}
              aria-label={`${e.course_code} §${e.section_name}, ${e.day} ${e.start_time}, ${e.room}, ${instructorsOf(e)}. Press Enter to open.`}
              className="tw-list-row"
              style={{ cursor: 'pointer' }}
              onClick={() => onChoose(e)}
              onKeyDown={(event) => onKey(event, e)}
              data-testid="sections-list-row"
            >
              <Table.Td>
                {e.course_code} §{e.section_name}
              </Table.Td>
              <Table.Td>
                {e.day} {e.start_time}
              </Table.Td>
              <Table.Td>{instructorsOf(e)}</Table.Td>
              <Table.Td>{e.joint_group ?? ''}</Table.Td>
              <Table.Td>{e.room}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}
