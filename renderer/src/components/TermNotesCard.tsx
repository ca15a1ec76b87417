import { useState } from 'react';
import { ActionIcon, Button, Card, Group, List, Select, Stack, Text, TextInput } from '@mantine/core';
import { describeNote, MAX_NOTE_REASON, TERM_NOTE_KINDS, TERM_NOTE_LABELS, type TermNoteKind } from '../../../core/domain/term-notes';
import { addTermNote, removeTermNote, useTermNotes } from '../controllers/predictions';
import { ApiError } from '../api/errors';
import { notifyError } from '../lib/notify';
import { useCourses, useDoctors } from '../controllers/catalog';
import { useRole } from '../controllers/session';
import type { PlannedSemester } from '../../../core/domain/terms';

type TermNote = ReturnType<typeof useTermNotes>[number];

/**
 * What staff know of the target term that the history cannot tell: instructors away, courses newly
 * approved or retired. The term's runs take them into account, each with a reason in words.
 */
export function TermNotesCard({ year, semester }: { year: number | null; semester: PlannedSemester }) {
  // A viewer reads the notes; adding and removing them is for the schedulers.
  const { canWrite } = useRole();
  // Notes added here or elsewhere (a script, another window) show on the change event.
  const notes = useTermNotes(year === null ? null : { year, semester });
  if (year === null) return null;
  return (
    <Card withBorder data-testid="term-notes">
      <Stack gap="xs">
        <Text fw={600}>
          What you know of {semester} {year}
        </Text>
        {notes.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing recorded: instructors on leave, newly approved or retired courses change this term&apos;s recommendations.
          </Text>
        ) : (
          <TermNotesList notes={notes} canRemove={canWrite} />
        )}
        {canWrite && <NewTermNoteForm year={year} semester={semester} />}
      </Stack>
    </Card>
  );
}

/** The term's notes in words, each with a way to remove it for those who may. */
function TermNotesList({ notes, canRemove }: { notes: readonly TermNote[]; canRemove: boolean }) {
  const remove = async (id: number): Promise<void> => {
    try {
      await removeTermNote(id);
    } catch (e) {
      notifyError(e, 'The note was not removed');
    }
  };
  return (
    <List size="sm" spacing={2}>
      {notes.map((n) => (
        <List.Item key={n.id}>
          <Group gap={4} wrap="nowrap">
            <span data-testid="term-note">{describeNote(n)}</span>
            {canRemove && (
              <ActionIcon size="sm" variant="subtle" color="red" onClick={() => void remove(n.id)} aria-label={`Remove: ${describeNote(n)}`}>
                ×
              </ActionIcon>
            )}
          </Group>
        </List.Item>
      ))}
    </List>
  );
}

/** A new note: its kind, the instructor or course it is about, and a reason; refused in words when incomplete. */
function NewTermNoteForm({ year, semester }: { year: number; semester: PlannedSemester }) {
  const courses = useCourses();
  const doctors = useDoctors();
  const [kind, setKind] = useState<TermNoteKind>('instructor_away');
  const [subject, setSubject] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const options =
    kind === 'instructor_away'
      ? doctors.map((d) => ({ value: String(d.id), label: d.name }))
      : courses.map((c) => ({ value: c.code, label: `${c.code} — ${c.name}` }));
  const add = async (): Promise<void> => {
    setProblem(null);
    if (subject === null) {
      setProblem(kind === 'instructor_away' ? 'Choose the instructor.' : 'Choose the course.');
      return;
    }
    try {
      await addTermNote({
        year,
        semester,
        kind,
        ...(kind === 'instructor_away' ? { doctor_id: Number(subject) } : { course_code: subject }),
        ...(reason.trim() ? { reason } : {}),
      });
      setSubject(null);
      setReason('');
    } catch (e) {
      if (e instanceof ApiError) setProblem(e.message);
      else notifyError(e, 'The note was not saved');
    }
  };
  return (
    <>
      <Select
        size="xs"
        label="Note"
        data={TERM_NOTE_KINDS.map((k) => ({ value: k, label: TERM_NOTE_LABELS[k] }))}
        value={kind}
        onChange={(v) => {
          setKind(v ?? 'instructor_away');
          setSubject(null);
        }}
        allowDeselect={false}
        data-testid="term-note-kind"
      />
      <Select
        size="xs"
        label={kind === 'instructor_away' ? 'Instructor' : 'Course'}
        searchable
        data={options}
        value={subject}
        onChange={setSubject}
        limit={50}
        data-testid="term-note-subject"
      />
      <TextInput
        size="xs"
        label="Reason"
        placeholder="e.g. sabbatical"
        maxLength={MAX_NOTE_REASON}
        value={reason}
        onChange={(e) => setReason(e.currentTarget.value)}
        data-testid="term-note-reason"
      />
      {problem && (
        <Text size="xs" c="red" role="alert">
          {problem}
        </Text>
      )}
      <Button size="xs" variant="default" onClick={() => void add()} data-testid="term-note-add">
        Add note
      </Button>
    </>
  );
}
