import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { CoreError, invalid } from '../domain/errors';
import { echo } from '../domain/bounds';
import {
  DISTRIBUTION_PARAMETERS,
  DISTRIBUTION_TYPES,
  type ClassSpec,
  type Config,
  type Course,
  type Distribution,
  type DistributionType,
  type Room,
  type Student,
  type Subpart,
  type TimeOption,
  type TimetableProblem,
} from './model';

/**
 * Reads a problem in the competition's XML format (ITC 2019) with a streaming XML parser, within
 * bounds on size, elements, nesting and values: a file that is not such a problem is refused with a
 * clear error naming the line, never a crash.
 */
export const ITC_LIMITS = {
  /** Bytes of XML (the largest published problem is about 4 MB). */
  bytes: 64 * 1024 * 1024,
  /** Elements in all. */
  elements: 5_000_000,
  /** Nesting depth (problem → courses → course → config → subpart → class → time is 7). */
  depth: 12,
  classes: 200_000,
  rooms: 20_000,
  students: 500_000,
  /** Options (times and rooms) of one class. */
  optionsPerClass: 20_000,
  days: 31,
  weeks: 520,
  slotsPerDay: 24 * 60,
} as const;

const fail = (line: number, problem: string): CoreError => invalid(`The problem file is not a competition problem (line ${line}): ${problem}`);

/** Pending references by id, resolved once the whole file is read (a class may name a parent defined later). */
interface PendingClass {
  spec: ClassSpec;
  parentId: string | null;
  roomIds: { id: string; penalty: number }[];
  line: number;
}

type Tag = SaxesTagPlain;
type PendingDistribution = Omit<Distribution, 'classes'> & { classIds: string[]; line: number };
type PendingStudent = Omit<Student, 'courses'> & { courseIds: string[]; line: number };

const tooMany = (count: number, what: string): CoreError =>
  new CoreError('too_large', `The problem file has more than ${count.toLocaleString('en-US')} ${what}`);

/**
 * One reading of a problem file: what has been read so far, the checked readers of attributes,
 * one handler per element, and the resolution of references by id once the whole file is read.
 */
class ItcReader {
  private readonly parser = new SaxesParser({ position: true });
  private name = '';
  private nrDays = 0;
  private nrWeeks = 0;
  private slotsPerDay = 0;
  private readonly weights = { time: 0, room: 0, distribution: 0, student: 0 };
  private readonly rooms: Room[] = [];
  private readonly roomIndex = new Map<string, number>();
  private readonly travelPending: { from: number; to: string; value: number; line: number }[] = [];
  private readonly classes: PendingClass[] = [];
  private readonly classIndex = new Map<string, number>();
  private readonly subparts: Subpart[] = [];
  private readonly configs: Config[] = [];
  private readonly courses: Course[] = [];
  private readonly courseIndex = new Map<string, number>();
  private readonly distributions: PendingDistribution[] = [];
  private readonly students: PendingStudent[] = [];
  private readonly weekText: string[] = [];
  private readonly weekIndex = new Map<string, number>();
  private readonly stack: string[] = [];
  private elements = 0;
  private inSolution = false;
  private classNeedsRoom = true;

  /** Each element's handler, given the tag and its parent's name; containers (rooms, courses, …) have none. */
  private readonly handlers: Record<string, (tag: Tag, parent: string | undefined) => void> = {
    problem: (tag) => this.onProblem(tag),
    optimization: (tag) => {
      this.weights.time = this.int(tag, 'time', 0);
      this.weights.room = this.int(tag, 'room', 0);
      this.weights.distribution = this.int(tag, 'distribution', 0);
      this.weights.student = this.int(tag, 'student', 0);
    },
    room: (tag, parent) => this.onRoom(tag, parent),
    travel: (tag) => this.travelPending.push({ from: this.rooms.length - 1, to: this.attr(tag, 'room'), value: this.int(tag, 'value'), line: this.line() }),
    unavailable: (tag) => this.current(this.rooms, 'unavailable').unavailable.push(this.time(tag)),
    course: (tag, parent) => {
      if (parent === 'courses') {
        const id = this.attr(tag, 'id');
        this.courseIndex.set(id, this.courses.length);
        this.courses.push({ id, configs: [] });
      } else if (parent === 'student') this.current(this.students, 'course').courseIds.push(this.attr(tag, 'id'));
    },
    config: (tag) => {
      this.current(this.courses, 'config').configs.push(this.configs.length);
      this.configs.push({ id: this.attr(tag, 'id'), course: this.courses.length - 1, subparts: [] });
    },
    subpart: (tag) => {
      this.current(this.configs, 'subpart').subparts.push(this.subparts.length);
      this.subparts.push({ id: this.attr(tag, 'id'), config: this.configs.length - 1, classes: [] });
    },
    class: (tag, parent) => {
      if (parent === 'subpart') this.onClass(tag);
      else if (parent === 'distribution') this.current(this.distributions, 'class').classIds.push(this.attr(tag, 'id'));
    },
    time: (tag) => {
      const pending = this.current(this.classes, 'time');
      if (pending.spec.times.length >= ITC_LIMITS.optionsPerClass)
        throw new CoreError('too_large', `class ${pending.spec.id} has more than ${ITC_LIMITS.optionsPerClass.toLocaleString('en-US')} times`);
      pending.spec.times.push({ ...this.time(tag), penalty: this.penalty(tag) });
    },
    distribution: (tag) => this.onDistribution(tag),
    student: (tag) => {
      if (this.students.length >= ITC_LIMITS.students) throw tooMany(ITC_LIMITS.students, 'students');
      this.students.push({ id: this.attr(tag, 'id'), courseIds: [], line: this.line() });
    },
    solution: () => {
      this.inSolution = true;
    },
  };

  read(xml: string): TimetableProblem {
    this.parser.on('opentag', (tag) => this.open(tag as Tag));
    this.parser.on('closetag', (tag) => {
      this.stack.pop();
      if (tag.name === 'solution') this.inSolution = false;
    });
    this.parser.on('error', (error) => {
      throw fail(this.line(), `not well-formed XML (${echo(error.message, 120)})`);
    });
    try {
      this.parser.write(xml).close();
    } catch (error) {
      if (error instanceof CoreError) throw error;
      throw fail(this.line(), `not well-formed XML (${echo(error instanceof Error ? error.message : String(error), 120)})`);
    }
    if (this.nrDays === 0) throw invalid('The problem file is not a competition problem: it has no <problem> element');
    return this.resolve();
  }

  private open(tag: Tag): void {
    if (++this.elements > ITC_LIMITS.elements) throw tooMany(ITC_LIMITS.elements, 'elements');
    this.stack.push(tag.name);
    if (this.stack.length > ITC_LIMITS.depth) throw fail(this.line(), 'elements nested too deep');
    // A solution inside the problem file (as the organisers' files may have) is not read.
    if (this.inSolution) return;
    const handler = Object.hasOwn(this.handlers, tag.name) ? this.handlers[tag.name] : undefined;
    handler?.(tag, this.stack[this.stack.length - 2]);
  }

  private onProblem(tag: Tag): void {
    if (this.stack.length !== 1) throw fail(this.line(), '<problem> inside another element');
    this.name = this.attr(tag, 'name', false).slice(0, 200);
    this.nrDays = this.int(tag, 'nrDays');
    this.nrWeeks = this.int(tag, 'nrWeeks');
    this.slotsPerDay = this.int(tag, 'slotsPerDay');
    if (this.nrDays < 1 || this.nrDays > ITC_LIMITS.days) throw fail(this.line(), `nrDays must be 1–${ITC_LIMITS.days}`);
    if (this.nrWeeks < 1 || this.nrWeeks > ITC_LIMITS.weeks) throw fail(this.line(), `nrWeeks must be 1–${ITC_LIMITS.weeks}`);
    if (this.slotsPerDay < 1 || this.slotsPerDay > ITC_LIMITS.slotsPerDay) throw fail(this.line(), `slotsPerDay must be 1–${ITC_LIMITS.slotsPerDay}`);
  }

  /** A room of the problem, or a room a class may use. */
  private onRoom(tag: Tag, parent: string | undefined): void {
    if (parent === 'rooms') {
      const id = this.attr(tag, 'id');
      if (this.roomIndex.has(id)) throw fail(this.line(), `room ${echo(id, 40)} is defined twice`);
      if (this.rooms.length >= ITC_LIMITS.rooms) throw tooMany(ITC_LIMITS.rooms, 'rooms');
      this.roomIndex.set(id, this.rooms.length);
      this.rooms.push({ id, capacity: this.int(tag, 'capacity', 0), unavailable: [] });
    } else if (parent === 'class') {
      // A class with room="false" meets in no room, whatever options the file lists.
      if (!this.classNeedsRoom) return;
      const pending = this.current(this.classes, 'room');
      if (pending.roomIds.length >= ITC_LIMITS.optionsPerClass)
        throw new CoreError('too_large', `class ${pending.spec.id} has more than ${ITC_LIMITS.optionsPerClass.toLocaleString('en-US')} rooms`);
      pending.roomIds.push({ id: this.attr(tag, 'id'), penalty: this.penalty(tag) });
    } else throw fail(this.line(), '<room> outside <rooms> and <class>');
  }

  private onClass(tag: Tag): void {
    const id = this.attr(tag, 'id');
    if (this.classIndex.has(id)) throw fail(this.line(), `class ${echo(id, 40)} is defined twice`);
    if (this.classes.length >= ITC_LIMITS.classes) throw tooMany(ITC_LIMITS.classes, 'classes');
    this.current(this.subparts, 'class').classes.push(this.classes.length);
    this.classIndex.set(id, this.classes.length);
    this.classes.push({
      spec: { id, limit: this.int(tag, 'limit', -1), parent: -1, subpart: this.subparts.length - 1, times: [], rooms: [] },
      parentId: this.attr(tag, 'parent', false) || null,
      roomIds: [],
      line: this.line(),
    });
    this.classNeedsRoom = (this.attr(tag, 'room', false) || 'true').toLowerCase() !== 'false';
  }

  private onDistribution(tag: Tag): void {
    const text = this.attr(tag, 'type');
    const m = /^([A-Za-z]+)(?:\(([\d,\s]*)\))?$/.exec(text);
    const type = m?.[1] as DistributionType | undefined;
    if (!m || !type || !(DISTRIBUTION_TYPES as readonly string[]).includes(type)) throw fail(this.line(), `unknown distribution type "${echo(text, 40)}"`);
    const params = (m[2] ?? '')
      .split(',')
      .filter((p) => p.trim() !== '')
      .map(Number);
    if ((DISTRIBUTION_PARAMETERS[type] ?? 0) !== params.length || params.some((p) => !Number.isSafeInteger(p) || p < 0)) {
      throw fail(this.line(), `${type} takes ${DISTRIBUTION_PARAMETERS[type] ?? 0} whole-number parameters, not "${echo(text, 40)}"`);
    }
    const required = this.attr(tag, 'required', false).toLowerCase() === 'true';
    this.distributions.push({ type, params, required, penalty: required ? 0 : this.penalty(tag), classIds: [], line: this.line() });
  }

  private line(): number {
    return this.parser.line;
  }

  private attr(tag: Tag, key: string, required = true): string {
    const value = tag.attributes[key];
    if (value === undefined) {
      if (required) throw fail(this.line(), `<${tag.name}> has no ${key}`);
      return '';
    }
    if (value.length > 1_000) throw fail(this.line(), `<${tag.name}> ${key} is longer than 1,000 characters`);
    return value;
  }

  private int(tag: Tag, key: string, fallback?: number): number {
    const text = this.attr(tag, key, fallback === undefined);
    if (text === '' && fallback !== undefined) return fallback;
    const value = Number(text);
    if (!Number.isSafeInteger(value)) throw fail(this.line(), `<${tag.name}> ${key}="${echo(text, 20)}" is not a whole number`);
    return value;
  }

  private bits(tag: Tag, key: string, length: number, what: string): string {
    const text = this.attr(tag, key);
    if (text.length !== length || /[^01]/.test(text))
      throw fail(this.line(), `<${tag.name}> ${key}="${echo(text, 40)}" is not ${length} ${what} written as 0s and 1s`);
    return text;
  }

  private days(tag: Tag): number {
    const text = this.bits(tag, 'days', this.nrDays, 'days');
    let mask = 0;
    for (let d = 0; d < text.length; d++) if (text[d] === '1') mask |= 1 << d;
    return mask;
  }

  /** A week pattern's index: each distinct pattern is kept once. */
  private weeks(tag: Tag): number {
    const text = this.bits(tag, 'weeks', this.nrWeeks, 'weeks');
    let id = this.weekIndex.get(text);
    if (id === undefined) {
      id = this.weekText.length;
      this.weekText.push(text);
      this.weekIndex.set(text, id);
    }
    return id;
  }

  private time(tag: Tag): Omit<TimeOption, 'penalty'> {
    const start = this.int(tag, 'start');
    const length = this.int(tag, 'length');
    if (start < 0 || length <= 0 || start + length > this.slotsPerDay)
      throw fail(this.line(), `<${tag.name}> start ${start} and length ${length} do not fit in a day of ${this.slotsPerDay} slots`);
    return { days: this.days(tag), start, length, weeks: this.weeks(tag) };
  }

  private penalty(tag: Tag): number {
    const value = this.int(tag, 'penalty', 0);
    if (value < 0) throw fail(this.line(), `<${tag.name}> has a negative penalty`);
    return value;
  }

  /** The element being read of a list (a class's room is the last class's). */
  private current<T>(list: T[], what: string): T {
    const item = list[list.length - 1];
    if (item === undefined) throw fail(this.line(), `<${what}> outside its parent element`);
    return item;
  }

  /** References by id, now that everything is read. */
  private resolve(): TimetableProblem {
    const { rooms, roomIndex, classIndex, courseIndex } = this;
    const travel = new Int32Array(rooms.length * rooms.length);
    for (const t of this.travelPending) {
      const to = roomIndex.get(t.to);
      if (to === undefined || t.from < 0) throw fail(t.line, `travel to unknown room ${echo(t.to, 40)}`);
      if (t.value < 0) throw fail(t.line, 'negative travel time');
      travel[t.from * rooms.length + to] = t.value;
      travel[to * rooms.length + t.from] = t.value;
    }
    const specs: ClassSpec[] = this.classes.map((pending) => {
      const spec = pending.spec;
      if (pending.parentId !== null) {
        const parent = classIndex.get(pending.parentId);
        if (parent === undefined) throw fail(pending.line, `class ${spec.id} has unknown parent ${echo(pending.parentId, 40)}`);
        spec.parent = parent;
      }
      spec.rooms = pending.roomIds.map((r) => {
        const room = roomIndex.get(r.id);
        if (room === undefined) throw fail(pending.line, `class ${spec.id} allows unknown room ${echo(r.id, 40)}`);
        return { room, penalty: r.penalty };
      });
      if (spec.times.length === 0) throw fail(pending.line, `class ${spec.id} has no time`);
      return spec;
    });
    const resolveClass = (id: string, at: number): number => {
      const index = classIndex.get(id);
      if (index === undefined) throw fail(at, `unknown class ${echo(id, 40)}`);
      return index;
    };
    return {
      name: this.name,
      nrDays: this.nrDays,
      nrWeeks: this.nrWeeks,
      slotsPerDay: this.slotsPerDay,
      weights: this.weights,
      rooms,
      travel,
      weekPatterns: { text: this.weekText, weeks: this.weekText.map((text) => [...text].flatMap((c, w) => (c === '1' ? [w] : []))) },
      classes: specs,
      subparts: this.subparts,
      configs: this.configs,
      courses: this.courses,
      distributions: this.distributions.map(({ classIds, line: at, ...d }) => ({ ...d, classes: classIds.map((id) => resolveClass(id, at)) })),
      students: this.students.map(({ courseIds, line: at, ...s }) => ({
        ...s,
        courses: courseIds.map((id) => {
          const course = courseIndex.get(id);
          if (course === undefined) throw fail(at, `student ${s.id} needs unknown course ${echo(id, 40)}`);
          return course;
        }),
      })),
    };
  }
}

/** Reads one problem file (see ITC_LIMITS for what is refused). */
export function readItcProblem(xml: string): TimetableProblem {
  if (xml.length > ITC_LIMITS.bytes) throw new CoreError('too_large', `The problem file is larger than ${ITC_LIMITS.bytes / 1024 / 1024} MB`);
  return new ItcReader().read(xml);
}
