import { memo, useState } from 'react';
import { Button, Card, Group, SegmentedControl, Select, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { ResourceWeek } from '../components/ResourceWeek';
import { WeekCalendar } from '../components/WeekCalendar';
import type { DraftBlock } from '../lib/draft-review';
import type { Entry, PartOfTerm } from '../api/wire';
import { UntimedSectionsPanel } from '../components/UntimedSectionsPanel';
import { DoctorsPanel, SectionsListModal, WarningsPanel } from '../components/SchedulePanels';
import { UNASSIGNED_KEY } from '../lib/resource-rows';
import { EntryModal } from '../components/EntryModal';
import { TermPicker } from '../components/TermPicker';
import { CopyTermDialog } from '../components/CopyTermDialog';
import { ImportTimetableDialog } from '../components/ImportTimetableDialog';
import { PartsDialog } from '../components/PartsDialog';
import { DoctorModal } from '../components/DoctorModal';
import { AutofillDialog } from '../components/AutofillDialog';
import { AutofillPreview } from '../components/AutofillPreview';
import { RoomsPanel } from '../components/RoomsPanel';
import { HistoryPanel } from '../components/HistoryPanel';
import { CampusDraftNotice } from '../components/CampusDraftNotice';
import { useDrawnBelow } from '../lib/use-drawn-below';
import { useRole } from '../controllers/session';
import { ErrorNote } from '../components/ErrorNote';
import { useSchedulerPage, type SchedulerFilters, type SchedulerPageState, type SchedulerView } from '../controllers/scheduler';
import { termLabel } from '../../../core/domain/terms';

const VIEWS: { value: SchedulerView; label: string }[] = [
  { value: 'week', label: 'Week' },
  { value: 'room', label: 'By room' },
  { value: 'instructor', label: 'By instructor' },
];
const NO_DRAFT: DraftBlock[] = [];
const NO_ENTRIES: Entry[] = [];

interface FilterSelectProps {
  label: string;
  placeholder: string;
  data: readonly (string | { value: string; label: string })[];
  value: string | null;
  onChange: (value: string | null) => void;
  testId: string;
  width: number;
  searchable?: boolean;
}

/** The choices a filter lists before it is first focused: the one chosen, if any (its label shows in the box). */
function chosenOnly(data: FilterSelectProps['data'], value: string | null): FilterSelectProps['data'] {
  return value === null ? [] : data.filter((d) => (typeof d === 'string' ? d : d.value) === value);
}

/**
 * One of the toolbar's filters: cleared to show everything, disabled while there is nothing to choose
 * (and nothing chosen). Its list (hundreds of instructors and rooms in a large department) is drawn
 * once the filter is first focused, by click, tap or key, before its list opens: drawn (hidden) with
 * every Scheduler's first render, the lists cost the real summer term's about 50 ms of the main thread.
 */
function FilterSelect({ label, placeholder, data, value, onChange, testId, width, searchable = false }: FilterSelectProps) {
  const [listed, setListed] = useState(false);
  return (
    <Select
      placeholder={placeholder}
      clearable
      searchable={searchable}
      data={listed ? data : chosenOnly(data, value)}
      value={value}
      onChange={onChange}
      onFocus={() => setListed(true)}
      aria-label={label}
      data-testid={testId}
      w={width}
      disabled={data.length === 0 && value === null}
    />
  );
}

interface FilterBarProps {
  filters: SchedulerFilters;
  setFilters: (patch: Partial<SchedulerFilters>) => void;
  choices: SchedulerPageState['choices'];
  parts: readonly PartOfTerm[];
  campuses: readonly string[];
}

/** The toolbar's filters: part of term (when the term has several) and campus (when the department has several), then doctor, room and cohort. */
function filterSelects({ filters, setFilters, choices, parts, campuses }: FilterBarProps): FilterSelectProps[] {
  return [
    ...(parts.length > 1
      ? [
          {
            label: 'Filter by part of term',
            placeholder: 'All parts',
            data: parts.map((p) => ({ value: p.code, label: `${p.code} — ${p.name}` })),
            value: filters.part,
            onChange: (part: string | null) => setFilters({ part }),
            testId: 'filter-part',
            width: 160,
          },
        ]
      : []),
    ...(campuses.length > 1
      ? [
          {
            label: 'Filter by campus',
            placeholder: 'All campuses',
            data: [...campuses],
            value: filters.campus,
            onChange: (campus: string | null) => setFilters({ campus }),
            testId: 'filter-campus',
            width: 140,
          },
        ]
      : []),
    {
      label: 'Filter by doctor',
      placeholder: 'All doctors',
      data: choices.doctors,
      value: filters.doctor,
      onChange: (doctor) => setFilters({ doctor }),
      testId: 'filter-doctor',
      width: 200,
      searchable: true,
    },
    {
      label: 'Filter by room',
      placeholder: 'All rooms',
      data: choices.rooms,
      value: filters.room,
      onChange: (room) => setFilters({ room }),
      testId: 'filter-room',
      width: 150,
      searchable: true,
    },
    {
      label: 'Show the courses one cohort of students takes',
      placeholder: 'All student cohorts',
      data: choices.cohorts,
      value: filters.cohort,
      onChange: (cohort) => setFilters({ cohort }),
      testId: 'filter-cohort',
      width: 230,
      searchable: true,
    },
  ];
}

type TermBarProps = Pick<SchedulerPageState, 'term' | 'showTerm' | 'startSection' | 'open'> & { canWrite: boolean };

/** The title, the term, and what starts work on it. Drawn again only when these change (not on a view switch). */
const TermBar = memo(function TermBar({ term, canWrite, showTerm, startSection, open }: TermBarProps) {
  if (!canWrite)
    return (
      <Group gap="sm" align="end" className="tw-no-print">
        <Title order={2}>Scheduler</Title>
        {term && <TermPicker value={term} onChange={showTerm} testId="term-switcher" />}
      </Group>
    );
  return (
    <Group justify="space-between" className="tw-no-print">
      <Group gap="sm" align="end">
        <Title order={2}>Scheduler</Title>
        {term && <TermPicker value={term} onChange={showTerm} testId="term-switcher" />}
        <Button onClick={() => startSection('M', '09:00')} disabled={!term} data-testid="new-section">
          New section
        </Button>
        <Button variant="default" onClick={() => open('autofill')} data-testid="autofill-open">
          Auto-fill…
        </Button>
      </Group>
      <Group gap="xs">
        <Button variant="default" onClick={() => open('copy')} disabled={!term} data-testid="copy-open">
          Copy from term…
        </Button>
        <Button variant="default" onClick={() => open('parts')} disabled={!term}>
          Parts of term…
        </Button>
        <Button variant="default" onClick={() => open('import')} disabled={!term} data-testid="import-timetable-open">
          Import timetable…
        </Button>
        <Button variant="default" onClick={() => open('doctor')}>
          Add doctor
        </Button>
      </Group>
    </Group>
  );
});

/** The filters, drawn again only when they or their choices change (not on a view switch). */
const FilterBar = memo(function FilterBar(props: FilterBarProps) {
  return (
    <>
      {filterSelects(props).map((filter) => (
        <FilterSelect key={filter.testId} {...filter} />
      ))}
    </>
  );
});

/** Print and export what is on screen; an instructor's calendar when one is filtered. */
const OutputBar = memo(function OutputBar({ exportAs, doctor }: { exportAs: SchedulerPageState['exportAs']; doctor: string | null }) {
  return (
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
      {doctor && doctor !== UNASSIGNED_KEY && (
        <Button variant="default" onClick={() => void exportAs('ics')} data-testid="export-ics" title="This instructor's weekly timetable for a calendar app">
          Calendar (.ics)
        </Button>
      )}
    </Group>
  );
});

/** The view and its filters; print and export what is on screen. */
function ViewBar({ page }: { page: SchedulerPageState }) {
  return (
    <Group justify="space-between" className="tw-no-print">
      <Group gap="xs">
        <SegmentedControl value={page.view} onChange={(v) => page.setView(v)} data={VIEWS} aria-label="View" data-testid="view-switch" />
        <FilterBar filters={page.filters} setFilters={page.setFilters} choices={page.choices} parts={page.parts} campuses={page.campuses} />
      </Group>
      <OutputBar exportAs={page.exportAs} doctor={page.filters.doctor} />
    </Group>
  );
}

/** The printed page's title: the term, the view and every filter in force. */
function PrintTitle({ page }: { page: SchedulerPageState }) {
  const { filters } = page;
  const named = [
    filters.campus,
    filters.part === null ? null : `part ${filters.part}`,
    page.selectedDoctor?.name,
    filters.room,
    page.choices.cohorts.find((c) => c.value === filters.cohort)?.label,
  ];
  return (
    <Text className="tw-print-only" fw={600}>
      {page.term ? termLabel(page.term) : ''} timetable · {VIEWS.find((v) => v.value === page.view)?.label}
      {named.filter(Boolean).map((f) => ` · ${f}`)}
    </Text>
  );
}

/** The week, or the week by room or by instructor, of the sections on screen. */
function TimetableCard({ page, canWrite }: { page: SchedulerPageState; canWrite: boolean }) {
  return (
    <Card withBorder padding="xs" data-testid="calendar" className="tw-printable">
      {/* The week stays mounted under the other views (hidden, its sections as last shown): switching back is immediate. */}
      <WeekCalendar
        shown={page.draftRun && page.draftShown === 'draft' ? NO_ENTRIES : page.weekShown}
        entriesById={page.entriesById}
        availabilityOf={page.selectedDoctor}
        draft={page.draftRun && page.draftShown !== 'timetable' ? page.draftBlocks : NO_DRAFT}
        onCreate={canWrite ? page.startSection : null}
        onOpen={page.openEntries}
        hidden={page.view !== 'week'}
        taken={page.taken}
      />
      {page.view !== 'week' && <ResourceWeek kind={page.view} rows={page.rows} onOpen={page.openEntries} onCreate={canWrite ? page.startInRow : null} />}
      <Text size="xs" c="dimmed" mt={4}>
        Sections are drawn for their booked slot; the XLSX export prints class time, which leaves passing time in the standard slots: a 60-minute MWF slot at
        09:00 is a 09:00–09:50 class, a 90-minute TR slot a 75-minute class.
      </Text>
    </Card>
  );
}

/** What the dialogs read of the page: they are drawn again only when one of these changes (not on a view switch). */
const DIALOG_STATE = [
  'term',
  'dialog',
  'closeDialog',
  'showTerm',
  'parts',
  'courses',
  'doctors',
  'entries',
  'listed',
  'closeList',
  'draft',
  'editEntry',
  'closeEntry',
  'recommended',
  'showDraft',
] as const;
type DialogState = Pick<SchedulerPageState, (typeof DIALOG_STATE)[number]>;
const dialogState = (page: SchedulerPageState): DialogState => Object.fromEntries(DIALOG_STATE.map((key) => [key, page[key]])) as DialogState;

/** The dialogs the toolbar opens, the section being edited, and a list of sections to choose from. */
const SchedulerDialogs = memo(function SchedulerDialogs(props: DialogState & { canWrite: boolean }) {
  const { term, dialog, closeDialog, showTerm, closeList, editEntry } = props;
  return (
    <>
      <SectionsListModal listed={props.listed} onClose={closeList} onChoose={(e) => (closeList(), editEntry(e))} />
      {term && <CopyTermDialog opened={dialog === 'copy'} target={term} onClose={closeDialog} />}
      {term && (
        <ImportTimetableDialog
          opened={dialog === 'import'}
          term={term}
          onClose={closeDialog}
          onApplied={(terms) => {
            const first = terms[0];
            if (first && (first.year !== term.year || first.semester !== term.semester)) showTerm(first);
          }}
        />
      )}
      {term && <PartsDialog opened={dialog === 'parts'} term={term} parts={props.parts} onClose={closeDialog} />}
      <AutofillDialog
        opened={dialog === 'autofill'}
        term={term}
        onClose={closeDialog}
        onPreview={(request, result, draftId) => props.showDraft({ request, result, draftId })}
      />
      <EntryModal
        draft={props.draft}
        term={term}
        parts={props.parts}
        courses={props.courses}
        doctors={props.doctors}
        recommended={props.recommended}
        entries={props.entries}
        readOnly={!props.canWrite}
        onClose={props.closeEntry}
      />
      <DoctorModal opened={dialog === 'doctor'} courses={props.courses} onClose={closeDialog} />
    </>
  );
});

export function SchedulerPage() {
  const page = useSchedulerPage();
  // The panels below the week are drawn as they come into view or once the screen is quiet: a large
  // term's week is drawn first, and a view switch asked at once is not kept waiting behind them.
  const panels = useDrawnBelow();
  const { canWrite } = useRole();
  return (
    <Stack>
      <TermBar term={page.term} canWrite={canWrite} showTerm={page.showTerm} startSection={page.startSection} open={page.open} />
      <ViewBar page={page} />
      <PrintTitle page={page} />
      <ErrorNote message={page.error} />
      {page.refusal && <ErrorNote message={`Not moved: ${page.refusal.message}`} testId="schedule-refusal" onClose={page.clearRefusal} />}
      {page.draftRun && (
        <AutofillPreview
          result={page.draftRun.result}
          review={{ rows: page.reviewRows, shown: page.draftShown, onShow: page.showDraftAs }}
          applying={page.applying}
          onApply={() => void page.applyDraft()}
          onDiscard={page.discardDraft}
          readOnly={page.draftRun.readOnly}
        />
      )}
      {page.term && !page.draftRun && <CampusDraftNotice term={page.term} onReview={page.showDraft} />}
      <TimetableCard page={page} canWrite={canWrite} />
      {!panels.ready && <div ref={panels.marker} style={{ minHeight: 1 }} />}
      {panels.ready && (
        <Stack>
          {page.term && <UntimedSectionsPanel term={page.term} />}
          {page.term && <HistoryPanel term={page.term} canUndo={canWrite} />}
          <SimpleGrid cols={{ base: 1, lg: 3 }} className="tw-no-print" style={{ alignItems: 'start' }}>
            <WarningsPanel entries={page.entries} />
            <DoctorsPanel doctors={page.doctors} entries={page.entries} onPick={page.pickDoctor} />
            <RoomsPanel canWrite={canWrite} />
          </SimpleGrid>
        </Stack>
      )}
      <SchedulerDialogs canWrite={canWrite} {...dialogState(page)} />
    </Stack>
  );
}
