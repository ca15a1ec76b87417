import { memo } from 'react';
import { Badge, Card, Group, Table, Text } from '@mantine/core';
import { useUntimedSections } from '../controllers/timetable';
import type { Term } from '../api/wire';
import { termKey } from '../../../core/domain/terms';
import { displayRoom } from '../../../core/domain/meetings';
import { ErrorNote } from './ErrorNote';
import { useWindowedRows, WindowBox, WindowedTableRows } from './WindowedRows';

const LIST_HEIGHT = 220;

/**
 * The term's sections without a time (a registrar's online or arranged rows): listed beside the
 * week, each with its instructors, part of term and the room it lists; Auto-fill can give them a time.
 * Drawn again only when its term changes (or its own read), not on every redraw of the Scheduler.
 */
export const UntimedSectionsPanel = memo(TermUntimedSectionsPanel, (a, b) => termKey(a.term) === termKey(b.term));

function TermUntimedSectionsPanel({ term }: { term: Term }) {
  const listed = useUntimedSections(term);
  const sections = listed.data ?? [];
  const windowed = useWindowedRows(sections.length, { maxHeight: LIST_HEIGHT, rowHeight: 22 });
  if (sections.length === 0 && !listed.error) return null;
  return (
    <Card withBorder data-testid="unscheduled-panel" className="tw-no-print">
      <Group justify="space-between" mb="xs">
        <Text fw={600}>Sections without a time ({sections.length})</Text>
        <Text size="xs" c="dimmed">
          Auto-fill → “sections without a time” gives each a standard time
        </Text>
      </Group>
      <ErrorNote message={listed.error} />
      <WindowBox box={windowed.box} maxHeight={LIST_HEIGHT} label="Sections without a time">
        <Table verticalSpacing={2} fz="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Section</Table.Th>
              <Table.Th>Kind</Table.Th>
              <Table.Th>Instructors</Table.Th>
              <Table.Th>Part of term</Table.Th>
              <Table.Th>Room</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <WindowedTableRows
              rows={sections}
              windowed={windowed}
              columns={5}
              row={(s, at) => (
                <Table.Tr key={s.id} data-testid="unscheduled-row" data-index={at.index} ref={windowed.measure}>
                  <Table.Td>
                    {s.course_code} §{s.section_name}
                    {s.joint_group !== null && (
                      <Badge size="xs" variant="light" ml={4}>
                        {s.joint_group}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{s.kind ?? '—'}</Table.Td>
                  <Table.Td>{s.doctors.map((d) => d.name).join(', ') || 'Unassigned'}</Table.Td>
                  <Table.Td>{s.part_of_term}</Table.Td>
                  <Table.Td>{displayRoom(s.room)}</Table.Td>
                </Table.Tr>
              )}
            />
          </Table.Tbody>
        </Table>
      </WindowBox>
    </Card>
  );
}
