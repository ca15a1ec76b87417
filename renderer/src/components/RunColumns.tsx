import { useMemo } from 'react';
import { Badge, Group, Text, Tooltip } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import type { Run, RunEntry } from '../api/wire';
import { SCORE_HINT } from '../lib/model-words';

/** The columns of a run's grid: rank, course, the plan's decision (staff's marked), score, enrollment with its range, sections. */
export function useRunColumns(current: Run | null): ColumnDef<RunEntry, unknown>[] {
  return useMemo<ColumnDef<RunEntry, unknown>[]>(
    () => [
      { id: 'rank', header: '#', size: 45, accessorFn: (e) => (current?.entries.indexOf(e) ?? 0) + 1 },
      { accessorKey: 'course_code', header: 'Code', size: 90 },
      { accessorKey: 'course_name', header: 'Name', size: 180, cell: (c) => <span title={c.row.original.course_name}>{c.row.original.course_name}</span> },
      {
        id: 'offer',
        header: 'Decision',
        size: 110,
        accessorFn: (e) => (e.planned_offer ? 'Offer' : 'Skip'),
        cell: (c) => <DecisionCell entry={c.row.original} />,
      },
      { accessorKey: 'offer_score', header: () => <ScoreHeader />, size: 125, cell: (c) => <ScoreCell score={c.row.original.offer_score} /> },
      { accessorKey: 'predicted_enrollment', header: 'Enrollment', size: 120, cell: (c) => <EnrollmentCell entry={c.row.original} /> },
      { accessorKey: 'planned_sections', header: 'Sections', size: 80, cell: (c) => <SectionsCell entry={c.row.original} /> },
    ],
    [current],
  );
}

/** The plan's decision on a course, marked "yours" where staff decided, with who decided and why on hover. */
function DecisionCell({ entry: e }: { entry: RunEntry }) {
  const byStaff = e.staff_decision !== null;
  const title = byStaff ? `Your decision${e.staff_reason ? `: ${e.staff_reason}` : ''}. The model said ${e.offer ? 'offer' : 'skip'}.` : "The model's decision";
  return (
    <Text
      span
      size="sm"
      fw={600}
      c={e.planned_offer ? undefined : 'dimmed'}
      className={e.planned_offer ? 'tw-offer' : undefined}
      title={title}
      data-testid="decision"
    >
      {e.planned_offer ? '✓ Offer' : '– Skip'}
      {byStaff && (
        <Badge size="xs" variant="outline" ml={4} data-testid="decided-by-staff">
          yours
        </Badge>
      )}
    </Text>
  );
}

/** The score's header, whose hint shows on hover, on keyboard focus and on touch, not on hover alone. */
function ScoreHeader() {
  return (
    <Tooltip label={SCORE_HINT} multiline w={300} events={{ hover: true, focus: true, touch: true }}>
      <span tabIndex={0} aria-label={`Score (0–100): ${SCORE_HINT}`}>
        Score (0–100) ⓘ
      </span>
    </Tooltip>
  );
}

/** A course's score as a bar and its number. */
function ScoreCell({ score }: { score: number }) {
  return (
    <Group gap={6} wrap="nowrap">
      <div className="tw-scorebar" style={{ width: `${Math.max(2, score * 0.7)}px` }} />
      <Text size="xs" title={SCORE_HINT}>
        {score.toFixed(0)}
      </Text>
    </Group>
  );
}

/** The expected enrollment, with the range it falls in 8 times in 10 where the model gives one. */
function EnrollmentCell({ entry: e }: { entry: RunEntry }) {
  if (e.enrollment_low === null || e.enrollment_high === null) return <>{e.predicted_enrollment}</>;
  return (
    <span
      title={`Expected ${e.predicted_enrollment} students; 8 times in 10 between ${e.enrollment_low} and ${e.enrollment_high}`}
      data-testid="enrollment-range"
    >
      {e.predicted_enrollment}{' '}
      <Text span size="xs" c="dimmed">
        ({e.enrollment_low}–{e.enrollment_high})
      </Text>
    </span>
  );
}

/** The plan's sections, with their seats and, where staff changed them, what the model proposed. */
function SectionsCell({ entry: e }: { entry: RunEntry }) {
  const differs = e.planned_sections !== e.projected_sections;
  return <span title={`Sections of ${e.section_size} seats${differs ? `; the model proposed ${e.projected_sections}` : ''}`}>{e.planned_sections}</span>;
}
