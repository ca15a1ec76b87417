import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { call, transport } from '../api/client';
import { useLive } from '../api/live';
import type { AutofillRequest, AutofillResult, Doctor, Entry, Term } from '../api/wire';
import { draftOf, type EntryDraft } from '../lib/entry-draft';
import { NO_INSTRUCTOR, resourceRows, UNASSIGNED_KEY, type OtherBooking, type ResourceKind } from '../lib/resource-rows';
import { notifyDone, notifyError } from '../lib/notify';
import { useCampusList, useCourses, useDoctors } from './catalog';
import { useScheduleView } from '../stores/schedule';
import { prefetchTimetable, prefetchUntimedSections, useTimetable } from './timetable';
import { prefetchTermHistory } from './history';
import { prefetchRooms } from './rooms';
import { displayRoom, roomKey, TBD_ROOM } from '../../../core/domain/meetings';
import { usualMeetingForDay } from '../../../core/domain/days';
import { WHOLE_TERM_CODE } from '../../../core/domain/parts';
import { parseHHMM } from '../../../core/domain/time';
import { draftBlocks, reviewRows, selectionOf } from '../lib/draft-review';
import { useDraftReview } from '../stores/draft-review';

export type SchedulerView = 'week' | ResourceKind;

/** The dialogs the Scheduler opens; one at a time. */
export type SchedulerDialog = 'copy' | 'import' | 'parts' | 'doctor' | 'autofill';

/** What the sections on screen are narrowed to; null shows all. */
export interface SchedulerFilters {
  part: string | null;
  campus: string | null;
  /** A doctor's id, or UNASSIGNED_KEY for sections without one. */
  doctor: string | null;
  room: string | null;
  cohort: string | null;
}

const NO_FILTERS: SchedulerFilters = { part: null, campus: null, doctor: null, room: null, cohort: null };
const NONE: never[] = [];

/** An auto-fill draft on screen, with what it was asked with (applying it asks the same). */
export interface DraftRun {
  /** What was asked (the draft is asked again, stored, to apply it: the same seed and moves give the same draft). */
  request: AutofillRequest;
  result: AutofillResult;
  /** A draft made in the background: applied by its id (else it is asked again, stored). */
  draftId?: string | undefined;
  /** Why this draft is only reviewed here (a department's part of the registrar's campus draft): no Apply is offered. */
  readOnly?: string | undefined;
}

/** The filters, what they offer to choose from, and the sections they leave on screen. */
function useSchedulerFilters(entries: Entry[], term: Term | null, doctors: Doctor[]) {
  const [filters, setFilterState] = useState<SchedulerFilters>(NO_FILTERS);
  const setFilters = useCallback((patch: Partial<SchedulerFilters>) => setFilterState((current) => ({ ...current, ...patch })), []);
  // One instructor's sections (from the instructors' list): the same callback on every redraw, so the list is not drawn again for it.
  const pickDoctor = useCallback((id: number) => setFilters({ doctor: String(id) }), [setFilters]);
  // The term's student cohorts (curriculum groups), each with the courses it takes.
  const cohortList = useLive('schedule-cohorts', term && { year: term.year, semester: term.semester }).data ?? NONE;
  const rooms = useMemo(() => [...new Set(entries.map((e) => e.room).filter((r) => r !== TBD_ROOM))].sort(), [entries]);
  const doctorChoices = useMemo(
    () => [{ value: UNASSIGNED_KEY, label: NO_INSTRUCTOR }, ...doctors.map((d) => ({ value: String(d.id), label: d.name }))],
    [doctors],
  );
  const cohorts = useMemo(() => cohortList.map((c) => ({ value: c.key, label: c.label })), [cohortList]);
  // Read only with a cohort chosen: without one, cohorts arriving do not redraw the sections.
  const chosenCohort = filters.cohort === null ? null : cohortList.find((c) => c.key === filters.cohort);
  const cohortCourses = useMemo(() => new Set(chosenCohort?.courses ?? []), [chosenCohort]);
  // Every view shows the same filtered sections; switching view keeps the term and the filters.
  const visible = useMemo(() => {
    const { doctor, room, part, campus, cohort } = filters;
    const teaches = (e: Entry): boolean => (doctor === UNASSIGNED_KEY ? e.doctors.length === 0 : e.doctors.some((d) => String(d.id) === doctor));
    return entries.filter(
      (e) =>
        (!doctor || teaches(e)) &&
        (!room || e.room === room) &&
        (!part || e.part_of_term === part) &&
        (!campus || e.campus === campus) &&
        (!cohort || cohortCourses.has(e.course_code)),
    );
  }, [entries, filters, cohortCourses]);
  const choices = useMemo(() => ({ rooms, doctors: doctorChoices, cohorts }), [rooms, doctorChoices, cohorts]);
  return {
    filters,
    setFilters,
    pickDoctor,
    choices,
    selectedDoctor: doctors.find((d) => String(d.id) === filters.doctor),
    visible,
  };
}

/**
 * The Scheduler's reads loaded ahead while its code loads: the timetable, waited for, and once it
 * is in hand the panels' below the week (its history, its sections without a time, the rooms), not
 * waited for, so they are in hand when the panels are drawn.
 */
export function prefetchScheduler(): Promise<void> {
  return prefetchTimetable((term) => {
    void prefetchTermHistory(term);
    void prefetchUntimedSections(term);
    void prefetchRooms();
  });
}

/**
 * What other departments booked with this department's shared rooms and instructors (the campus
 * week), by room and by instructor, as the reader may read it: asked where a view shows it (By room,
 * By instructor, and the week filtered to one room or instructor).
 */
function useOtherDepartments(view: SchedulerView, filters: SchedulerFilters, term: Term | null): Record<'room' | 'instructor', OtherBooking[]> {
  const wanted = view !== 'week' || filters.room !== null || (filters.doctor !== null && filters.doctor !== UNASSIGNED_KEY);
  const campus = useLive('campus-week', wanted && term ? { year: term.year, semester: term.semester } : null).data;
  return useMemo(() => {
    const span = (m: { start_time: string; end_time: string }) => ({ start: parseHHMM(m.start_time) ?? 0, end: parseHHMM(m.end_time) ?? 0 });
    const room = (campus?.bookings ?? []).filter((b) => !b.own).map((b) => ({ row: b.room, day: b.day, ...span(b), label: b.label }));
    const instructor = (campus?.instructors ?? []).map((m) => ({ row: String(m.doctor_id), day: m.day, ...span(m), label: m.label }));
    // None yet, or none at all, is the same list: the rows are not drawn a second time when the campus week answers nothing.
    return { room: room.length > 0 ? room : NONE, instructor: instructor.length > 0 ? instructor : NONE };
  }, [campus]);
}

/** The week's blocks of other departments: in the room, or for the instructor, the week is filtered to. */
function weekTaken(others: Record<'room' | 'instructor', OtherBooking[]>, filters: SchedulerFilters): OtherBooking[] {
  if (filters.room) return others.room.filter((o) => roomKey(o.row) === roomKey(filters.room ?? ''));
  if (filters.doctor && filters.doctor !== UNASSIGNED_KEY) return others.instructor.filter((o) => o.row === filters.doctor);
  // The same empty list each time: the week (kept under By room and By instructor) is not laid out again when their bookings come.
  return NONE;
}

/** The rows of the By room and By instructor views: every declared room (free ones too) or every doctor, as filtered. */
function useResourceRows(
  view: SchedulerView,
  visible: Entry[],
  doctors: Doctor[],
  filters: SchedulerFilters,
  others: Record<'room' | 'instructor', OtherBooking[]>,
) {
  // Read where a view lists rooms (the week does not): the week's first render does not wait behind it.
  const roomList = useLive('rooms-list', view === 'room' ? {} : null).data;
  const declaredRooms = useMemo(
    () =>
      (roomList ?? NONE).map((r) => ({
        key: displayRoom(r.name),
        label: r.capacity ? `${displayRoom(r.name)} (${r.capacity} seats)` : displayRoom(r.name),
        campus: r.campus,
      })),
    [roomList],
  );
  const taken = view === 'week' || (view === 'room' && filters.room) ? NONE : others[view];
  return useMemo(() => {
    if (view === 'week') return [];
    const resources =
      view === 'room'
        ? filters.room
          ? []
          : declaredRooms.filter((r) => !filters.campus || r.campus === null || r.campus === filters.campus)
        : doctors.filter((d) => !filters.doctor || String(d.id) === filters.doctor).map((d) => ({ key: String(d.id), label: d.name }));
    return resourceRows(view, visible, resources, taken);
  }, [view, visible, declaredRooms, doctors, filters, taken]);
}

/**
 * The section being edited (or started at a day and time), and the list of sections a crowded
 * block stands for. startSection and openEntries keep their identity between renders, so opening a
 * dialog does not redraw the week's calendar (WeekCalendar is memoised).
 */
function useSectionEditing(entriesById: ReadonlyMap<number, Entry>, selectedDoctor: Doctor | undefined, filters: SchedulerFilters) {
  const [draft, setDraft] = useState<EntryDraft | null>(null);
  const [slotList, setSlotList] = useState<number[] | null>(null);
  // The latest run's plan (staff's decisions, else the model's) orders the entry form's course list: read once the form opens.
  const latestRunId = useLive('dashboard-metrics', draft ? {} : null).data?.latest_run_id ?? null;
  const latestRun = useLive('predict-run', draft && latestRunId !== null ? { run_id: latestRunId } : null).data;
  const recommended = useMemo(() => (latestRun ? latestRun.entries.filter((e) => e.planned_offer).map((e) => e.course_code) : NONE), [latestRun]);
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
        room: at.room ?? filters.room ?? '',
        part_of_term: filters.part ?? WHOLE_TERM_CODE,
        joint_group: '',
        campus: null,
      });
    },
    [selectedDoctor, filters.room, filters.part],
  );
  const openEntries = useCallback(
    (ids: readonly number[]): void => {
      const only = ids.length === 1 ? entriesById.get(ids[0] ?? -1) : undefined;
      if (only) setDraft(draftOf(only));
      else setSlotList([...ids]);
    },
    [entriesById],
  );
  // Kept between renders (as every callback the page hands down), so the dialogs are not drawn again on a view switch.
  const editEntry = useCallback((entry: Entry) => setDraft(draftOf(entry)), []);
  const closeEntry = useCallback(() => setDraft(null), []);
  const closeList = useCallback(() => setSlotList(null), []);
  const listed = useMemo(
    () => (slotList === null ? null : slotList.map((id) => entriesById.get(id)).filter((e): e is Entry => e !== undefined)),
    [slotList, entriesById],
  );
  return { draft, editEntry, closeEntry, recommended, listed, closeList, startSection, openEntries };
}

/** What the week shows while a draft is reviewed: both, the draft alone, or the timetable alone. */
export type DraftShown = 'both' | 'draft' | 'timetable';

/**
 * An auto-fill draft on screen until applied or discarded: its review rows, those staff unchecked
 * (left out of Apply, and off the calendar), and what the week shows of it.
 */
function useAutofillDraft(term: Term | null) {
  const [draftRun, setDraftRun] = useState<DraftRun | null>(null);
  const [applying, setApplying] = useState(false);
  // The rows left out are read where they are shown (the review, the draft's blocks) and when applying: a toggle redraws no page.
  const resetRows = useDraftReview((s) => s.reset);
  const [shown, setShown] = useState<DraftShown>('both');
  const rows = useMemo(() => (draftRun ? reviewRows(draftRun.result) : []), [draftRun]);
  // Every row's blocks: an unchecked one is drawn dimmed (its block reads the review), so a toggle lays nothing out again.
  const blocks = useMemo(() => draftBlocks(rows), [rows]);
  const showDraft = useCallback(
    (next: DraftRun | null) => {
      setDraftRun(next);
      resetRows();
      setShown('both');
    },
    [resetRows],
  );
  const discardDraft = useCallback(() => showDraft(null), [showDraft]);
  return {
    draftRun,
    showDraft,
    discardDraft,
    reviewRows: rows,
    draftShown: shown,
    showDraftAs: setShown,
    draftBlocks: blocks,
    applying,
    /** Stores the draft, all or nothing: the rows staff kept checked (a draft kept by id), else the same asked again, stored. */
    applyDraft: async (): Promise<void> => {
      if (!draftRun) return;
      setApplying(true);
      try {
        let done: string;
        const id = draftRun.draftId ?? draftRun.result.draft_id;
        if (id !== null) {
          const applied = await call('schedule-autofill-apply', { draft_id: id, ...selectionOf(rows, useDraftReview.getState().left) });
          done = `${applied.applied ?? 0} meetings and sections stored.`;
        } else {
          const applied = await call('schedule-autofill', { ...draftRun.request, dry_run: false, ...term });
          done =
            applied.source === 'run'
              ? `${applied.placed.length} sections added to the timetable.`
              : applied.source === 'unscheduled'
                ? `${applied.placed.length} sections without a time given one.`
                : `${applied.moved.length} meetings moved.`;
        }
        showDraft(null);
        notifyDone(done, 'Auto-fill applied');
      } catch (e) {
        notifyError(e, 'The draft could not be applied');
      } finally {
        setApplying(false);
      }
    },
  };
}

/**
 * The view shown (week, by room, by instructor), and a refused move's note, which belongs to the
 * week it was made on: leaving the Scheduler, or another view, clears it.
 */
function useSchedulerView() {
  const refusal = useScheduleView((s) => s.refusal);
  const clearRefusal = useScheduleView((s) => s.clearRefusal);
  useEffect(() => clearRefusal, [clearRefusal]);
  const [view, setViewState] = useState<SchedulerView>('week');
  const setView = useCallback(
    (next: SchedulerView) => {
      clearRefusal();
      setViewState(next);
    },
    [clearRefusal],
  );
  return { view, setView, refusal, clearRefusal };
}

/**
 * The term's exports from the screen: the sheet with the term, campus and course names (a script
 * asks the registrar's seven columns), CSV, and the filtered instructor's calendar.
 */
function useTimetableExport(term: Term | null, doctorFilter: string | null) {
  return useCallback(
    async (format: 'xlsx' | 'csv' | 'ics'): Promise<void> => {
      try {
        await transport.saveFile(
          await call('schedule-export', {
            ...term,
            format,
            ...(format === 'xlsx' ? { details: true } : {}),
            ...(format === 'ics' ? { doctor_id: Number(doctorFilter) } : {}),
          }),
        );
      } catch (e) {
        notifyError(e, 'Export failed');
      }
    },
    [term, doctorFilter],
  );
}

/**
 * The Scheduler's state and actions: the term's timetable (live), the view and filters, the
 * section being edited, the dialogs, an auto-fill draft and the exports.
 */
export function useSchedulerPage() {
  const { entries, error, term, parts } = useTimetable();
  const { view, setView, refusal, clearRefusal } = useSchedulerView();
  const showTerm = useScheduleView((s) => s.showTerm);
  const courses = useCourses();
  const doctors = useDoctors();
  const campuses = useCampusList();
  const [dialog, setDialog] = useState<SchedulerDialog | null>(null);
  const filtering = useSchedulerFilters(entries, term, doctors);
  const { filters, visible } = filtering;
  // Shared rooms and instructors: what other departments booked with them is taken, shown without names the reader may not read.
  const others = useOtherDepartments(view, filters, term);
  const rows = useResourceRows(view, visible, doctors, filters, others);
  const taken = useMemo(() => weekTaken(others, filters), [others, filters]);
  const entriesById = useMemo(() => new Map(entries.map((e) => [e.id, e])), [entries]);
  const editing = useSectionEditing(entriesById, filtering.selectedDoctor, filters);
  const autofill = useAutofillDraft(term);
  // What the week calendar draws: the filtered sections, frozen while another view is shown.
  const weekShown = useRef(visible);
  if (view === 'week') weekShown.current = visible;
  const { startSection } = editing;
  /** Free time clicked in a row of the By room or By instructor view (one callback per view: the rows are not drawn again for it). */
  const startInRow = useCallback(
    (rowKey: string, letter: string, time: string): void =>
      startSection(
        letter,
        time,
        view === 'room' ? { room: rowKey === TBD_ROOM ? '' : rowKey } : { instructorIds: rowKey === UNASSIGNED_KEY ? [] : [Number(rowKey)] },
      ),
    [startSection, view],
  );
  const closeDialog = useCallback(() => setDialog(null), []);
  const exportAs = useTimetableExport(term, filters.doctor);

  return {
    term,
    showTerm,
    entries,
    entriesById,
    parts,
    error,
    refusal,
    clearRefusal,
    courses,
    doctors,
    campuses,
    view,
    setView,
    ...filtering,
    weekShown: weekShown.current,
    /** Other departments' meetings in the room, or for the instructor, the week shows. */
    taken,
    rows,
    dialog,
    open: setDialog,
    closeDialog,
    ...editing,
    startInRow,
    ...autofill,
    exportAs,
  };
}

export type SchedulerPageState = ReturnType<typeof useSchedulerPage>;
