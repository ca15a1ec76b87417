import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { displayRoom, TBD_ROOM } from '../../../core/domain/meetings';
import { usualMeetingForDay } from '../../../core/domain/days';
import { WHOLE_TERM_CODE } from '../../../core/domain/parts';
import { Button, Card, Group, SegmentedControl, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { ResourceWeek } from '../components/ResourceWeek';
import { WeekCalendar, type DraftPlacement } from '../components/WeekCalendar';
import { useCampuses } from '../stores/campuses';
import { DoctorsPanel, SectionsListModal, WarningsPanel } from '../components/SchedulePanels';
import { NO_INSTRUCTOR, resourceRows, UNASSIGNED_KEY, type ResourceKind } from '../lib/resource-rows';
import { call, transport } from '../api/client';
import { useData } from '../stores/data';
import { useSchedule, type Entry } from '../stores/schedule';
import { draftOf, EntryModal, type EntryDraft } from '../components/EntryModal';
import { TermPicker } from '../components/TermPicker';
import { CopyTermDialog } from '../components/CopyTermDialog';
import { ImportTimetableDialog } from '../components/ImportTimetableDialog';
import { PartsDialog } from '../components/PartsDialog';
import { DoctorModal } from '../components/DoctorModal';
import { AutofillDialog, AutofillPreview, type AutofillResult } from '../components/AutofillPanel';
import { RoomsPanel } from '../components/RoomsPanel';
import { ErrorNote } from '../components/ErrorNote';
import { notifyDone, notifyError } from '../lib/notify';
import { termLabel } from '../../../core/domain/terms';

type View = 'week' | ResourceKind;
const VIEWS: { value: View; label: string }[] = [
  { value: 'week', label: 'Week' },
  { value: 'room', label: 'By room' },
  { value: 'instructor', label: 'By instructor' },
];
const NO_DRAFT: DraftPlacement[] = [];

export function SchedulerPage() {
  const { entries, error, refusal, term, parts, showTerm } = useSchedule();
  const [partFilter, setPartFilter] = useState<string | null>(null);
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
  const [declaredRooms, setDeclaredRooms] = useState<{ key: string; label: string; campus: string | null }[]>([]);
  const campuses = useCampuses((s) => s.campuses);
  const [campusFilter, setCampusFilter] = useState<string | null>(null);
  // The declared rooms (free ones are rows of the By room view): read once, and again when rooms change anywhere.
  useEffect(() => {
    const load = (): void => {
      call('rooms-list', {})
        .then((rooms) =>
          setDeclaredRooms(
            rooms.map((r) => ({ key: displayRoom(r.name), label: r.capacity ? `${displayRoom(r.name)} (${r.capacity} seats)` : displayRoom(r.name), campus: r.campus })),
          ),
        )
        .catch(() => setDeclaredRooms([]));
    };
    load();
    return transport.subscribe((event) => {
      if (event.type === 'changed' && event.areas.includes('rooms')) load();
    });
  }, []);

  // The latest run's plan (staff's decisions, else the model's) orders the course list of the entry form; fetched when first needed.
  useEffect(() => {
    if (draft === null || recommended !== null) return;
    setRecommended([]);
    call('dashboard-metrics', {})
      .then((metrics) => (metrics.latest_run_id === null ? null : call('predict-run', { run_id: metrics.latest_run_id })))
      .then((run) => setRecommended(run ? run.entries.filter((e) => e.planned_offer).map((e) => e.course_code) : []))
      .catch(() => setRecommended([]));
  }, [draft, recommended]);

  const rooms = useMemo(() => [...new Set(entries.map((e) => e.room).filter((r) => r !== TBD_ROOM))].sort(), [entries]);
  const doctorChoices = useMemo(
    () => [{ value: UNASSIGNED_KEY, label: NO_INSTRUCTOR }, ...doctors.map((d) => ({ value: String(d.id), label: d.name }))],
    [doctors],
  );
  const selectedDoctor = doctors.find((d) => String(d.id) === doctorFilter);
  // The term's student cohorts (curriculum groups), each with the courses it takes; read again only
  // when the term's set of courses changes, not on every move of a section.
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
    const teaches = (e: Entry): boolean =>
      doctorFilter === UNASSIGNED_KEY ? e.doctors.length === 0 : e.doctors.some((d) => String(d.id) === doctorFilter);
    return entries.filter(
      (e) =>
        (!doctorFilter || teaches(e)) &&
        (!roomFilter || e.room === roomFilter) &&
        (!partFilter || e.part_of_term === partFilter) &&
        (!campusFilter || e.campus === campusFilter) &&
        (!cohort || cohortCourses.has(e.course_code)),
    );
  }, [entries, doctorFilter, roomFilter, partFilter, campusFilter, cohort, cohortCourses]);
  // What the week calendar draws: the filtered sections, frozen while another view is shown.
  const weekShown = useRef(visible);
  if (view === 'week') weekShown.current = visible;
  const rows = useMemo(() => {
    if (view === 'week') return [];
    // Every declared room (free ones too) unless one room is chosen; every doctor, or the chosen one.
    const resources =
      view === 'room'
        ? roomFilter
          ? []
          : declaredRooms.filter((r) => !campusFilter || r.campus === null || r.campus === campusFilter)
        : doctors.filter((d) => !doctorFilter || String(d.id) === doctorFilter).map((d) => ({ key: String(d.id), label: d.name }));
    return resourceRows(view, visible, resources);
  }, [view, visible, declaredRooms, doctors, doctorFilter, roomFilter, campusFilter]);
  const applyDraft = async (): Promise<void> => {
    if (!draftRun) return;
    setApplying(true);
    try {
      const applied = await call('schedule-autofill', {
        run_id: draftRun.runId,
        dry_run: false,
        max_sections_per_doctor: draftRun.options.max,
        time_budget_ms: draftRun.options.budget,
        ...term,
      });
      setDraftRun(null);
      notifyDone(`${applied.placed.length} sections added to the timetable.`, 'Auto-fill applied');
    } catch (e) {
      notifyError(e, 'The draft could not be applied');
    } finally {
      setApplying(false);
    }
  };
  const entriesById = useMemo(() => new Map(entries.map((e) => [e.id, e])), [entries]);

  /**
   * A new section at a day and time, in the room or for the instructor the screen is focused on.
   * startSection and openEntries keep their identity between renders, so opening a dialog does not
   * redraw the week's calendar (WeekCalendar is memoised).
   */
  const startSection = useCallback(
    (letter: string, time: string, at: { room?: string; instructorIds?: number[] } = {}): void => {
      const defaults = usualMeetingForDay(letter);
      setDraft({
        course_code: '',
        section_name: '1',
        instructor_ids: at.instructorIds ?? (selectedDoctor ? [selectedDoctor.id] : []),
        day: defaults.day,
        start_time: time,
        duration_mins: defaults.duration,
        room: at.room ?? roomFilter ?? '',
        part_of_term: partFilter ?? WHOLE_TERM_CODE,
        joint_group: '',
        campus: null,
      });
    },
    [selectedDoctor, roomFilter, partFilter],
  );
  const openEntries = useCallback(
    (ids: readonly number[]): void => {
      const only = ids.length === 1 ? entriesById.get(ids[0] ?? -1) : undefined;
      if (only) setDraft(draftOf(only));
      else setSlotList([...ids]);
    },
    [entriesById],
  );
  const onResourceCreate = (rowKey: string, letter: string, time: string): void =>
    startSection(
      letter,
      time,
      view === 'room' ? { room: rowKey === TBD_ROOM ? '' : rowKey } : { instructorIds: rowKey === UNASSIGNED_KEY ? [] : [Number(rowKey)] },
    );
  const exportAs = async (format: 'xlsx' | 'csv' | 'ics'): Promise<void> => {
    try {
      await transport.saveFile(await call('schedule-export', { ...term, format, ...(format === 'ics' ? { doctor_id: Number(doctorFilter) } : {}) }));
    } catch (e) {
      notifyError(e, 'Export failed');
    }
  };

  // The toolbar's filters; the part-of-term filter only when the term has several parts.
  const filters: FilterSelectProps[] = [
    ...(parts.length > 1
      ? [
          {
            label: 'Filter by part of term',
            placeholder: 'All parts',
            data: parts.map((p) => ({ value: p.code, label: `${p.code} — ${p.name}` })),
            value: partFilter,
            onChange: setPartFilter,
            testId: 'filter-part',
            width: 160,
          },
        ]
      : []),
    // The campus filter only when the department has several campuses.
    ...(campuses.length > 1
      ? [
          {
            label: 'Filter by campus',
            placeholder: 'All campuses',
            data: [...campuses],
            value: campusFilter,
            onChange: setCampusFilter,
            testId: 'filter-campus',
            width: 140,
          },
        ]
      : []),
    {
      label: 'Filter by doctor',
      placeholder: 'All doctors',
      data: doctorChoices,
      value: doctorFilter,
      onChange: setDoctorFilter,
      testId: 'filter-doctor',
      width: 200,
      searchable: true,
    },
    {
      label: 'Filter by room',
      placeholder: 'All rooms',
      data: rooms,
      value: roomFilter,
      onChange: setRoomFilter,
      testId: 'filter-room',
      width: 150,
      searchable: true,
    },
    {
      label: 'Show the courses one cohort of students takes',
      placeholder: 'All student cohorts',
      data: cohorts,
      value: cohort,
      onChange: setCohort,
      testId: 'filter-cohort',
      width: 230,
      searchable: true,
    },
  ];

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
          {filters.map((filter) => (
            <FilterSelect key={filter.testId} {...filter} />
          ))}
        </Group>
        <Group gap="xs">
          <Button variant="default" onClick={() => window.print()} data-testid="print" title="Print what is on screen (this view and these filters), landscape">
            Print…
          </Button>
          <Button onClick={() => void exportAs('xlsx')} data-testid="export-xlsx">
            Export XLSX
          </Button>
          <Button
            variant="default"
            onClick={() => void exportAs('csv')}
            data-testid="export-csv"
            title="One row per meeting, in the layout Import timetable reads back"
          >
            Export CSV
          </Button>
          {doctorFilter && doctorFilter !== UNASSIGNED_KEY && (
            <Button
              variant="default"
              onClick={() => void exportAs('ics')}
              data-testid="export-ics"
              title="This instructor's weekly timetable for a calendar app"
            >
              Calendar (.ics)
            </Button>
          )}
        </Group>
      </Group>
      <Text className="tw-print-only" fw={600}>
        {term ? termLabel(term) : ''} timetable · {VIEWS.find((v) => v.value === view)?.label}
        {[campusFilter, partFilter === null ? null : `part ${partFilter}`, selectedDoctor?.name, roomFilter, cohorts.find((c) => c.value === cohort)?.label].filter(Boolean).map((f) => ` · ${f}`)}
      </Text>
      <ErrorNote message={error} />
      {refusal && <ErrorNote message={`Not moved: ${refusal.message}`} testId="schedule-refusal" />}
      {draftRun && <AutofillPreview result={draftRun.result} applying={applying} onApply={() => void applyDraft()} onDiscard={() => setDraftRun(null)} />}
      <Card withBorder padding="xs" data-testid="calendar" className="tw-printable">
        {/* The week stays mounted under the other views (hidden, its sections as last shown): switching back is immediate. */}
        <WeekCalendar
          shown={weekShown.current}
          entriesById={entriesById}
          availabilityOf={selectedDoctor}
          draft={draftRun?.result.placed ?? NO_DRAFT}
          onCreate={startSection}
          onOpen={openEntries}
          hidden={view !== 'week'}
        />
        {view !== 'week' && <ResourceWeek kind={view} rows={rows} onOpen={openEntries} onCreate={onResourceCreate} />}
        <Text size="xs" c="dimmed" mt={4}>
          Sections are drawn for their booked slot; the XLSX export prints class time, which leaves passing time in the standard slots: a 60-minute MWF slot at
          09:00 is a 09:00–09:50 class, a 90-minute TR slot a 75-minute class.
        </Text>
      </Card>
      <SimpleGrid cols={{ base: 1, lg: 3 }} className="tw-no-print" style={{ alignItems: 'start' }}>
        <WarningsPanel entries={entries} />
        <DoctorsPanel doctors={doctors} entries={entries} onPick={(id) => setDoctorFilter(String(id))} />
        <RoomsPanel />
      </SimpleGrid>
      <SectionsListModal
        listed={slotList === null ? null : slotList.map((id) => entriesById.get(id)).filter((e): e is Entry => e !== undefined)}
        onClose={() => setSlotList(null)}
        onChoose={(e) => {
          setSlotList(null);
          setDraft(draftOf(e));
        }}
      />
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
      <AutofillDialog
        opened={autofillOpen}
        onClose={() => setAutofillOpen(false)}
        onPreview={(runId, options, result) => setDraftRun({ runId, options, result })}
      />
      <EntryModal draft={draft} courses={courses} doctors={doctors} recommended={recommended ?? []} entries={entries} onClose={() => setDraft(null)} />
      <DoctorModal opened={addingDoctor} courses={courses} onClose={() => setAddingDoctor(false)} onSaved={() => void refreshDoctors()} />
    </Stack>
  );
}

interface FilterSelectProps {
  label: string;
  placeholder: string;
  data: { value: string; label: string }[] | string[];
  value: string | null;
  onChange: (value: string | null) => void;
  testId: string;
  width: number;
  searchable?: boolean;
}

/** One of the toolbar's filters: cleared to show everything, disabled while there is nothing to choose (and nothing chosen). */
function FilterSelect({ label, placeholder, data, value, onChange, testId, width, searchable = false }: FilterSelectProps) {
  return (
    <Select
      placeholder={placeholder}
      clearable
      searchable={searchable}
      data={data}
      value={value}
      onChange={onChange}
      aria-label={label}
      data-testid={testId}
      w={width}
      disabled={data.length === 0 && value === null}
    />
  );
}
