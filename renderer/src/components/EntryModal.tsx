import { useEffect, useMemo, useState } from 'react';
import { Button, Group, Modal, MultiSelect, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useTermHistory } from '../controllers/history';
import { ChangeList } from './HistoryPanel';
import { messageOf } from '../api/errors';
import type { Course, Doctor, Entry, PartOfTerm, Term } from '../api/wire';
import { createEntry, removeEntry, updateEntry } from '../controllers/timetable';
import { useCampusList } from '../controllers/catalog';
import { ErrorNote } from './ErrorNote';
import { doctorMayTeach } from '../../../core/domain/teaching';
import { nextSectionNames } from '../../../core/domain/sections';
import { TBD_ROOM } from '../../../core/domain/meetings';
import { NO_INSTRUCTOR } from '../lib/resource-rows';
import type { EntryDraft } from '../lib/entry-draft';

export interface EntryModalProps {
  draft: EntryDraft | null;
  /** The term on screen, where a new section goes, and its parts. */
  term: Term | null;
  parts: PartOfTerm[];
  courses: Course[];
  doctors: Doctor[];
  recommended: string[];
  entries: Entry[];
  /** Shown to a reader who may not write (a viewer): every field read-only, nothing to save or delete. */
  readOnly?: boolean;
  onClose: () => void;
}

/** What a save sends: the form's values, the room TBD when empty, the campus only when an edit changed it. */
function entryValues(form: EntryDraft, draft: EntryDraft | null) {
  return {
    course_code: form.course_code,
    section_name: form.section_name,
    doctors: form.instructor_ids.map((id) => ({ id })),
    day: form.day,
    start_time: form.start_time,
    duration_mins: form.duration_mins,
    room: form.room || TBD_ROOM,
    part_of_term: form.part_of_term,
    joint_group: form.joint_group.trim() || null,
    // An edit sends the campus only when it was changed: otherwise a new room's campus decides.
    campus: form.id && form.campus === draft?.campus ? undefined : form.campus,
  };
}

/** The entry form's state and actions: the course choices (the run's recommendations first), naming a new section, save and delete. */
function useEntryForm({
  draft,
  term,
  courses,
  doctors,
  recommended,
  entries,
  onClose,
}: Pick<EntryModalProps, 'draft' | 'term' | 'courses' | 'doctors' | 'recommended' | 'entries' | 'onClose'>) {
  const [form, setForm] = useState<EntryDraft | null>(draft);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setForm(draft);
    setError(null);
  }, [draft]);

  const courseOptions = useMemo(() => {
    const rec = new Set(recommended);
    const item = (c: Course): { value: string; label: string } => ({ value: c.code, label: `${c.code} — ${c.name}` });
    const first = courses.filter((c) => rec.has(c.code));
    const rest = courses.filter((c) => !rec.has(c.code));
    return [
      ...(first.length ? [{ group: 'Recommended in the latest run', items: first.map(item) }] : []),
      { group: first.length ? 'Other courses' : 'Catalog', items: rest.map(item) },
    ];
  }, [courses, recommended]);

  if (!form) return null;
  const allowedDoctors = doctors.filter((d) => !form.course_code || doctorMayTeach(d, form.course_code));
  const set = (patch: Partial<EntryDraft>): void => setForm({ ...form, ...patch });
  const chooseCourse = (code: string | null): void => {
    const course = code ?? '';
    const stillAllowed = form.instructor_ids.filter((id) => doctors.some((d) => d.id === id && doctorMayTeach(d, course)));
    set({
      course_code: course,
      section_name: form.id
        ? form.section_name
        : (nextSectionNames(
            entries.filter((e) => e.course_code === course).map((e) => e.section_name),
            1,
          )[0] ?? '1'),
      instructor_ids: stillAllowed,
    });
  };

  const save = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      const values = entryValues(form, draft);
      if (form.id) await updateEntry({ entry_id: form.id, ...values });
      else if (term) await createEntry(term, values);
      onClose();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  const del = async (): Promise<void> => {
    if (!form.id) return;
    try {
      await removeEntry(form.id);
      onClose();
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return { form, set, courseOptions, allowedDoctors, chooseCourse, save, del, error, busy };
}

type SetEntry = (patch: Partial<EntryDraft>) => void;

/** When and where a meeting is: its days, start, minutes and room. */
function WhenFields({ form, set }: { form: EntryDraft; set: SetEntry }) {
  return (
    <Group grow>
      <TextInput
        label="Days"
        description="M Mon · T Tue · W Wed · R Thu · F Fri · S Sat · U Sun"
        value={form.day}
        onChange={(e) => set({ day: e.currentTarget.value.toUpperCase() })}
        data-testid="entry-day"
      />
      <TextInput
        label="Start"
        description="24-hour HH:MM"
        value={form.start_time}
        onChange={(e) => set({ start_time: e.currentTarget.value })}
        data-testid="entry-start"
      />
      <NumberInput
        label="Minutes"
        description="The booked slot"
        min={5}
        max={600}
        // Typing past the bounds is stopped as typed, never rewritten on leaving the field.
        clampBehavior="strict"
        allowDecimal={false}
        value={form.duration_mins}
        onChange={(v) => set({ duration_mins: Number(v) || 0 })}
        data-testid="entry-duration"
      />
      <TextInput
        label="Room"
        description="Empty: TBD, no room yet"
        value={form.room}
        onChange={(e) => set({ room: e.currentTarget.value })}
        data-testid="entry-room"
      />
    </Group>
  );
}

/** The meeting's part of term, joint group and campus. */
function PartAndCampusFields({ form, set, parts }: { form: EntryDraft; set: SetEntry; parts: PartOfTerm[] }) {
  const campuses = useCampusList();
  return (
    <Group grow>
      <Select
        label="Part of term"
        data={parts.map((p) => ({
          value: p.code,
          label: p.start_date ? `${p.code} — ${p.name} (${p.start_date} – ${p.end_date ?? ''})` : `${p.code} — ${p.name}`,
        }))}
        value={form.part_of_term}
        onChange={(v) => set({ part_of_term: v ?? '1' })}
        allowDeselect={false}
        data-testid="entry-part"
      />
      <TextInput
        label="Joint group"
        placeholder="none"
        description="Sections that meet together share a label"
        value={form.joint_group}
        onChange={(e) => set({ joint_group: e.currentTarget.value })}
        data-testid="entry-joint"
      />
      <Select
        label="Campus"
        description="From the room when it is declared"
        data={campuses}
        value={form.campus}
        onChange={(v) => set({ campus: v })}
        clearable
        allowDeselect={false}
        data-testid="entry-campus"
      />
    </Group>
  );
}

/** Close for a reader; Delete (an existing meeting), Cancel and Save for a writer. */
function EntryButtons({
  readOnly,
  editing,
  canSave,
  busy,
  onSave,
  onDelete,
  onClose,
}: {
  readOnly: boolean;
  editing: boolean;
  canSave: boolean;
  busy: boolean;
  onSave: () => Promise<void>;
  onDelete: () => Promise<void>;
  onClose: () => void;
}) {
  return readOnly ? (
    <Group justify="flex-end">
      <Button variant="default" onClick={onClose}>
        Close
      </Button>
    </Group>
  ) : (
    <Group justify="space-between">
      {editing ? (
        <Button color="red" variant="subtle" onClick={() => void onDelete()} data-testid="entry-delete">
          Delete
        </Button>
      ) : (
        <span />
      )}
      <Group>
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={() => void onSave()} loading={busy} disabled={!canSave} data-testid="entry-save">
          Save
        </Button>
      </Group>
    </Group>
  );
}

/** Create or edit one timetable entry; the server's refusal is shown in its own words. */
export function EntryModal({ draft, term, parts, courses, doctors, recommended, entries, readOnly = false, onClose }: EntryModalProps) {
  const entry = useEntryForm({ draft, term, courses, doctors, recommended, entries, onClose });
  if (!entry) return null;
  const { form, set, courseOptions, allowedDoctors, chooseCourse, save, del, error, busy } = entry;
  const uid = form.id === undefined ? undefined : entries.find((e) => e.id === form.id)?.uid;
  return (
    <Modal opened onClose={onClose} title={readOnly ? 'Section' : form.id ? 'Edit section' : 'New section'} size="lg">
      <Stack gap="xs" data-testid="entry-form">
        {/* A fieldset disabled makes every field in it read-only at once. */}
        <fieldset disabled={readOnly} className="tw-plain-fieldset">
          <Stack gap="xs">
            <Select
              label="Course"
              searchable
              data={courseOptions}
              value={form.course_code || null}
              onChange={chooseCourse}
              nothingFoundMessage="No such course"
              data-testid="entry-course"
            />
            <Group grow>
              <TextInput label="Section" value={form.section_name} onChange={(e) => set({ section_name: e.currentTarget.value })} data-testid="entry-section" />
              <MultiSelect
                label="Instructors (first is the lead)"
                placeholder={form.instructor_ids.length ? undefined : NO_INSTRUCTOR}
                data={[...new Set([...allowedDoctors, ...doctors.filter((d) => form.instructor_ids.includes(d.id))])].map((d) => ({
                  value: String(d.id),
                  label: `${d.name}${d.available_days ? ` (${d.available_days} ${d.available_time ?? ''})` : ''}`,
                }))}
                value={form.instructor_ids.map(String)}
                onChange={(v) => set({ instructor_ids: v.map(Number) })}
                searchable
                clearable
                data-testid="entry-doctor"
              />
            </Group>
            <WhenFields form={form} set={set} />
            <PartAndCampusFields form={form} set={set} parts={parts} />
          </Stack>
        </fieldset>
        <ErrorNote message={error} testId="entry-error" />
        <EntryButtons
          readOnly={readOnly}
          editing={Boolean(form.id)}
          canSave={Boolean(form.course_code && form.section_name)}
          busy={busy}
          onSave={save}
          onDelete={del}
          onClose={onClose}
        />
        {term && uid && <MeetingHistory term={term} uid={uid} />}
      </Stack>
    </Modal>
  );
}

/** A meeting's own history, below its form: who changed it, when, and from what. */
function MeetingHistory({ term, uid }: { term: Term; uid: string }) {
  const history = useTermHistory(term, { meeting_uid: uid });
  return (
    <Stack gap={4} data-testid="entry-history">
      <Text size="sm" fw={600}>
        History of this meeting
      </Text>
      <ChangeList changes={history.changes} canUndo={false} testId="entry-history" maxHeight={160} label="Changes to this meeting" />
    </Stack>
  );
}
