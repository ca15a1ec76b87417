import { tooLarge } from '../domain/bounds';
import { pushTo } from '../util/multimap';
import { bookingClashes, type Booking, type Clash, type ConflictRules, type DoctorAvailability } from './conflicts';

/**
 * A term's meetings in memory, indexed the way the rules look for clashes: by instructor, by room
 * and by section. Checking a meeting reads only the meetings it could clash with, never the whole
 * term; a budget bounds the comparisons over a whole file (a listing that piles thousands of
 * meetings into one room is refused, not compared pair by pair for minutes).
 */
export class TermBook {
  private readonly byDoctor = new Map<number, Booking[]>();
  private readonly byRoom = new Map<string, Booking[]>();
  private readonly bySection = new Map<string, Booking[]>();

  constructor(
    private readonly rules: ConflictRules,
    /** Comparisons the book may make in all (shared with other work on the same file). */
    private readonly budget: ComparisonBudget,
  ) {}

  add(booking: Booking): void {
    for (const id of booking.doctor_ids) pushTo(this.byDoctor, id, booking);
    if (booking.roomKey !== null) pushTo(this.byRoom, booking.roomKey, booking);
    pushTo(this.bySection, sectionKey(booking), booking);
  }

  /** The meetings sharing an instructor, the room or the section with `booking`. */
  private candidates(booking: Booking): Booking[] {
    const lists = [
      ...booking.doctor_ids.map((id) => this.byDoctor.get(id)),
      booking.roomKey === null ? undefined : this.byRoom.get(booking.roomKey),
      this.bySection.get(sectionKey(booking)),
    ];
    const found = new Set<Booking>();
    for (const list of lists) for (const other of list ?? []) found.add(other);
    this.budget.spend(found.size);
    return [...found];
  }

  /** The rules' clashes of `booking` with the book's meetings, at most `limit`. */
  clashes(booking: Booking, doctors: readonly DoctorAvailability[], limit: number): Clash[] {
    return bookingClashes(booking, doctors, this.candidates(booking), this.rules, limit);
  }
}

/**
 * Comparisons of meetings one piece of work (a file's import) may make in all: a real timetable
 * needs a few per meeting; a file built to need millions is refused (413), naming it.
 */
export class ComparisonBudget {
  private used = 0;

  constructor(
    readonly limit: number,
    private readonly filename: string,
  ) {}

  spend(comparisons: number): void {
    this.used += comparisons;
    if (this.used > this.limit) {
      throw tooLarge(
        this.filename,
        `it puts so many meetings in one room, with one instructor or at one time that checking them would take more than ${this.limit.toLocaleString('en-US')} comparisons; split it or check its rooms and times`,
      );
    }
  }
}

const sectionKey = (b: Pick<Booking, 'department' | 'course_code' | 'section_name'>): string => `${b.department}\u0000${b.course_code}\u0000${b.section_name}`;
