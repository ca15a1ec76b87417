import { useState } from 'react';
import { Alert, Badge, Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { DAY_NAMES } from '../../../core/domain/days';
import { termLabel } from '../../../core/domain/terms';
import { ErrorNote } from '../components/ErrorNote';
import { TermPicker } from '../components/TermPicker';
import { useCampusPage, type CampusRoomRow, type CampusShownBooking } from '../controllers/campus';
import type { CampusDraftShown } from '../controllers/campus-autofill';
import { VIEW_DAYS } from '../lib/resource-rows';
import { useRole } from '../controllers/session';
import { CampusAutofillDialog } from '../components/CampusAutofillDialog';

function Booking({ booking }: { booking: CampusShownBooking }) {
  const kind = booking.own ? 'own' : booking.department === null ? 'hidden' : 'other';
  return (
    <li
      className={`tw-campus-booking tw-campus-${kind}${booking.draft === undefined ? '' : ' tw-campus-draft'}`}
      data-testid={booking.draft === undefined ? 'campus-booking' : 'campus-draft-booking'}
      title={booking.draft}
    >
      <span className="tw-campus-time">
        {booking.start_time}–{booking.end_time}
      </span>{' '}
      <span>{booking.label}</span>
      {booking.part_of_term !== '1' && <span className="tw-campus-part"> · part {booking.part_of_term}</span>}
      {booking.draft !== undefined && <span className="tw-campus-part"> · {booking.draft}</span>}
    </li>
  );
}

function RoomRow({ row }: { row: CampusRoomRow }) {
  return (
    <tr data-testid={`campus-room-${row.name}`}>
      <th scope="row" className="tw-resource-name">
        <div>{row.name}</div>
        <Text size="xs" c="dimmed">
          {[row.campus, row.capacity === null ? null : `${row.capacity} seats`, row.department === null ? 'shared' : `${row.department} only`]
            .filter(Boolean)
            .join(' · ')}
        </Text>
      </th>
      {VIEW_DAYS.map((letter) => (
        <td key={letter}>
          <ul className="tw-campus-day">
            {row.days[letter].map((b, i) => (
              <Booking key={`${b.start_time}-${i}`} booking={b} />
            ))}
          </ul>
        </td>
      ))}
    </tr>
  );
}

type CampusPageController = ReturnType<typeof useCampusPage>;

/**
 * The campus week: the rooms this department books (the shared pool and its own; every room for
 * the registrar) with every department's meetings in them. Another department's meeting reads
 * "Booked by another department" unless the viewer may read that department.
 */
export function CampusPage() {
  const [shown, setShown] = useState<CampusDraftShown | null>(null);
  const page = useCampusPage(shown?.result ?? null);
  const { isRegistrar } = useRole();
  const [filling, setFilling] = useState(false);
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Campus week</Title>
        {isRegistrar && page.term && (
          <Button variant="default" onClick={() => setFilling(true)} data-testid="campus-autofill-open">
            Auto-fill the campus…
          </Button>
        )}
      </Group>
      {page.term && (
        <CampusAutofillDialog
          opened={filling}
          term={page.term}
          onClose={() => {
            setFilling(false);
            setShown(null);
          }}
          onShow={(draft) => {
            setShown(draft);
            setFilling(false);
          }}
        />
      )}
      {shown && <DraftShownNote shown={shown} onHide={() => setShown(null)} onBack={() => setFilling(true)} />}
      <Text size="sm" c="dimmed">
        Every department&apos;s bookings in the rooms you book: a room booked anywhere is taken everywhere.
      </Text>
      <CampusFilters page={page} />
      <ErrorNote message={page.error} />
      {page.week && page.rows.length === 0 && (
        <Text data-testid="campus-empty">No rooms are declared for {termLabel(page.week.term)} yet: add rooms in the Scheduler.</Text>
      )}
      {page.rows.length > 0 && <CampusWeekTable rows={page.rows} />}
    </Stack>
  );
}

/** The campus auto-fill's draft drawn on the week: what it shows, and the ways back to the timetable or the draft. */
function DraftShownNote({ shown, onHide, onBack }: { shown: CampusDraftShown; onHide: () => void; onBack: () => void }) {
  return (
    <Alert color="blue" title="The campus auto-fill draft, on the week" data-testid="campus-draft-shown">
      <Group justify="space-between">
        <Text size="sm">
          {shown.result.moved.length} meetings at the draft&apos;s places (dashed, each saying where it was); {shown.result.unplaced.length} left without a time
          are not shown. Nothing is stored until you apply it.
        </Text>
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={onHide} data-testid="campus-draft-hide">
            Show the timetable as it is
          </Button>
          <Button size="xs" onClick={onBack} data-testid="campus-draft-back">
            Back to the draft…
          </Button>
        </Group>
      </Group>
    </Alert>
  );
}

/** The term, campus and room the week shows, and the key to its colours. */
function CampusFilters({ page }: { page: CampusPageController }) {
  return (
    <Group align="end">
      {page.term && <TermPicker label="Term" value={page.term} onChange={page.showTerm} testId="campus-term" />}
      {page.campuses.length > 1 && (
        <Select
          label="Campus"
          clearable
          placeholder="Every campus"
          data={page.campuses}
          value={page.campus}
          onChange={page.showCampus}
          w={200}
          data-testid="campus-filter"
        />
      )}
      <Select
        label="Room"
        searchable
        clearable
        placeholder="Every room"
        data={page.roomNames}
        value={page.room}
        onChange={page.showRoom}
        w={220}
        data-testid="campus-room"
      />
      <Group gap={6} pb={4}>
        <Badge className="tw-campus-own" variant="light">
          this department
        </Badge>
        <Badge color="gray" variant="light">
          other departments
        </Badge>
      </Group>
    </Group>
  );
}

/** One row per room, one column per day, each day's bookings in order. */
function CampusWeekTable({ rows }: { rows: readonly CampusRoomRow[] }) {
  return (
    <div className="tw-resource-scroll">
      <table className="tw-resource-week tw-campus-week" aria-label="Campus week by room" data-testid="campus-week">
        <thead>
          <tr>
            <th scope="col" className="tw-resource-name">
              Room
            </th>
            {VIEW_DAYS.map((letter) => (
              <th scope="col" key={letter}>
                {DAY_NAMES[letter]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <RoomRow key={row.name} row={row} />
          ))}
        </tbody>
      </table>
    </div>
  );
}
