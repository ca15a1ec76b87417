import { courseTypes } from '../domain/course-types';
import { PLANNED_SEMESTERS, type PlannedSemester, type Semester, SEMESTERS_IN_YEAR } from '../domain/terms';
import { DEFAULT_CAMPUSES, type Campus } from '../domain/campuses';
import { SAMPLE_CATALOG, studyPlanText, type PlanSemester, type SampleCourse } from './catalog';
import { SeededRandom } from '../util/random';

/**
 * Deterministic sample history: ten years of Fall/Spring (and some Summer) offerings at both
 * campuses with the patterns schedulers see — core courses every planned term, electives
 * rotating, masters mostly at the main campus, growth trends and course-specific fail ratios.
 */
export interface SampleOptions {
  seed?: number;
  firstYear?: number;
  lastYear?: number;
  /** Copies of the catalog under other prefixes, for benchmarks on larger data. */
  copies?: number;
}

export interface SampleCourseRecord {
  code: string;
  name: string;
  type: string | string[];
  study_plan: string | null;
  prerequisites: string[];
}

export interface SampleOffering {
  year: number;
  semester: Semester;
  campus: Campus;
  course_code: string;
  total_enrolled: number;
  passed_count: number;
  failed_count: number;
  is_offered: boolean;
}

export interface SampleSection extends SampleOffering {
  section: string;
}

export interface SampleDoctor {
  name: string;
  allowed_courses: string[];
  days: string;
  start: string;
  end: string;
}

export interface SampleRoom {
  name: string;
  capacity: number;
  campus: Campus;
}

export interface SampleData {
  courses: SampleCourseRecord[];
  offerings: SampleOffering[];
  sections: SampleSection[];
  doctors: SampleDoctor[];
  rooms: SampleRoom[];
}

/** The sample is set in the default campuses: a main campus and a smaller second one. */
const [MAIN_CAMPUS, SECOND_CAMPUS] = DEFAULT_CAMPUSES.map((c) => c.name) as [Campus, Campus];
export const SAMPLE_CAMPUSES: readonly Campus[] = [MAIN_CAMPUS, SECOND_CAMPUS];
const campusSize = (campus: Campus): number => (campus === MAIN_CAMPUS ? 1 : 0.62);
const GROWTH: Record<string, number> = { CSC: 0.045, BIF: 0.025, MTH: 0.0, STA: 0.012 };
const SECTION_SIZE = 40;

type Profile = { kind: 'every' | 'yearly' | 'biennial' | 'irregular'; semester: PlanSemester; parity: number; inSlot: number };

function primaryType(course: SampleCourse): string {
  const types = Array.isArray(course.type) ? course.type : [course.type];
  return types[0] ?? 'elective';
}

function profileFor(course: SampleCourse, campus: Campus, rng: SeededRandom): Profile | null {
  const type = primaryType(course);
  const planned = course.plan?.semester ?? rng.pick([...PLANNED_SEMESTERS, 'Both'] as const);
  const parity = rng.int(0, 1);
  if (type === 'core') return { kind: 'every', semester: planned, parity, inSlot: campus === MAIN_CAMPUS ? 0.97 : 0.9 };
  if (type === 'minor') return { kind: 'yearly', semester: planned, parity, inSlot: campus === MAIN_CAMPUS ? 0.9 : 0.75 };
  if (type === 'masters') {
    if (campus === SECOND_CAMPUS && !rng.chance(0.3)) return null;
    return { kind: rng.chance(0.6) ? 'yearly' : 'biennial', semester: planned === 'Both' ? 'Both' : planned, parity, inSlot: 0.85 };
  }
  if (campus === SECOND_CAMPUS && !rng.chance(0.6)) return null;
  const kind = rng.pick(['yearly', 'yearly', 'biennial', 'irregular'] as const);
  return { kind, semester: planned, parity, inSlot: kind === 'irregular' ? 0.4 : 0.86 };
}

function inSlot(profile: Profile, year: number, semester: PlannedSemester): boolean {
  if (profile.semester !== 'Both' && profile.semester !== semester) return false;
  if (profile.kind === 'biennial') return year % 2 === profile.parity;
  return true;
}

function baseEnrollment(course: SampleCourse, rng: SeededRandom): number {
  const level = Number(/\d/.exec(course.code)?.[0] ?? 3);
  const type = primaryType(course);
  if (type === 'masters') return rng.int(8, 24);
  if (type === 'minor') return rng.int(18, 40);
  const byLevel = [0, rng.int(90, 150), rng.int(55, 95), rng.int(30, 65), rng.int(16, 38)];
  return (byLevel[Math.min(level, 4)] ?? 30) * (type === 'core' ? 1.15 : 0.8);
}

/** Letters naming a catalog copy: 1 → A, 26 → Z, 27 → AA. */
function copyLetters(copy: number): string {
  let n = copy;
  let letters = '';
  while (n > 0) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

function copyCode(code: string, copy: number): string {
  if (copy === 0) return code;
  return code.replace(/([A-Z]+)(\d)/g, `$1${copyLetters(copy)}$2`);
}

export function generateSample(options: SampleOptions = {}): SampleData {
  const rng = new SeededRandom(options.seed ?? 20241);
  const firstYear = options.firstYear ?? 2015;
  const lastYear = options.lastYear ?? 2024;
  const copies = options.copies ?? 1;
  const courses: SampleCourseRecord[] = [];
  const offerings: SampleOffering[] = [];
  const sections: SampleSection[] = [];

  for (let copy = 0; copy < copies; copy++) {
    for (const course of SAMPLE_CATALOG) {
      const code = copyCode(course.code, copy);
      courses.push({
        code,
        name: copy === 0 ? course.name : `${course.name} (${copyLetters(copy)})`,
        type: course.type,
        study_plan: studyPlanText(course),
        prerequisites: course.prerequisites.map((p) => copyCode(p, copy)),
      });
      const prefix = /^[A-Z]+/.exec(course.code)?.[0] ?? 'CSC';
      const growth = GROWTH[prefix] ?? 0.01;
      const failBase = Math.max(0.03, Math.min(0.4, 0.32 - 0.05 * Number(/\d/.exec(course.code)?.[0] ?? 3) + rng.normal(0.05)));
      const isElective = primaryType(course) === 'elective';
      const startYear = isElective && rng.chance(0.12) ? rng.int(2017, 2021) : firstYear;
      const endYear = isElective && rng.chance(0.08) ? rng.int(2019, 2022) : lastYear;
      const base = baseEnrollment(course, rng);
      const types = courseTypes(Array.isArray(course.type) ? JSON.stringify(course.type) : course.type);

      for (const campus of SAMPLE_CAMPUSES) {
        const profile = profileFor(course, campus, rng);
        if (!profile) continue;
        for (let year = firstYear; year <= lastYear; year++) {
          if (year < startYear || year > endYear) continue;
          for (const semester of SEMESTERS_IN_YEAR) {
            let offered: boolean;
            let size = 1;
            if (semester === 'Summer') {
              offered = campus === MAIN_CAMPUS && types.includes('core') && Number(/\d/.exec(course.code)?.[0]) <= 2 && rng.chance(0.45);
              size = 0.35;
            } else {
              const slot = inSlot(profile, year, semester);
              offered = rng.chance(slot ? profile.inSlot : profile.kind === 'every' ? 0.22 : 0.05);
              if (!slot) size = 0.55;
            }
            if (!offered) continue;
            const trend = Math.pow(1 + growth, year - firstYear);
            const expected = base * campusSize(campus) * trend * size;
            const total = Math.max(0, Math.round(expected * (1 + rng.normal(0.13))));
            const cancelled = total < 6 && !types.includes('core');
            const record: SampleOffering = cancelled
              ? { year, semester, campus, course_code: code, total_enrolled: 0, passed_count: 0, failed_count: 0, is_offered: false }
              : (() => {
                  const ratio = Math.max(0, Math.min(0.9, failBase + rng.normal(0.04)));
                  const failed = Math.round(total * ratio);
                  return {
                    year,
                    semester,
                    campus,
                    course_code: code,
                    total_enrolled: total,
                    passed_count: total - failed,
                    failed_count: failed,
                    is_offered: total > 0,
                  };
                })();
            offerings.push(record);
            sections.push(...splitIntoSections(record));
          }
        }
      }
    }
  }
  return { courses, offerings, sections, doctors: generateDoctors(rng), rooms: generateRooms() };
}

function splitIntoSections(record: SampleOffering): SampleSection[] {
  const count = Math.max(1, Math.ceil(record.total_enrolled / SECTION_SIZE));
  const result: SampleSection[] = [];
  let enrolled = record.total_enrolled;
  let passed = record.passed_count;
  for (let i = 0; i < count; i++) {
    const left = count - i;
    const total = Math.round(enrolled / left);
    const pass = Math.min(total, Math.round(passed / left));
    result.push({ ...record, section: String(i + 1), total_enrolled: total, passed_count: pass, failed_count: total - pass });
    enrolled -= total;
    passed -= pass;
  }
  return result;
}

const DOCTOR_NAMES = [
  'Rana Haddad',
  'Karim Nassar',
  'Maya Khoury',
  'Georges Saliba',
  'Nour Chamoun',
  'Samir Azar',
  'Lina Mansour',
  'Fadi Rizk',
  'Hala Sfeir',
  'Tarek Abi Nader',
  'Rita Boustany',
  'Walid Hanna',
  'Joelle Kassab',
  'Ziad Fares',
  'Mira Daher',
  'Elie Gemayel',
  'Carla Aoun',
  'Bassam Jaber',
  'Nadine Salameh',
  'Hadi Moussa',
  'Sara Tannous',
  'Omar Itani',
  'Layal Harb',
  'Pierre Karam',
  'Dima Yazbek',
  'Antoine Sarkis',
  'Yara Mrad',
  'Michel Chahine',
  'Zeina Frem',
  'Rami Ghanem',
];

const AVAILABILITY: [string, string, string][] = [
  ['MWF', '08:00', '14:00'],
  ['TR', '09:30', '17:00'],
  ['MTWRF', '08:00', '17:00'],
  ['MW', '11:00', '19:00'],
  ['MTWR', '08:00', '16:00'],
  ['TRF', '10:00', '18:30'],
  ['', '', ''],
];

function generateDoctors(rng: SeededRandom): SampleDoctor[] {
  const byPrefix = (prefix: string): string[] => SAMPLE_CATALOG.filter((c) => c.code.startsWith(prefix)).map((c) => c.code);
  const areas: [string, number][] = [
    ['CSC', 12],
    ['BIF', 5],
    ['MTH', 8],
    ['STA', 5],
  ];
  const doctors: SampleDoctor[] = [];
  let n = 0;
  for (const [prefix, count] of areas) {
    const pool = byPrefix(prefix);
    for (let i = 0; i < count; i++) {
      const name = DOCTOR_NAMES[n++] ?? `Doctor ${n}`;
      const allowed = new Set<string>();
      const want = rng.int(5, 9);
      while (allowed.size < Math.min(want, pool.length)) allowed.add(rng.pick(pool));
      if (prefix === 'BIF' && rng.chance(0.5)) allowed.add('CSC463/BIF463');
      if (prefix === 'MTH' && rng.chance(0.4)) allowed.add(rng.pick(byPrefix('STA')));
      const [days, start, end] = rng.pick(AVAILABILITY);
      doctors.push({ name: `Dr. ${name}`, allowed_courses: [...allowed].sort(), days, start, end });
    }
  }
  return doctors;
}

function generateRooms(): SampleRoom[] {
  const rooms: SampleRoom[] = [];
  const layout: [Campus, string, number[]][] = [
    [MAIN_CAMPUS, 'Bassil', [30, 30, 40, 40, 40, 60, 60, 90]],
    [MAIN_CAMPUS, 'Nicol', [25, 35, 45, 45, 120]],
    [SECOND_CAMPUS, 'Frem', [30, 30, 40, 40, 60]],
    [SECOND_CAMPUS, 'Joseph Jabbour', [25, 40, 45, 80]],
  ];
  for (const [campus, building, capacities] of layout) {
    capacities.forEach((capacity, i) => rooms.push({ name: `${building} ${100 + i * 3 + 1}`, capacity, campus }));
  }
  return rooms;
}
