import { useEffect, useState } from 'react';
import { Badge, Button, Checkbox, FileButton, Group, Modal, Radio, ScrollArea, Select, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { call, fileToUpload, type Result } from '../api/client';
import { messageOf } from '../api/errors';
import { termLabel, type Term } from '../../../core/domain/terms';
import { INSTRUCTOR_ROLES, type InstructorRole } from '../../../core/domain/roles';
import { useCampusList } from '../stores/catalog';
import { ErrorNote } from './ErrorNote';

type ImportResult = Result<'schedule-import'>;
type Upload = Awaited<ReturnType<typeof fileToUpload>>;

const plural = (n: number, word: string, words = `${word}s`): string => `${n.toLocaleString()} ${n === 1 ? word : words}`;
const ROLE_WORDS: Record<InstructorRole, string> = { teaches: 'Teaches (checked)', coordinates: 'Coordinates (not checked)', assists: 'Assists (not checked)' };

/**
 * "Import timetable…": a registrar's listing (CSV or XLSX), previewed by a dry run — what will be
 * stored, created, grouped and refused — with the instructor roles and the clash policy to decide,
 * then applied in one go.
 */
export function ImportTimetableDialog({
  opened,
  term,
  onClose,
  onApplied,
}: {
  opened: boolean;
  term: Term;
  onClose: () => void;
  onApplied: (terms: Term[]) => void;
}) {
  const campuses = useCampusList();
  const [file, setFile] = useState<Upload | null>(null);
  const [intoShownTerm, setIntoShownTerm] = useState(false);
  const [campus, setCampus] = useState<string | null>(null);
  const [policy, setPolicy] = useState<'skip' | 'flag'>('skip');
  const [roles, setRoles] = useState<Record<string, InstructorRole>>({});
  const [preview, setPreview] = useState<ImportResult | null>(null);
  const [applied, setApplied] = useState<ImportResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!opened) return;
    setFile(null);
    setPreview(null);
    setApplied(null);
    setError(null);
    setRoles({});
  }, [opened]);

  const run = async (dryRun: boolean, upload = file, decided = roles, conflicts = policy): Promise<void> => {
    if (!upload) return;
    setBusy(true);
    setError(null);
    try {
      const result = await call('schedule-import', {
        file: upload,
        dry_run: dryRun,
        conflicts,
        ...(intoShownTerm ? { year: term.year, semester: term.semester } : {}),
        ...(campus ? { campus } : {}),
        ...(Object.keys(decided).length > 0 ? { roles: JSON.stringify(decided) } : {}),
      });
      if (dryRun) setPreview(result);
      else {
        setApplied(result);
        onApplied(result.terms);
      }
    } catch (e) {
      setError(messageOf(e));
      setPreview(null);
    } finally {
      setBusy(false);
    }
  };
  const choose = async (picked: File | null): Promise<void> => {
    if (!picked) return;
    const upload = await fileToUpload(picked);
    setFile(upload);
    setRoles({});
    await run(true, upload, {});
  };
  const decide = (instructor: string, role: InstructorRole): void => {
    const next = { ...roles, [instructor]: role };
    setRoles(next);
    void run(true, file, next);
  };
  const shown = applied ?? preview;

  return (
    <Modal opened={opened} onClose={onClose} title="Import a timetable" size="xl">
      <Stack gap="sm" data-testid="import-timetable">
        <Text size="sm" c="dimmed">
          A registrar's section listing, one row per meeting (CSV or XLSX). Nothing is stored until you apply the preview.
        </Text>
        <Group>
          <FileButton onChange={(f) => void choose(f)} accept=".csv,.xlsx">
            {(props) => (
              <Button {...props} variant="default" data-testid="import-timetable-pick">
                {file ? `Another file… (${file.filename})` : 'Choose file…'}
              </Button>
            )}
          </FileButton>
          <Checkbox label={`Put every row in ${termLabel(term)}`} checked={intoShownTerm} onChange={(e) => setIntoShownTerm(e.currentTarget.checked)} />
          {campuses.length > 1 && (
            <Select
              placeholder="Rooms' campus (default)"
              clearable
              data={campuses}
              value={campus}
              onChange={setCampus}
              w={200}
              aria-label="Campus of the file's rooms"
            />
          )}
        </Group>
        <Radio.Group
          label="Meetings that still clash"
          value={policy}
          onChange={(value) => {
            const next = value === 'flag' ? 'flag' : 'skip';
            setPolicy(next);
            if (preview && !applied) void run(true, file, roles, next);
          }}
        >
          <Group mt={4}>
            <Radio value="skip" label="Leave them out (listed below)" />
            <Radio value="flag" label="Store them with a warning on both sections" data-testid="import-flag" />
          </Group>
        </Radio.Group>
        <ErrorNote message={error} />
        {shown && <ImportSummary result={shown} roles={roles} onDecide={applied ? null : decide} />}
        <Group justify="end">
          <Button variant="default" onClick={onClose}>
            {applied ? 'Close' : 'Cancel'}
          </Button>
          {!applied && (
            <Button onClick={() => void run(false)} loading={busy} disabled={!preview || preview.meetings === 0} data-testid="import-timetable-apply">
              {preview ? `Apply: store ${plural(preview.meetings, 'meeting')}` : 'Apply'}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

function ImportSummary({
  result,
  roles,
  onDecide,
}: {
  result: ImportResult;
  roles: Record<string, InstructorRole>;
  onDecide: ((instructor: string, role: InstructorRole) => void) | null;
}) {
  const skipped = Object.entries(result.skipped);
  const created = Object.entries(result.created).filter(([, items]) => items.length > 0);
  return (
    <Stack gap="xs" data-testid="import-timetable-summary">
      <Text size="sm" fw={600} data-testid="import-timetable-counts">
        {result.dry_run ? 'Would store' : 'Stored'} {plural(result.meetings, 'meeting')} of {plural(result.sections, 'section')} from{' '}
        {plural(result.processed, 'row')}
        {result.merged > 0 ? ` (${plural(result.merged, 'repeated row')} merged)` : ''}; {plural(result.totals.conflicts, 'clash', 'clashes')}
        {result.totals.conflicts > 0 ? (result.dry_run ? ' to look at' : ' listed') : ''}
        {result.totals.conflicts > result.conflicts.length ? ` (the first ${result.conflicts.length} shown)` : ''}.
      </Text>
      {result.notes.map((note) => (
        <Text key={note} size="xs" c="orange">
          {note}
        </Text>
      ))}
      <SimpleGrid cols={2}>
        {skipped.length > 0 && (
          <Stack gap={2}>
            <Text size="xs" fw={600}>
              Rows without a meeting
            </Text>
            {skipped.map(([reason, count]) => (
              <Text key={reason} size="xs">
                {plural(count, 'row')}: {reason}
              </Text>
            ))}
          </Stack>
        )}
        {created.length > 0 && (
          <Stack gap={2}>
            <Text size="xs" fw={600}>
              New to Termwise
            </Text>
            {created.map(([kind, items]) => (
              <Text key={kind} size="xs" title={items.slice(0, 50).join(', ')}>
                {kind === 'parts_of_term' ? plural(items.length, 'part of term', 'parts of term') : plural(items.length, kind.replace(/s$/, ''))}
              </Text>
            ))}
          </Stack>
        )}
      </SimpleGrid>
      {result.joint_groups.length > 0 && (
        <ScrollArea.Autosize mah={160}>
          <Table fz="xs" data-testid="import-joint-groups">
            <Table.Caption>
              {plural(result.totals.joint_groups, 'joint group')} found: sections listed apart that meet together, stored as one group
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Joint group</Table.Th>
                <Table.Th>Sections</Table.Th>
                <Table.Th>Why</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.joint_groups.map((g) => (
                <Table.Tr key={g.label}>
                  <Table.Td>{g.label}</Table.Td>
                  <Table.Td>{g.members.join(', ')}</Table.Td>
                  <Table.Td>{g.rule}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
      {result.merged_rows.length > 0 && (
        <Text size="xs" data-testid="import-merged-rows">
          <b>{plural(result.totals.merged_rows, 'row')} merged</b> into the meeting they repeat:{' '}
          {result.merged_rows
            .slice(0, 12)
            .map((m) => `row ${m.row} into row ${m.into} (${m.course_code} §${m.section_name}, ${m.days})`)
            .join('; ')}
          {result.merged_rows.length > 12 ? '; …' : ''}
        </Text>
      )}
      {result.roles.length > 0 && (
        <ScrollArea.Autosize mah={180}>
          <Table fz="xs" data-testid="import-roles">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Instructor</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Why</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.roles.map((r) => (
                <Table.Tr key={r.instructor}>
                  <Table.Td>{r.instructor}</Table.Td>
                  <Table.Td>
                    {onDecide ? (
                      <Select
                        size="xs"
                        w={210}
                        data={INSTRUCTOR_ROLES.map((role) => ({ value: role, label: ROLE_WORDS[role] }))}
                        value={roles[r.instructor] ?? r.role}
                        onChange={(v) => v && onDecide(r.instructor, v)}
                        aria-label={`Role of ${r.instructor}`}
                        allowDeselect={false}
                      />
                    ) : (
                      <Badge variant="light">{r.role}</Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    {r.reason}: {r.sections.join(', ')}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
      {result.conflicts.length > 0 && (
        <ScrollArea.Autosize mah={220}>
          <Table fz="xs" data-testid="import-conflicts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Row</Table.Th>
                <Table.Th>Section</Table.Th>
                <Table.Th>Clashes with</Table.Th>
                <Table.Th>Clash</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.conflicts.map((c) => (
                <Table.Tr key={`${c.row}-${c.detail}`}>
                  <Table.Td>{c.row}</Table.Td>
                  <Table.Td>
                    {c.course_code} §{c.section_name}
                  </Table.Td>
                  <Table.Td>{c.with.map((w) => `${w.row !== null ? `row ${w.row}` : 'stored'}: ${w.course_code} §${w.section_name}`).join('; ') || 'the instructor’s hours'}</Table.Td>
                  <Table.Td>{c.detail}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
      {result.curriculum_conflicts.length > 0 && (
        <Stack gap={2} data-testid="import-curriculum-conflicts">
          <Text size="xs" fw={600}>
            {plural(result.curriculum_conflicts.length, 'curriculum conflict')} (stored as warnings: students of one year cannot take both courses)
          </Text>
          <ScrollArea.Autosize mah={140}>
            {result.curriculum_conflicts.map((c) => (
              <Text key={`${c.year}-${c.semester}-${c.campus}-${c.courses.join('-')}`} size="xs">
                {c.detail}
              </Text>
            ))}
          </ScrollArea.Autosize>
        </Stack>
      )}
    </Stack>
  );
}
