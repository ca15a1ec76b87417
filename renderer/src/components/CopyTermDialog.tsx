import { useEffect, useState } from 'react';
import { Button, Checkbox, Group, Modal, ScrollArea, Stack, Table, Text } from '@mantine/core';
import type { Result } from '../api/client';
import { copyTimetable } from '../controllers/timetable';
import { messageOf } from '../api/errors';
import { termLabel, type Term } from '../../../core/domain/terms';
import { ErrorNote } from './ErrorNote';
import { TermPicker } from './TermPicker';

type CopyResult = Result<'schedule-terms-copy'>;

/** "Copy from term…": rolls another term's timetable into the one on screen, then says what stayed behind and why. */
export function CopyTermDialog({ opened, target, onClose }: { opened: boolean; target: Term; onClose: () => void }) {
  // Next Fall usually starts from last Fall's timetable.
  const [from, setFrom] = useState<Term>({ year: target.year - 1, semester: target.semester });
  const [keepInstructors, setKeepInstructors] = useState(true);
  const [keepRooms, setKeepRooms] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<CopyResult | null>(null);
  useEffect(() => {
    if (!opened) return;
    setFrom({ year: target.year - 1, semester: target.semester });
    setResult(null);
    setError(null);
  }, [opened, target.year, target.semester]);

  const copy = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      setResult(await copyTimetable({ from, to: target, keep_instructors: keepInstructors, keep_rooms: keepRooms }));
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={`Copy a timetable into ${termLabel(target)}`} size="lg">
      <Stack gap="xs" data-testid="copy-term">
        <TermPicker label="From" value={from} onChange={setFrom} testId="copy-from" />
        <Checkbox label="Keep instructors" checked={keepInstructors} onChange={(e) => setKeepInstructors(e.currentTarget.checked)} />
        <Checkbox label="Keep rooms" checked={keepRooms} onChange={(e) => setKeepRooms(e.currentTarget.checked)} />
        <Text size="xs" c="dimmed">
          Every meeting is checked as if entered by hand; those that clash in {termLabel(target)} stay behind, with the reason.
        </Text>
        <ErrorNote message={error} />
        {result && (
          <Stack gap={4} data-testid="copy-result">
            <Text size="sm">
              Copied {result.copied.length} meeting{result.copied.length === 1 ? '' : 's'}; {result.not_copied.length} not copied.
            </Text>
            {result.not_copied.length > 0 && (
              <ScrollArea h={200}>
                <Table fz="xs">
                  <Table.Tbody>
                    {result.not_copied.map((n) => (
                      <Table.Tr key={n.entry_id}>
                        <Table.Td>
                          {n.course_code} §{n.section_name}
                        </Table.Td>
                        <Table.Td>{n.reason}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollArea>
            )}
          </Stack>
        )}
        <Group justify="end">
          <Button variant="default" onClick={onClose}>
            {result ? 'Close' : 'Cancel'}
          </Button>
          {!result && (
            <Button onClick={() => void copy()} loading={busy} disabled={from.year === target.year && from.semester === target.semester} data-testid="copy-run">
              Copy
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
