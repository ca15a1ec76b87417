import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { CoreError, invalid } from '../domain/errors';
import { echo } from '../domain/bounds';
import { DISTRIBUTION_PARAMETERS, DISTRIBUTION_TYPES, type ClassSpec, type Config, type Course, type Distribution, type DistributionType, type Room, type Student, type Subpart, type TimeOption, type TimetableProblem } from './model';

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

export function readItcProblem(xml: string): TimetableProblem {
  if (xml.length > ITC_LIMITS.bytes) throw new CoreError('too_large', `The problem file is larger than ${ITC_LIMITS.bytes / 1024 / 1024} MB`);
  const parser = new SaxesParser({ position: true });
  let name = '';
  let nrDays = 0;
  let nrWeeks = 0;
  let slotsPerDay = 0;
  const weights = { time: 0, room: 0, distribution: 0, student: 0 };
  const rooms: Room[] = [];
  const roomIndex = new Map<string, number>();
  const travelPending: { from: number; to: string; value: number; line: number }[] = [];
  const classes: PendingClass[] = [];
  const classIndex = new Map<string, number>();
  const subparts: Subpart[] = [];
  const configs: Config[] = [];
  const courses: Course[] = [];
  const courseIndex = new Map<string, number>();
  const distributions: (Omit<Distribution, 'classes'> & { classIds: string[]; line: number })[] = [];
  const students: (Omit<Student, 'courses'> & { courseIds: string[]; line: number })[] = [];
  const weekText: string[] = [];
  const weekIndex = new Map<string, number>();
  const stack: string[] = [];
  let elements = 0;
  let inSolution = false;
  let classNeedsRoom = true;

  const line = (): number => parser.line;
  const attr = (tag: SaxesTagPlain, key: string, required = true): string => {
    const value = tag.attributes[key];
    if (value === undefined) {
      if (required) throw fail(line(), `<${tag.name}> has no ${key}`);
      return '';
    }
    if (value.length > 1_000) throw fail(line(), `<${tag.name}> ${key} is longer than 1,000 characters`);
    return value;
  };
  const int = (tag: SaxesTagPlain, key: string, fallback?: number): number => {
    const text = attr(tag, key, fallback === undefined);
    if (text === '' && fallback !== undefined) return fallback;
    const value = Number(text);
    if (!Number.isSafeInteger(value)) throw fail(line(), `<${tag.name}> ${key}="${echo(text, 20)}" is not a whole number`);
    return value;
  };
  const bits = (tag: SaxesTagPlain, key: string, length: number, what: string): string => {
    const text = attr(tag, key);
    if (text.length !== length || /[^01]/.test(text)) throw fail(line(), `<${tag.name}> ${key}="${echo(text, 40)}" is not ${length} ${what} written as 0s and 1s`);
    return text;
  };
  const days = (tag: SaxesTagPlain): number => {
    const text = bits(tag, 'days', nrDays, 'days');
    let mask = 0;
    for (let d = 0; d < text.length; d++) if (text[d] === '1') mask |= 1 << d;
    return mask;
  };
  const weeks = (tag: SaxesTagPlain): number => {
    const text = bits(tag, 'weeks', nrWeeks, 'weeks');
    let id = weekIndex.get(text);
    if (id === undefined) {
      id = weekText.length;
      weekText.push(text);
      weekIndex.set(text, id);
    }
    return id;
  };
  const time = (tag: SaxesTagPlain): Omit<TimeOption, 'penalty'> => {
    const start = int(tag, 'start');
    const length = int(tag, 'length');
    if (start < 0 || length <= 0 || start + length > slotsPerDay) throw fail(line(), `<${tag.name}> start ${start} and length ${length} do not fit in a day of ${slotsPerDay} slots`);
    return { days: days(tag), start, length, weeks: weeks(tag) };
  };
  const penalty = (tag: SaxesTagPlain): number => {
    const value = int(tag, 'penalty', 0);
    if (value < 0) throw fail(line(), `<${tag.name}> has a negative penalty`);
    return value;
  };
  const current = <T>(list: T[], what: string): T => {
    const item = list[list.length - 1];
    if (item === undefined) throw fail(line(), `<${what}> outside its parent element`);
    return item;
  };

  parser.on('opentag', (tag) => {
    const node = tag as SaxesTagPlain;
    if (++elements > ITC_LIMITS.elements) throw new CoreError('too_large', `The problem file has more than ${ITC_LIMITS.elements.toLocaleString('en-US')} elements`);
    stack.push(node.name);
    if (stack.length > ITC_LIMITS.depth) throw fail(line(), 'elements nested too deep');
    const parent = stack[stack.length - 2];
    if (inSolution) return;
    switch (node.name) {
      case 'problem':
        if (stack.length !== 1) throw fail(line(), '<problem> inside another element');
        name = attr(node, 'name', false).slice(0, 200);
        nrDays = int(node, 'nrDays');
        nrWeeks = int(node, 'nrWeeks');
        slotsPerDay = int(node, 'slotsPerDay');
        if (nrDays < 1 || nrDays > ITC_LIMITS.days) throw fail(line(), `nrDays must be 1–${ITC_LIMITS.days}`);
        if (nrWeeks < 1 || nrWeeks > ITC_LIMITS.weeks) throw fail(line(), `nrWeeks must be 1–${ITC_LIMITS.weeks}`);
        if (slotsPerDay < 1 || slotsPerDay > ITC_LIMITS.slotsPerDay) throw fail(line(), `slotsPerDay must be 1–${ITC_LIMITS.slotsPerDay}`);
        return;
      case 'optimization':
        weights.time = int(node, 'time', 0);
        weights.room = int(node, 'room', 0);
        weights.distribution = int(node, 'distribution', 0);
        weights.student = int(node, 'student', 0);
        return;
      case 'room': {
        if (parent === 'rooms') {
          const id = attr(node, 'id');
          if (roomIndex.has(id)) throw fail(line(), `room ${echo(id, 40)} is defined twice`);
          if (rooms.length >= ITC_LIMITS.rooms) throw new CoreError('too_large', `The problem file has more than ${ITC_LIMITS.rooms.toLocaleString('en-US')} rooms`);
          roomIndex.set(id, rooms.length);
          rooms.push({ id, capacity: int(node, 'capacity', 0), unavailable: [] });
        } else if (parent === 'class') {
          // A class with room="false" meets in no room, whatever options the file lists.
          if (!classNeedsRoom) return;
          const pending = current(classes, 'room');
          if (pending.roomIds.length >= ITC_LIMITS.optionsPerClass) throw new CoreError('too_large', `class ${pending.spec.id} has more than ${ITC_LIMITS.optionsPerClass.toLocaleString('en-US')} rooms`);
          pending.roomIds.push({ id: attr(node, 'id'), penalty: penalty(node) });
        } else throw fail(line(), '<room> outside <rooms> and <class>');
        return;
      }
      case 'travel':
        travelPending.push({ from: rooms.length - 1, to: attr(node, 'room'), value: int(node, 'value'), line: line() });
        return;
      case 'unavailable':
        current(rooms, 'unavailable').unavailable.push(time(node));
        return;
      case 'course': {
        if (parent === 'courses') {
          const id = attr(node, 'id');
          courseIndex.set(id, courses.length);
          courses.push({ id, configs: [] });
        } else if (parent === 'student') current(students, 'course').courseIds.push(attr(node, 'id'));
        return;
      }
      case 'config': {
        const course = current(courses, 'config');
        course.configs.push(configs.length);
        configs.push({ id: attr(node, 'id'), course: courses.length - 1, subparts: [] });
        return;
      }
      case 'subpart': {
        const config = current(configs, 'subpart');
        config.subparts.push(subparts.length);
        subparts.push({ id: attr(node, 'id'), config: configs.length - 1, classes: [] });
        return;
      }
      case 'class': {
        if (parent === 'subpart') {
          const id = attr(node, 'id');
          if (classIndex.has(id)) throw fail(line(), `class ${echo(id, 40)} is defined twice`);
          if (classes.length >= ITC_LIMITS.classes) throw new CoreError('too_large', `The problem file has more than ${ITC_LIMITS.classes.toLocaleString('en-US')} classes`);
          const subpart = current(subparts, 'class');
          subpart.classes.push(classes.length);
          classIndex.set(id, classes.length);
          const limit = int(node, 'limit', -1);
          classes.push({
            spec: { id, limit, parent: -1, subpart: subparts.length - 1, times: [], rooms: [] },
            parentId: attr(node, 'parent', false) || null,
            roomIds: [],
            line: line(),
          });
          classNeedsRoom = (attr(node, 'room', false) || 'true').toLowerCase() !== 'false';
        } else if (parent === 'distribution') current(distributions, 'class').classIds.push(attr(node, 'id'));
        return;
      }
      case 'time': {
        const pending = current(classes, 'time');
        if (pending.spec.times.length >= ITC_LIMITS.optionsPerClass) throw new CoreError('too_large', `class ${pending.spec.id} has more than ${ITC_LIMITS.optionsPerClass.toLocaleString('en-US')} times`);
        pending.spec.times.push({ ...time(node), penalty: penalty(node) });
        return;
      }
      case 'distribution': {
        const text = attr(node, 'type');
        const m = /^([A-Za-z]+)(?:\(([\d,\s]*)\))?$/.exec(text);
        const type = m?.[1] as DistributionType | undefined;
        if (!m || !type || !(DISTRIBUTION_TYPES as readonly string[]).includes(type)) throw fail(line(), `unknown distribution type "${echo(text, 40)}"`);
        const params = (m[2] ?? '').split(',').filter((p) => p.trim() !== '').map(Number);
        if ((DISTRIBUTION_PARAMETERS[type] ?? 0) !== params.length || params.some((p) => !Number.isSafeInteger(p) || p < 0)) throw fail(line(), `${type} takes ${DISTRIBUTION_PARAMETERS[type] ?? 0} whole-number parameters, not "${echo(text, 40)}"`);
        const required = attr(node, 'required', false).toLowerCase() === 'true';
        distributions.push({ type, params, required, penalty: required ? 0 : penalty(node), classIds: [], line: line() });
        return;
      }
      case 'student': {
        if (students.length >= ITC_LIMITS.students) throw new CoreError('too_large', `The problem file has more than ${ITC_LIMITS.students.toLocaleString('en-US')} students`);
        students.push({ id: attr(node, 'id'), courseIds: [], line: line() });
        return;
      }
      case 'solution':
        inSolution = true;
        return;
      default:
        return; // rooms, courses, distributions, students: containers
    }
  });
  parser.on('closetag', (tag) => {
    stack.pop();
    if (tag.name === 'solution') inSolution = false;
  });
  parser.on('error', (error) => {
    throw fail(line(), `not well-formed XML (${echo(error.message, 120)})`);
  });
  try {
    parser.write(xml).close();
  } catch (error) {
    if (error instanceof CoreError) throw error;
    throw fail(line(), `not well-formed XML (${echo(error instanceof Error ? error.message : String(error), 120)})`);
  }
  if (nrDays === 0) throw invalid('The problem file is not a competition problem: it has no <problem> element');

  // References by id, now that everything is read.
  const travel = new Int32Array(rooms.length * rooms.length);
  for (const t of travelPending) {
    const to = roomIndex.get(t.to);
    if (to === undefined || t.from < 0) throw fail(t.line, `travel to unknown room ${echo(t.to, 40)}`);
    if (t.value < 0) throw fail(t.line, 'negative travel time');
    travel[t.from * rooms.length + to] = t.value;
    travel[to * rooms.length + t.from] = t.value;
  }
  const specs: ClassSpec[] = classes.map((pending) => {
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
    name,
    nrDays,
    nrWeeks,
    slotsPerDay,
    weights,
    rooms,
    travel,
    weekPatterns: { text: weekText, weeks: weekText.map((text) => [...text].flatMap((c, w) => (c === '1' ? [w] : []))) },
    classes: specs,
    subparts,
    configs,
    courses,
    distributions: distributions.map(({ classIds, line: at, ...d }) => ({ ...d, classes: classIds.map((id) => resolveClass(id, at)) })),
    students: students.map(({ courseIds, line: at, ...s }) => ({
      ...s,
      courses: courseIds.map((id) => {
        const course = courseIndex.get(id);
        if (course === undefined) throw fail(at, `student ${s.id} needs unknown course ${echo(id, 40)}`);
        return course;
      }),
    })),
  };
}
