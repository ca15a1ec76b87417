import type { ReactNode } from 'react';
import { Badge, ScrollArea, Select, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import type { Result } from '../api/client';
import { INSTRUCTOR_ROLES, type InstructorRole } from '../../../core/domain/roles';

type ImportResult = Result<'schedule-import'>;

export const plural = (n: number, word: string, words = `${word}s`): string => `${n.toLocaleString()} ${n === 1 ? word : words}`;
const ROLE_WORDS: Record<InstructorRole, string> = { teaches: 'Teaches (checked)', coordinates: 'Coordinates (not checked)', assists: 'Assists (not checked)' };

/** What was (or would be) stored, and the notes the import has for staff. */
function Counts({ result }: { result: ImportResult }) {
  return (
    <>
      <Text size="sm" fw={600} data-testid="import-timetable-counts">
        {result.dry_run ? 'Would store' : 'Stored'} {plural(result.meetings, 'meeting')} of {plural(result.sections, 'section')} from{' '}
        {plural(result.processed, 'row')}
        {result.merged > 0 ? ` (${plural(result.merged, 'repeated row')} merged)` : ''}; {plural(result.totals.conflicts, 'clash', 'clashes')}
        {result.totals.conflicts > 0 ? (result.dry_run ? ' to look at' : ' listed') : ''}
        {result.totals.conflicts > result.conflicts.length ? ` (the first ${result.conflicts.length} shown)` : ''}.
      </Text>
      {result.untimed > 0 && (
        <Text size="xs" data-testid="import-untimed">
          {result.dry_run ? 'Would keep' : 'Kept'} {plural(result.untimed, 'section')} without a time (online or arranged): listed under the week, Auto-fill can
          give them a time.
        </Text>
      )}
      {result.notes.map((note) => (
        <Text key={note} size="xs" c="orange">
          {note}
        </Text>
      ))}
    </>
  );
}

/** Rows that gave no meeting, by reason, and what the import creates. */
function SkippedAndCreated({ result }: { result: ImportResult }) {
  const skipped = Object.entries(result.skipped);
  const created = Object.entries(result.created).filter(([, items]) => items.length > 0);
  return (
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
  );
}

/** A small table of the summary, scrolled past its height (Mantine draws it from its data). */
function SummaryTable({ testId, height, caption, head, body }: { testId: string; height: number; caption?: string; head: string[]; body: ReactNode[][] }) {
  return (
    <ScrollArea.Autosize mah={height}>
      <Table fz="xs" data-testid={testId} data={{ caption, head, body }} />
    </ScrollArea.Autosize>
  );
}

/** Sections listed apart that meet together, and the rule that found each group. */
function JointGroups({ result }: { result: ImportResult }) {
  return (
    <SummaryTable
      testId="import-joint-groups"
      height={160}
      caption={`${plural(result.totals.joint_groups, 'joint group')} found: sections listed apart that meet together, stored as one group`}
      head={['Joint group', 'Sections', 'Why']}
      body={result.joint_groups.map((g) => [g.label, g.members.join(', '), g.rule])}
    />
  );
}

/** Rows repeating a meeting, merged into it. */
function MergedRows({ result }: { result: ImportResult }) {
  return (
    <Text size="xs" data-testid="import-merged-rows">
      <b>{plural(result.totals.merged_rows, 'row')} merged</b> into the meeting they repeat:{' '}
      {result.merged_rows
        .slice(0, 12)
        .map((m) => `row ${m.row} into row ${m.into} (${m.course_code} §${m.section_name}, ${m.days})`)
        .join('; ')}
      {result.merged_rows.length > 12 ? '; …' : ''}
    </Text>
  );
}

/** Each instructor's proposed role, to decide before applying (or as applied). */
function Roles({
  result,
  roles,
  onDecide,
}: {
  result: ImportResult;
  roles: Record<string, InstructorRole>;
  onDecide: ((instructor: string, role: InstructorRole) => void) | null;
}) {
  const roleOf = (r: ImportResult['roles'][number]): ReactNode =>
    onDecide ? (
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
    );
  return (
    <SummaryTable
      testId="import-roles"
      height={180}
      head={['Instructor', 'Role', 'Why']}
      body={result.roles.map((r) => [r.instructor, roleOf(r), `${r.reason}: ${r.sections.join(', ')}`])}
    />
  );
}

/** Each meeting refused (or stored flagged), with the rows or stored entries it clashes with. */
function Conflicts({ result }: { result: ImportResult }) {
  const others = (c: ImportResult['conflicts'][number]): string =>
    c.with.map((w) => `${w.row !== null ? `row ${w.row}` : 'stored'}: ${w.course_code} §${w.section_name}`).join('; ') || 'the instructor’s hours';
  return (
    <SummaryTable
      testId="import-conflicts"
      height={220}
      head={['Row', 'Section', 'Clashes with', 'Clash']}
      body={result.conflicts.map((c) => [c.row, `${c.course_code} §${c.section_name}`, others(c), c.detail])}
    />
  );
}

/** Curriculum conflicts the imported terms will hold. */
function CurriculumConflicts({ result }: { result: ImportResult }) {
  return (
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
  );
}

/** A listing's import as previewed or applied: counts, skipped and created, joint groups, merged rows, roles, clashes and curriculum conflicts. */
export function ImportSummary({
  result,
  roles,
  onDecide,
}: {
  result: ImportResult;
  roles: Record<string, InstructorRole>;
  onDecide: ((instructor: string, role: InstructorRole) => void) | null;
}) {
  return (
    <Stack gap="xs" data-testid="import-timetable-summary">
      <Counts result={result} />
      <SkippedAndCreated result={result} />
      {result.joint_groups.length > 0 && <JointGroups result={result} />}
      {result.merged_rows.length > 0 && <MergedRows result={result} />}
      {result.roles.length > 0 && <Roles result={result} roles={roles} onDecide={onDecide} />}
      {result.conflicts.length > 0 && <Conflicts result={result} />}
      {result.curriculum_conflicts.length > 0 && <CurriculumConflicts result={result} />}
    </Stack>
  );
}
