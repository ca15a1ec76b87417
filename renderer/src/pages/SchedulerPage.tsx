import { useCallback, useEffect, useMemo, useState } from 'react';
import FullCalendar from '@fullcalendar/react';
import { displayRoom, TBD_ROOM } from '../../../core/domain/meetings';
import { usualMeetingForDay } from '../../../core/domain/days';
import timeGridPlugin from '@fullcalendar/timegrid';
import interactionPlugin from '@fullcalendar/interaction';
import type { DateClickArg } from '@fullcalendar/interaction';
import type { CalendarOptions, DayHeaderMountArg, EventClickArg, EventContentArg, EventDropArg, EventInput, EventMountArg } from '@fullcalendar/core';
import type { EventResizeDoneArg } from '@fullcalendar/interaction';
import { Badge, Button, Card, Group, Modal, ScrollArea, SegmentedControl, Select, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { DAY_NAMES } from '../../../core/domain/days';
import { ResourceWeek } from '../components/ResourceWeek';
import { describeMeeting, NO_INSTRUCTOR, resourceRows, UNASSIGNED_KEY, type ResourceKind } from '../lib/resource-rows';
import { call, transport } from '../api/client';
import { messageOf } from '../api/errors';
import { useData } from '../stores/data';
import { useCampuses } from '../stores/campuses';
import { useSchedule, type Entry } from '../stores/schedule';
import { draftOf, EntryModal, type EntryDraft } from '../components/EntryModal';
import { TermPicker } from '../components/TermPicker';
import { CopyTermDialog } from '../components/CopyTermDialog';
import { ImportTimetableDialog } from '../components/ImportTimetableDialog';
import { PartsDialog } from '../components/PartsDialog';
import { WHOLE_TERM_CODE } from '../../../core/domain/parts';
import { DoctorModal } from '../components/DoctorModal';
import { AutofillDialog, AutofillPreview, type AutofillResult } from '../components/AutofillPanel';
import { RoomsPanel } from '../components/RoomsPanel';
import { ErrorNote } from '../components/ErrorNote';
import { colourOf, dateOfLetter, hhmm, letterOfDate, minutesOf, REFERENCE_MONDAY, shiftPattern, timeOfDate } from '../lib/week';
import { weekEvents } from '../lib/calendar-events';
import { notifyDone, notifyError } from '../lib/notify';

/**
 * Options that never change, defined once: FullCalendar re-processes every event when an option's
 * identity changes, so fresh arrays and objects on each render would cost a full re-layout.
 */
const CALENDAR_OPTIONS = {
  plugins: [timeGridPlugin, interactionPlugin],
  initialView: 'timeGridWeek',
  initialDate: REFERENCE_MONDAY,
  headerToolbar: false,
  dayHeaderFormat: { weekday: 'long' },
  hiddenDays: [0],
  firstDay: 1,
  slotMinTime: '07:00:00',
  slotMaxTime: '22:00:00',
  slotDuration: '00:30:00',
  slotLabelFormat: { hour: '2-digit', minute: '2-digit', hour12: false },
  // Our event content shows no time; skipping FullCalendar's time text saves a formatter per event.
  displayEventTime: false,
  // Side by side, never drawn over one another: a section under another cannot be read or clicked.
  slotEventOverlap: false,
  // "+N sections" blocks (extendedProps.overflow = 1) are placed after, so to the right of, the sections drawn beside them.
  eventOrder: 'overflow,start,-duration,title',
  snapDuration: '00:15:00',
  allDaySlot: false,
  editable: true,
  // Crowded times are folded by weekEvents into counted "+N sections" blocks: the calendar's only overflow mechanism.
  eventDurationEditable: true,
  // The whole day at once, the page scrolling with the weekday header kept in view: no scroller
  // inside the page (hours hidden under a second scrollbar) and nothing cut off when printed.
  height: 'auto',
  stickyHeaderDates: true,
  // Column headers are announced as weekdays, not as the dates of the reference week the pattern is drawn on.
  dayHeaderDidMount: (arg: DayHeaderMountArg) => arg.el.querySelector('a')?.setAttribute('aria-label', DAY_NAMES[letterOfDate(arg.date)]),
} satisfies CalendarOptions;

type View = 'week' | ResourceKind;
const VIEWS: { value: View; label: string }[] = [
  { value: 'week', label: 'Week' },
  { value: 'room', label: 'By room' },
  { value: 'instructor', label: 'By instructor' },
];

export function SchedulerPage() {
  const { entries, error, refusal, update, refuse, term, parts, showTerm } = useSchedule();
  const [partFilter, setPartFilter] = useState<string | null>(null);
  const campuses = useCampuses((s) => s.campuses);
  const [copyOpen, setCopyOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const [partsOpen, setPartsOpen] = useState(false);
  const { courses, doctors, refreshDoctors } = useData();
  const [recommended, setRecommended] = useState<string[] | null>(null);
  const [draft, setDraft] = useState<EntryDraft | null>(null);
  const [doctorFilter, setDoctorFilter] = useState<string | null>(null);
  const [roomFilter, setRoomFilter] = useState<string | null>(null);
  const [addingDoctor, setAddingDoctor] = useState(false);
  const [autofillOpen, setAutofillOpen] = useState(false);
  const [draftRun, setDraftRun] = useState<{ runId: number; options: { max: number; budget: number }; result: AutofillResult } | null>(null);
  const [applying, setApplying] = useState(false);
  const [slotList, setSlotList] = useState<number[] | null>(null);
  const [view, setView] = useState<View>('week');
  const [cohort, setCohort] = useState<string | null>(null);
  const [declaredRooms, setDeclaredRooms] = useState<{ key: string; label: string }[]>([]);
  useEffect(() => {
    if (view !== 'room') return;
    call('rooms-list', {})
      .then((rooms) => setDeclaredRooms(rooms.map((r) => ({ key: displayRoom(r.name), label: r.capacity ? `${displayRoom(r.name)} (${r.capacity} seats)` : displayRoom(r.name) }))))
      .catch(() => setDeclaredRooms([]));
  }, [view]);

  // The latest run's recommendations order the course list of the entry form; fetched when first needed.
  useEffect(() => {
    if (draft === null || recommended !== null) return;
    setRecommended([]);
    call('dashboard-metrics', {})
      .then((metrics) => (metrics.latest_run_id === null ? null : call('predict-run', { run_id: metrics.latest_run_id })))
      .then((run) => setRecommended(run ? run.entries.filter((e) => e.offer).map((e) => e.course_code) : []))
      .catch(() => setRecommended([]));
  }, [draft, recommended]);

  const rooms = useMemo(() => [...new Set(entries.map((e) => e.room).filter((r) => r !== TBD_ROOM))].sort(), [entries]);
  const selectedDoctor = doctors.find((d) => String(d.id) === doctorFilter);
  // The term's student cohorts (curriculum groups), each with the courses it takes; read again when the timetable changes.
  // Read again only when the term's set of courses changes, not on every move of a section.
  const [cohortList, setCohortList] = useState<{ key: string; label: string; courses: string[] }[]>([]);
  const termCourses = useMemo(() => [...new Set(entries.map((e) => e.course_code))].sort().join('\n'), [entries]);
  useEffect(() => {
    if (!term) return;
    call('schedule-cohorts', term)
      .then(setCohortList)
      .catch(() => setCohortList([]));
  }, [term, termCourses, courses]);
  const cohorts = useMemo(() => cohortList.map((c) => ({ value: c.key, label: c.label })), [cohortList]);
  const cohortCourses = useMemo(() => new Set(cohortList.find((c) => c.key === cohort)?.courses ?? []), [cohortList, cohort]);
  // Every view shows the same filtered sections; switching view keeps the term and the filters.
  const visible = useMemo(() => {
    const teaches = (e: Entry): boolean => (doctorFilter === UNASSIGNED_KEY ? e.doctor_ids.length === 0 : e.doctor_ids.map(String).includes(doctorFilter ?? ''));
    return entries.filter((e) => (!doctorFilter || teaches(e)) && (!roomFilter || e.room === roomFilter) && (!partFilter || e.part_of_term === partFilter) && (!cohort || cohortCourses.has(e.course_code)));
  }, [entries, doctorFilter, roomFilter, partFilter, cohort, cohortCourses]);
  const rows = useMemo(
    () => (view === 'week' ? [] : resourceRows(view, visible, view === 'room' ? (roomFilter ? [] : declaredRooms) : doctors.filter((d) => !doctorFilter || String(d.id) === doctorFilter).map((d) => ({ key: String(d.id), label: d.name })))),
    [view, visible, declaredRooms, doctors, doctorFilter, roomFilter],
  );
  // Recomputed only when entries or filters change, so FullCalendar does not re-lay out every event on unrelated updates.
  const events = useMemo(() => {
    const availability: EventInput[] = selectedDoctor
      ? [...(selectedDoctor.available_days ?? 'MTWRFS')].map((letter) => {
          const [from, to] = (selectedDoctor.available_time ?? '00:00-23:59').split('-');
          return { start: `${dateOfLetter(letter)}T${from}`, end: `${dateOfLetter(letter)}T${to}`, display: 'background', backgroundColor: '#8ce99a' };
        })
      : [];
    // The auto-fill draft, shown in a preview style until it is applied.
    const preview: EventInput[] = (draftRun?.result.placed ?? []).flatMap((p, i) =>
      [...p.day].map((letter) => ({
        id: `draft-${i}:${letter}`,
        title: `${p.course_code} §${p.section_name} (draft)`,
        start: `${dateOfLetter(letter)}T${p.start_time}`,
        end: `${dateOfLetter(letter)}T${hhmm(minutesOf(p.start_time) + p.duration_mins)}`,
        classNames: ['tw-preview'],
        editable: false,
        backgroundColor: 'transparent',
        borderColor: colourOf(p.doctor_id),
        textColor: 'inherit',
        extendedProps: { draft: p },
      })),
    );
    return [...weekEvents(visible), ...availability, ...preview];
  }, [visible, selectedDoctor, draftRun]);
  const applyDraft = async (): Promise<void> => {
    if (!draftRun) return;
    setApplying(true);
    try {
      const applied = await call('schedule-autofill', { run_id: draftRun.runId, dry_run: false, max_sections_per_doctor: draftRun.options.max, time_budget_ms: draftRun.options.budget, ...term });
      setDraftRun(null);
      notifyDone(`${applied.placed.length} sections added to the timetable.`, 'Auto-fill applied');
    } catch (e) {
      notifyError(e, 'The draft could not be applied');
    } finally {
      setApplying(false);
    }
  };
  const entriesById = useMemo(() => new Map(entries.map((e) => [e.id, e])), [entries]);

  /** A new section at a day and time, in the room or for the instructor the screen is focused on. */
  const startSection = (letter: string, time: string, at: { room?: string; doctorIds?: number[] } = {}): void => {
    const defaults = usualMeetingForDay(letter);
    setDraft({
      course_code: '',
      section_name: '1',
      doctor_ids: at.doctorIds ?? (selectedDoctor ? [selectedDoctor.id] : []),
      day: defaults.day,
      start_time: time,
      duration_mins: defaults.duration,
      room: at.room ?? roomFilter ?? '',
      part_of_term: partFilter ?? WHOLE_TERM_CODE,
      joint_group: '',
      campus: null,
    });
  };
  const onDateClick = (info: DateClickArg): void => startSection(letterOfDate(info.date), timeOfDate(info.date));
  const openEntries = (ids: readonly number[]): void => {
    const only = ids.length === 1 ? entriesById.get(ids[0] ?? -1) : undefined;
    if (only) setDraft(draftOf(only));
    else setSlotList([...ids]);
  };
  const onResourceCreate = (rowKey: string, letter: string, time: string): void =>
    startSection(letter, time, view === 'room' ? { room: rowKey === TBD_ROOM ? '' : rowKey } : { doctorIds: rowKey === UNASSIGNED_KEY ? [] : [Number(rowKey)] });
  /** Screen readers and hover read the whole meeting, whatever the block's width lets it show. */
  const onEventMount = (arg: EventMountArg): void => {
    const hidden = arg.event.extendedProps.hiddenLabels as string[] | undefined;
    const label = hidden
      ? `${hidden.length} more sections: ${hidden.join(', ')}. Press Enter to list them.`
      : (() => {
          const ids = (arg.event.extendedProps.jointEntries as number[] | undefined) ?? [Number(arg.event.groupId)];
          const members = ids.map((id) => entriesById.get(id)).filter((e): e is Entry => e !== undefined);
          const start = arg.event.start;
          const end = arg.event.end;
          if (members.length === 0 || !start || !end) return arg.event.title;
          return describeMeeting(members, letterOfDate(start), minutesOf(timeOfDate(start)), minutesOf(timeOfDate(end)));
        })();
    arg.el.setAttribute('aria-label', label);
    arg.el.setAttribute('title', label);
  };
  const onEventClick = (info: EventClickArg): void => {
    const listed = (info.event.extendedProps.hiddenEntries ?? info.event.extendedProps.jointEntries) as number[] | undefined;
    if (listed) {
      setSlotList(listed);
      return;
    }
    const entry = entries.find((e) => e.id === Number(info.event.groupId));
    if (entry) setDraft(draftOf(entry));
  };
  const onDrop = async (info: EventDropArg): Promise<void> => {
    const id = Number(info.event.groupId);
    const entry = entries.find((e) => e.id === id);
    if (!entry || !info.event.start) return info.revert();
    try {
      await update({ entry_id: id, day: shiftPattern(entry.day, info.delta.days), start_time: timeOfDate(info.event.start) });
    } catch (e) {
      info.revert();
      refuse(id, messageOf(e));
    }
  };
  const onResize = async (info: EventResizeDoneArg): Promise<void> => {
    const id = Number(info.event.groupId);
    if (!info.event.start || !info.event.end) return info.revert();
    try {
      await update({ entry_id: id, duration_mins: Math.round((info.event.end.getTime() - info.event.start.getTime()) / 60000) });
    } catch (e) {
      info.revert();
      refuse(id, messageOf(e));
    }
  };
  const onDropHandler = useCallback((info: EventDropArg) => void onDrop(info), [onDrop]);
  const onResizeHandler = useCallback((info: EventResizeDoneArg) => void onResize(info), [onResize]);
  const renderEvent = (arg: EventContentArg) => {
    // Availability bands are backgrounds: no entry text on them.
    if (arg.event.display === 'background') return null;
    const hidden = arg.event.extendedProps.hiddenEntries as number[] | undefined;
    if (hidden) {
      return (
        <div data-testid="slot-more" data-count={hidden.length} style={{ fontSize: 11, padding: 2 }}>
          <b>+{hidden.length} sections</b>
          <div>click to list</div>
        </div>
      );
    }
    const draft = arg.event.extendedProps.draft as AutofillResult['placed'][number] | undefined;
    if (draft) {
      return (
        <div className="tw-preview-content" style={{ overflow: 'hidden', fontSize: 11, lineHeight: 1.2 }}>
          <b>{arg.event.title}</b>
          <div>{draft.doctor?.name}</div>
          <div>{draft.room}</div>
        </div>
      );
    }
    const id = Number(arg.event.groupId);
    const entry = entriesById.get(id);
    const part = entry && entry.part_of_term !== WHOLE_TERM_CODE ? ` · part ${entry.part_of_term}` : '';
    return (
      <div className="tw-event" data-testid={`event-${id}`} data-entry-id={id}>
        <b>{arg.event.title}</b>
        <div>{entry && entry.doctors.length > 0 ? entry.doctors.map((d) => d.name).join(', ') : NO_INSTRUCTOR}</div>
        <div>
          {entry?.room}
          {campuses.length > 1 && entry ? ` · ${entry.campus}` : ''}
          {part}
        </div>
        {entry && entry.curriculum_conflicts.length > 0 && (
          <div className="tw-event-curriculum" data-testid="event-curriculum" title={entry.warnings.filter((w) => w.startsWith('Curriculum')).join('\n')}>
            Clashes for students with {entry.curriculum_conflicts.join(', ')}
          </div>
        )}
        {refusal?.entryId === id && (
          <div className="tw-event-error" role="alert" data-testid="event-refusal">
            {refusal.message}
          </div>
        )}
      </div>
    );
  };
  const exportAs = async (format: 'xlsx' | 'csv' | 'ics'): Promise<void> => {
    try {
      await transport.saveFile(await call('schedule-export', { ...term, format, ...(format === 'ics' ? { doctor_id: Number(doctorFilter) } : {}) }));
    } catch (e) {
      notifyError(e, 'Export failed');
    }
  };
  // Curriculum conflicts first: they are the clashes students feel.
  const warned = entries.filter((e) => e.warnings.length > 0).sort((a, b) => Number(b.curriculum_conflicts.length > 0) - Number(a.curriculum_conflicts.length > 0));
  const curriculumCount = entries.filter((e) => e.curriculum_conflicts.length > 0).length;

  return (
    <Stack>
      <Group justify="space-between" className="tw-no-print">
        <Group gap="sm" align="end">
          <Title order={2}>Scheduler</Title>
          {term && <TermPicker value={term} onChange={(t) => void showTerm(t)} testId="term-switcher" />}
          <Button onClick={() => startSection('M', '09:00')} disabled={!term} data-testid="new-section">
            New section
          </Button>
          <Button variant="default" onClick={() => setAutofillOpen(true)} data-testid="autofill-open">
            Auto-fill from run…
          </Button>
        </Group>
        <Group gap="xs">
          <Button variant="default" onClick={() => setCopyOpen(true)} disabled={!term} data-testid="copy-open">
            Copy from term…
          </Button>
          <Button variant="default" onClick={() => setPartsOpen(true)} disabled={!term}>
            Parts of term…
          </Button>
          <Button variant="default" onClick={() => setImportOpen(true)} disabled={!term} data-testid="import-timetable-open">
            Import timetable…
          </Button>
          <Button variant="default" onClick={() => setAddingDoctor(true)}>
            Add doctor
          </Button>
        </Group>
      </Group>
      <Group justify="space-between" className="tw-no-print">
        <Group gap="xs">
          <SegmentedControl value={view} onChange={(v) => setView(v)} data={VIEWS} aria-label="View" data-testid="view-switch" />
          {parts.length > 1 && <Select placeholder="All parts" clearable data={parts.map((p) => ({ value: p.code, label: `${p.code} — ${p.name}` }))} value={partFilter} onChange={setPartFilter} aria-label="Filter by part of term" data-testid="filter-part" w={160} />}
          <Select placeholder="All doctors" clearable searchable data={[{ value: UNASSIGNED_KEY, label: NO_INSTRUCTOR }, ...doctors.map((d) => ({ value: String(d.id), label: d.name }))]} value={doctorFilter} onChange={setDoctorFilter} aria-label="Filter by doctor" data-testid="filter-doctor" w={200} />
          <Select placeholder="All rooms" clearable searchable data={rooms} value={roomFilter} onChange={setRoomFilter} aria-label="Filter by room" data-testid="filter-room" w={150} />
          <Select placeholder="All student cohorts" clearable searchable data={cohorts} value={cohort} onChange={setCohort} aria-label="Show the courses one cohort of students takes" data-testid="filter-cohort" w={230} disabled={cohorts.length === 0} />
        </Group>
        <Group gap="xs">
          <Button variant="default" onClick={() => window.print()} data-testid="print" title="Print what is on screen (this view and these filters), landscape">
            Print…
          </Button>
          <Button onClick={() => void exportAs('xlsx')} data-testid="export-xlsx">
            Export XLSX
          </Button>
          <Button variant="default" onClick={() => void exportAs('csv')} data-testid="export-csv" title="One row per meeting, in the layout Import timetable reads back">
            Export CSV
          </Button>
          {doctorFilter && doctorFilter !== UNASSIGNED_KEY && (
            <Button variant="default" onClick={() => void exportAs('ics')} data-testid="export-ics" title="This instructor's weekly timetable for a calendar app">
              Calendar (.ics)
            </Button>
          )}
        </Group>
      </Group>
      <Text className="tw-print-only" fw={600}>
        {term ? `${term.semester} ${term.year}` : ''} timetable · {VIEWS.find((v) => v.value === view)?.label}
        {[selectedDoctor?.name, roomFilter, cohorts.find((c) => c.value === cohort)?.label].filter(Boolean).map((f) => ` · ${f}`)}
      </Text>
      <ErrorNote message={error} />
      {refusal && (
        <ErrorNote message={`Not moved: ${refusal.message}`} testId="schedule-refusal" />
      )}
      {draftRun && <AutofillPreview result={draftRun.result} applying={applying} onApply={() => void applyDraft()} onDiscard={() => setDraftRun(null)} />}
      <Card withBorder padding="xs" data-testid="calendar" className="tw-printable">
        {view === 'week' ? (
          <FullCalendar
            {...CALENDAR_OPTIONS}
            events={events}
            dateClick={onDateClick}
            eventClick={onEventClick}
            eventDrop={onDropHandler}
            eventResize={onResizeHandler}
            eventContent={renderEvent}
            eventDidMount={onEventMount}
          />
        ) : (
          <ResourceWeek kind={view} rows={rows} onOpen={openEntries} onCreate={onResourceCreate} />
        )}
        <Text size="xs" c="dimmed" mt={4}>
          Sections are drawn for their booked slot; the XLSX export prints class time, which leaves passing time in the standard slots: a 60-minute MWF slot at 09:00 is a 09:00–09:50 class, a 90-minute TR slot a 75-minute class.
        </Text>
      </Card>
      <SimpleGrid cols={{ base: 1, lg: 3 }} className="tw-no-print" style={{ alignItems: 'start' }}>
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
          <ScrollArea.Autosize mah={320}>
            <Table fz="xs" data-testid="warnings-list">
              <Table.Tbody>
                {warned.map((e) => (
                  <Table.Tr key={e.id} data-curriculum={e.curriculum_conflicts.length > 0 || undefined}>
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
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        </Card>
        <Card withBorder>
          <Text fw={600} mb="xs">
            Doctors ({doctors.length})
          </Text>
          <ScrollArea.Autosize mah={320}>
            <Table fz="xs">
              <Table.Tbody>
                {doctors.map((d) => (
                  <Table.Tr key={d.id} onClick={() => setDoctorFilter(String(d.id))} style={{ cursor: 'pointer' }}>
                    <Table.Td>
                      <Badge color={colourOf(d.id)} variant="filled" size="xs" mr={6} />
                      {d.name}
                    </Table.Td>
                    <Table.Td>
                      {d.available_days ?? 'any day'} {d.available_time ?? 'any time'}
                    </Table.Td>
                    <Table.Td>{entries.filter((e) => e.doctor_ids.includes(d.id)).length} sections</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollArea.Autosize>
        </Card>
        <RoomsPanel />
      </SimpleGrid>
      <Modal opened={slotList !== null} onClose={() => setSlotList(null)} title="Sections at this time">
        <Table fz="sm" highlightOnHover>
          <Table.Tbody>
            {(slotList ?? []).map((id) => entriesById.get(id)).filter((e): e is Entry => e !== undefined).map((e) => (
              <Table.Tr
                key={e.id}
                style={{ cursor: 'pointer' }}
                onClick={() => {
                  setSlotList(null);
                  setDraft(draftOf(e));
                }}
              >
                <Table.Td>
                  {e.course_code} §{e.section_name}
                </Table.Td>
                <Table.Td>{e.day} {e.start_time}</Table.Td>
                <Table.Td>{e.doctors.length > 0 ? e.doctors.map((d) => d.name).join(', ') : 'Unassigned'}</Table.Td>
                <Table.Td>{e.joint_group ?? ''}</Table.Td>
                <Table.Td>{e.room}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Modal>
      {term && <CopyTermDialog opened={copyOpen} target={term} onClose={() => setCopyOpen(false)} />}
      {term && (
        <ImportTimetableDialog
          opened={importOpen}
          term={term}
          onClose={() => setImportOpen(false)}
          onApplied={(terms) => {
            const first = terms[0];
            if (first && (first.year !== term.year || first.semester !== term.semester)) void showTerm(first);
          }}
        />
      )}
      {term && <PartsDialog opened={partsOpen} term={term} parts={parts} onClose={() => setPartsOpen(false)} />}
      <AutofillDialog opened={autofillOpen} onClose={() => setAutofillOpen(false)} onPreview={(runId, options, result) => setDraftRun({ runId, options, result })} />
      <EntryModal draft={draft} courses={courses} doctors={doctors} recommended={recommended ?? []} entries={entries} onClose={() => setDraft(null)} />
      <DoctorModal opened={addingDoctor} courses={courses} onClose={() => setAddingDoctor(false)} onSaved={() => void refreshDoctors()} />
    </Stack>
  );
}
