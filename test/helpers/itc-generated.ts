import { SeededRandom } from '../../core/util/random';
import { readItcProblem } from '../../core/solver/itc-reader';
import type { Assignment, TimetableProblem } from '../../core/solver/model';
import { distributionViolations, placedClasses } from '../../core/solver/score';

/**
 * Competition problems generated from a seed, for the solver's tests: each the same on every run,
 * with every distribution type (those the shared problems lack too), rooms with travel and
 * unavailable times, classes without a room, parent classes and students.
 */

/** Every distribution type of the competition, as written in a file, with parameters where it takes them. */
export const DISTRIBUTION_TYPES: readonly ((g: SeededRandom) => string)[] = [
  ...['SameStart', 'SameTime', 'DifferentTime', 'SameDays', 'DifferentDays', 'SameWeeks', 'DifferentWeeks', 'Overlap', 'NotOverlap'].map((t) => () => t),
  ...['SameRoom', 'DifferentRoom', 'SameAttendees', 'Precedence'].map((t) => () => t),
  (g) => `WorkDay(${g.int(24, 96)})`,
  (g) => `MinGap(${g.int(2, 24)})`,
  (g) => `MaxDays(${g.int(1, 3)})`,
  (g) => `MaxDayLoad(${g.int(24, 60)})`,
  (g) => `MaxBreaks(${g.int(0, 1)},${g.int(2, 12)})`,
  (g) => `MaxBlock(${g.int(24, 48)},${g.int(2, 12)})`,
];

const DAYS = 5;
const WEEKS = 4;

interface Time {
  days: number;
  start: number;
  length: number;
  weeks: number;
}

/** A mask as the file's string of 0s and 1s, its first bit first. */
const pattern = (mask: number, width: number): string => Array.from({ length: width }, (_, k) => ((mask >> k) & 1 ? '1' : '0')).join('');
const overlap = (a: Time, b: Time): boolean =>
  (a.days & b.days) !== 0 && (a.weeks & b.weeks) !== 0 && a.start < b.start + b.length && b.start < a.start + a.length;

/** A mask of `width` bits with at least one set. */
function mask(g: SeededRandom, width: number): number {
  let out = 1 << g.int(0, width - 1);
  for (let k = 0; k < width; k++) if (g.next() < 0.35) out |= 1 << k;
  return out;
}

const randomTime = (g: SeededRandom): Time => ({ days: mask(g, DAYS), start: g.int(15, 33) * 6, length: g.pick([10, 12, 18, 22]), weeks: mask(g, WEEKS) });
const timeXml = (g: SeededRandom, t: Time): string =>
  `<time days="${pattern(t.days, DAYS)}00" start="${t.start}" length="${t.length}" weeks="${pattern(t.weeks, WEEKS)}" penalty="${g.int(0, 4)}"/>`;
/** A problem file of the parts given: `WEEKS` weeks weighed time 2, room 1, distribution 5, student 3 unless told otherwise. */
const problemXml = (
  name: string,
  parts: { rooms: string; courses: string; distributions: string; students: string },
  shape: { weeks: number; weights: string } = { weeks: WEEKS, weights: 'time="2" room="1" distribution="5" student="3"' },
): string =>
  `<problem name="${name}" nrDays="7" nrWeeks="${shape.weeks}" slotsPerDay="288">` +
  `<optimization ${shape.weights}/>` +
  `<rooms>${parts.rooms}</rooms><courses>${parts.courses}</courses>` +
  `<distributions>${parts.distributions}</distributions><students>${parts.students}</students></problem>`;
/** A student needing `courses` (ids from 1). */
const studentXml = (id: number, courses: readonly number[]): string => `<student id="${id}">${courses.map((c) => `<course id="${c}"/>`).join('')}</student>`;
const studentsXml = (g: SeededRandom, count: number, courses: number): string =>
  Array.from({ length: count }, (_, s) => studentXml(s + 1, [...new Set(Array.from({ length: g.int(2, 3) }, () => g.int(1, courses)))])).join('');
const membersXml = (members: readonly number[]): string => members.map((id) => `<class id="${id}"/>`).join('');

/**
 * A small problem with two soft distributions of every type and a few required pairs apart; its
 * courses have a lecture or two and perhaps labs under each, with seats for every student.
 */
export function softProblemXml(seed: number): string {
  const g = new SeededRandom(seed);
  const roomCount = 5;
  const students = 25;
  const rooms = Array.from({ length: roomCount }, (_, r) => {
    const travel = Array.from({ length: r }, (_, other) => (g.int(0, 2) === 0 ? `<travel room="${other + 1}" value="${g.int(1, 6)}"/>` : '')).join('');
    const away = randomTime(g);
    const unavailable =
      g.int(0, 2) === 0
        ? `<unavailable days="${pattern(away.days, DAYS)}00" start="${away.start}" length="${away.length}" weeks="${pattern(away.weeks, WEEKS)}"/>`
        : '';
    return `<room id="${r + 1}" capacity="${g.int(10, 60)}">${travel}${unavailable}</room>`;
  }).join('');
  const classIds: number[] = [];
  const klass = (limit: number, parent: number | null): string => {
    const id = classIds.length + 1;
    classIds.push(id);
    const roomless = g.int(0, 4) === 0;
    const options = roomless
      ? ''
      : [...new Set(Array.from({ length: g.int(1, 3) }, () => g.int(1, roomCount)))].map((r) => `<room id="${r}" penalty="${g.int(0, 3)}"/>`).join('');
    const times = Array.from({ length: g.int(3, 6) }, () => timeXml(g, randomTime(g))).join('');
    return `<class id="${id}" limit="${limit}"${parent === null ? '' : ` parent="${parent}"`}${roomless ? ' room="false"' : ''}>${options}${times}</class>`;
  };
  const courseCount = 6;
  let subpartId = 0;
  const courses = Array.from({ length: courseCount }, (_, c) => {
    // Seats for every student who may take the course, some classes full.
    const lectureCount = g.int(1, 2);
    const lectureLimit = Math.ceil(students / lectureCount) + g.int(0, 4);
    const lectures = Array.from({ length: lectureCount }, () => klass(lectureLimit, null));
    const lectureIds = classIds.slice(-lectures.length);
    const labsEach = g.int(0, 2);
    const labs = lectureIds.flatMap((lecture) => Array.from({ length: labsEach }, () => klass(Math.ceil(lectureLimit / labsEach) + g.int(0, 3), lecture)));
    const subparts = [lectures, labs].filter((s) => s.length > 0).map((s) => `<subpart id="${++subpartId}">${s.join('')}</subpart>`);
    return `<course id="${c + 1}"><config id="${c + 1}">${subparts.join('')}</config></course>`;
  }).join('');
  const members = (): number[] => [...new Set(Array.from({ length: g.int(2, 4) }, () => g.pick(classIds)))];
  const soft = DISTRIBUTION_TYPES.flatMap((type) =>
    [0, 1].map(() => `<distribution type="${type(g)}" penalty="${g.int(1, 5)}">${membersXml(members())}</distribution>`),
  );
  const apart = Array.from({ length: 3 }, () => [g.pick(classIds), g.pick(classIds)]).filter(([a, b]) => a !== b);
  const required = apart.map((pair) => `<distribution type="${g.pick(['NotOverlap', 'DifferentTime'])}" required="true">${membersXml(pair)}</distribution>`);
  return problemXml(`generated-${seed}`, { rooms, courses, distributions: [...soft, ...required].join(''), students: studentsXml(g, students, courseCount) });
}

/**
 * A problem with a planted valid timetable, tight by design: `classes` one-class courses on `rooms`
 * rooms, each class a few times and rooms of which one is planted (no two planted classes in one room
 * at once), and of three candidate distributions a class (every type, two to four classes each) those
 * the planted timetable holds required, the rest soft. It is valid; how fast a valid one is found is
 * what it measures.
 */
export function plantedProblem(seed: number, size: { classes: number; rooms: number }): TimetableProblem {
  const g = new SeededRandom(seed);
  const held: Time[][] = Array.from({ length: size.rooms }, () => []);
  const classes: { times: Time[]; rooms: number[]; time: number; room: number }[] = [];
  while (classes.length < size.classes) {
    const times = Array.from({ length: g.int(4, 10) }, () => randomTime(g));
    const time = g.int(0, times.length - 1);
    const planted = times[time] as Time;
    const rooms = g.int(0, 9) === 0 ? [] : [...new Set(Array.from({ length: g.int(1, 4) }, () => g.int(0, size.rooms - 1)))];
    const free = rooms.flatMap((r, k) => ((held[r] ?? []).some((t) => overlap(t, planted)) ? [] : [k]));
    if (rooms.length > 0 && free.length === 0) continue;
    const room = rooms.length === 0 ? -1 : g.pick(free);
    if (room >= 0) held[rooms[room] as number]?.push(planted);
    classes.push({ times, rooms, time, room });
  }
  const courses = classes
    .map((c, k) => {
      const options = c.rooms.map((r) => `<room id="${r + 1}" penalty="${g.int(0, 2)}"/>`).join('');
      const klass = `<class id="${k + 1}" limit="40"${c.rooms.length === 0 ? ' room="false"' : ''}>${options}${c.times.map((t) => timeXml(g, t)).join('')}</class>`;
      return `<course id="${k + 1}"><config id="${k + 1}"><subpart id="${k + 1}">${klass}</subpart></config></course>`;
    })
    .join('');
  const rooms = Array.from({ length: size.rooms }, (_, r) => `<room id="${r + 1}" capacity="40"/>`).join('');
  const candidates = Array.from({ length: 3 * size.classes }, () => ({
    type: g.pick(DISTRIBUTION_TYPES)(g),
    members: [...new Set(Array.from({ length: g.int(2, 4) }, () => g.int(1, size.classes)))],
    penalty: g.int(1, 5),
  }));
  const all = readItcProblem(
    problemXml(`planted-${seed}`, {
      rooms,
      courses,
      distributions: candidates.map((d) => `<distribution type="${d.type}" penalty="${d.penalty}">${membersXml(d.members)}</distribution>`).join(''),
      students: studentsXml(g, 40, size.classes),
    }),
  );
  const plantedTimetable: Assignment = { time: Int32Array.from(classes, (c) => c.time), room: Int32Array.from(classes, (c) => c.room), students: [] };
  const broken = distributionViolations(all, placedClasses(all, plantedTimetable));
  // Required as the reader makes a required one: no penalty.
  return { ...all, distributions: all.distributions.map((d, k) => ((broken[k] ?? 0) === 0 ? { ...d, required: true, penalty: 0 } : d)) };
}

/**
 * What a generated problem is made of beyond its size: distributions among random classes (so many per
 * class, of 2 to `largestGroup` classes each), the tenths of them that are a required SameAttendees, the
 * soft types the rest are drawn from (a type listed twice twice as often), and the weights of the four parts.
 */
export interface ProblemShape {
  distributionsPerClass: number;
  largestGroup: number;
  requiredTenths: number;
  soft: readonly string[];
  weights: string;
}

/** The large problem's shape: a distribution for every four classes, four in ten a required SameAttendees. */
export const LARGE_SHAPE: ProblemShape = {
  distributionsPerClass: 0.25,
  largestGroup: 4,
  requiredTenths: 4,
  soft: ['NotOverlap', 'NotOverlap', 'MaxDays(2)', 'MaxBlock(36,6)', 'SameDays', 'Precedence'],
  weights: 'time="3" room="1" distribution="10" student="5"',
};

/**
 * A problem larger than the shared ones, shaped like a university's: `courses` courses of a lecture
 * or more (one for every 200 students) with labs under each in two courses of three, every class of
 * a week pattern (three days of 50 minutes, two of 75, one of 150, four of 50) at 6 to 20 starts, in
 * 2 to 8 rooms big enough of `rooms`, some rooms apart by a walk; `students` students each needing 3
 * to 6 courses, the first courses asked for most; a class in four in a required SameAttendees with one
 * to three others (as one instructor's classes), soft NotOverlap, MaxDays, MaxBlock, SameDays and
 * Precedence among others (LARGE_SHAPE; another `shape` draws others), DifferentTime among a lecture's labs, SameRoom among a course's lectures.
 * Not known to be valid: with rooms enough (400 for 800 courses) it is found valid within seconds.
 */
export function largeProblemXml(seed: number, size: { courses: number; students: number; rooms: number }, shape: ProblemShape = LARGE_SHAPE): string {
  const g = new SeededRandom(seed);
  const weeks = 13;
  const patterns = [
    { days: '1010100', length: 10 },
    { days: '0101000', length: 15 },
    { days: '1000000', length: 30 },
    { days: '0010000', length: 30 },
    { days: '1111000', length: 10 },
  ];
  const capacities = Array.from({ length: size.rooms }, () => g.pick([20, 30, 30, 40, 60, 100, 150, 250]));
  const rooms = capacities
    .map((capacity, r) => {
      const travel = r > 0 && g.int(0, 3) === 0 ? `<travel room="${g.int(1, r)}" value="${g.int(1, 3)}"/>` : '';
      return `<room id="${r + 1}" capacity="${capacity}">${travel}</room>`;
    })
    .join('');
  // Popular courses first: course c drawn in proportion to 1 / (c + 1)^0.7.
  const popularity = Array.from({ length: size.courses }, (_, c) => 1 / (c + 1) ** 0.7);
  const popularitySum = popularity.reduce((a, b) => a + b, 0);
  const drawCourse = (): number => {
    let left = g.next() * popularitySum;
    for (let c = 0; c < size.courses; c++) {
      left -= popularity[c] as number;
      if (left <= 0) return c;
    }
    return size.courses - 1;
  };
  const asked = Array.from({ length: size.students }, () => {
    const set = new Set<number>();
    for (const wanted = g.int(3, 6); set.size < wanted;) set.add(drawCourse());
    return [...set];
  });
  const demand = Array.from({ length: size.courses }, () => 0);
  for (const courses of asked) for (const c of courses) demand[c] = (demand[c] ?? 0) + 1;
  const times = (): string =>
    Array.from({ length: g.int(6, 20) }, () => {
      const p = g.pick(patterns);
      return `<time days="${p.days}" start="${g.int(0, 10) * 12 + 90}" length="${p.length}" weeks="${'1'.repeat(weeks)}" penalty="${g.int(0, 3)}"/>`;
    }).join('');
  const roomsFor = (seats: number): string => {
    const fit = capacities.flatMap((capacity, r) => (capacity >= seats ? [r + 1] : []));
    const chosen = new Set<number>();
    for (const wanted = Math.min(fit.length, g.int(2, 8)); chosen.size < wanted;) chosen.add(g.pick(fit));
    return [...chosen].map((r) => `<room id="${r}" penalty="${g.int(0, 2)}"/>`).join('');
  };
  let classCount = 0;
  const distributions: string[] = [];
  const courses = demand
    .map((wanted, c) => {
      const lectureCount = Math.max(1, Math.ceil(Math.max(5, wanted) / 200));
      const lectureLimit = Math.ceil(Math.max(5, wanted) / lectureCount) + 5;
      const labsEach = g.int(0, 2) > 0 ? Math.ceil(lectureLimit / 25) : 0;
      const lectures: string[] = [];
      const labs: string[] = [];
      const lectureIds: number[] = [];
      for (let l = 0; l < lectureCount; l++) {
        const lecture = ++classCount;
        lectureIds.push(lecture);
        lectures.push(`<class id="${lecture}" limit="${lectureLimit}">${roomsFor(Math.min(lectureLimit, 250))}${times()}</class>`);
        const labIds = Array.from({ length: labsEach }, () => ++classCount);
        for (const lab of labIds)
          labs.push(`<class id="${lab}" limit="${Math.ceil(lectureLimit / labsEach) + 2}" parent="${lecture}">${roomsFor(30)}${times()}</class>`);
        if (labIds.length > 1 && g.int(0, 1) === 0)
          distributions.push(`<distribution type="DifferentTime" penalty="${g.int(1, 5)}">${membersXml(labIds)}</distribution>`);
      }
      if (lectureIds.length > 1) distributions.push(`<distribution type="SameRoom" penalty="2">${membersXml(lectureIds)}</distribution>`);
      const subparts = [lectures, labs].filter((s) => s.length > 0).map((s, k) => `<subpart id="${2 * c + k + 1}">${s.join('')}</subpart>`);
      return `<course id="${c + 1}"><config id="${c + 1}">${subparts.join('')}</config></course>`;
    })
    .join('');
  for (let k = 0; k < classCount * shape.distributionsPerClass; k++) {
    const members = [...new Set(Array.from({ length: g.int(2, shape.largestGroup) }, () => g.int(1, classCount)))].sort((a, b) => a - b);
    if (members.length < 2) continue;
    const draw = g.int(0, 9);
    distributions.push(
      draw < shape.requiredTenths
        ? `<distribution type="SameAttendees" required="true">${membersXml(members)}</distribution>`
        : `<distribution type="${shape.soft[(draw - shape.requiredTenths) % shape.soft.length] as string}" penalty="${g.int(1, 10)}">${membersXml(members)}</distribution>`,
    );
  }
  const students = asked
    .map((cs, s) =>
      studentXml(
        s + 1,
        cs.map((c) => c + 1),
      ),
    )
    .join('');
  return problemXml(`large-${seed}`, { rooms, courses, distributions: distributions.join(''), students }, { weeks, weights: shape.weights });
}

/**
 * Problems generated unlike the shared ones, which the itc bench solves beside them: one whose total is
 * mostly students (12,000 students in 300 courses, about 180 a class, the student part weighed 20), and
 * one whose total is mostly soft day patterns (1.5 soft distributions a class, most of them SameDays,
 * SameTime and MaxDayLoad among up to six classes, weighed 20; students not weighed).
 */
export const UNLIKE: Record<string, { size: { courses: number; students: number; rooms: number }; shape: ProblemShape }> = {
  'unlike-students': {
    size: { courses: 300, students: 12_000, rooms: 160 },
    shape: { ...LARGE_SHAPE, weights: 'time="1" room="1" distribution="2" student="20"' },
  },
  'unlike-day-patterns': {
    size: { courses: 300, students: 3_000, rooms: 120 },
    shape: {
      distributionsPerClass: 1.5,
      largestGroup: 6,
      requiredTenths: 1,
      soft: ['SameDays', 'SameDays', 'SameDays', 'SameDays', 'SameTime', 'SameTime', 'MaxDayLoad(240)', 'NotOverlap', 'Precedence'],
      weights: 'time="1" room="1" distribution="20" student="0"',
    },
  },
};
