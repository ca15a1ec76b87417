import { invalid } from '../domain/errors';
import { type ImportLog } from '../import/result';
import { cellText, firstField } from '../import/table';
import { readListCell } from '../import/lists';
import { echo } from '../domain/bounds';
import { normaliseCourseCode, describeCode } from '../domain/codes';
import { normaliseCourseType } from './types';
import type { Course } from './schema';
import { COURSE_JSON_KEYS } from './columns';

/**
 * Turns an uploaded courses JSON document into courses. Accepted shapes: a root array of course
 * objects; an object with one array-valued key (courses, data, items, …) holding them; or an
 * object mapping codes to metadata.
 */
export function coursesFromJson(document: unknown, log: ImportLog): Course[] {
  const records = locateRecords(document);
  const courses = new Map<string, Course>();
  records.forEach(({ where, code: keyCode, value }) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      log.skip(where, 'not a course object');
      return;
    }
    const fields = value as Record<string, unknown>;
    const rawCode = keyCode ?? firstField(fields, COURSE_JSON_KEYS.code);
    const code = normaliseCourseCode(rawCode);
    if (!code) {
      log.skip(where, rawCode === undefined ? 'no "code"' : `${JSON.stringify(rawCode)} is not a course code`);
      return;
    }
    const nameValue = firstField(fields, COURSE_JSON_KEYS.name);
    const name = typeof nameValue === 'string' && nameValue.trim() !== '' ? nameValue.trim() : code;
    if (name === code) log.warn(`${where} (${code}): no name given; the code is used as its name`);
    const { prefix, number, level } = describeCode(code);
    const prerequisites = readPrerequisites(firstField(fields, COURSE_JSON_KEYS.prerequisites), code, where, log);
    const studyPlan = firstField(fields, COURSE_JSON_KEYS.study_plan);
    if (courses.has(code)) log.warn(`${where}: ${code} appears more than once; the last one is kept`);
    courses.set(code, {
      code,
      name,
      prefix,
      number,
      type: normaliseCourseType(firstField(fields, COURSE_JSON_KEYS.type)),
      study_plan: cellText(studyPlan) || null,
      prerequisites,
      course_level: level,
    });
  });
  return [...courses.values()];
}

interface LocatedRecord {
  where: string;
  code?: unknown;
  value: unknown;
}

function locateRecords(document: unknown): LocatedRecord[] {
  if (Array.isArray(document)) return (document as unknown[]).map((value, i) => ({ where: `item ${i + 1}`, value }));
  if (document === null || typeof document !== 'object') {
    throw invalid('The courses file must hold an array of courses, an object wrapping one, or an object keyed by course code');
  }
  const entries = Object.entries(document as Record<string, unknown>);
  const arrays = entries.filter(([, v]) => Array.isArray(v) && v.some((item) => item !== null && typeof item === 'object'));
  if (arrays.length === 1) {
    const [key, list] = arrays[0] as [string, unknown[]];
    return list.map((value, i) => ({ where: `${key}[${i}]`, value }));
  }
  if (arrays.length > 1) {
    throw invalid(`The courses file wraps several arrays (${arrays.map(([k]) => `"${k}"`).join(', ')}); keep only the one holding the courses`);
  }
  return entries.map(([code, value]) => ({ where: `"${code}"`, code, value }));
}

function readPrerequisites(value: unknown, self: string, where: string, log: ImportLog): string | null {
  if (typeof value === 'string' && /^(none|n\/a|-)$/i.test(value.trim().slice(0, 10))) return null;
  if (typeof value !== 'string' && !Array.isArray(value)) return null;
  const items = readListCell(value, { separators: ',;', andWord: true });
  if (!items) return null;
  const codes: string[] = [];
  for (const item of items) {
    const code = normaliseCourseCode(item);
    if (!code) {
      log.warn(`${where} (${self}): prerequisite "${echo(item)}" is not a course code and was left out`);
      continue;
    }
    if (code !== self && !codes.includes(code)) codes.push(code);
  }
  return codes.length > 0 ? JSON.stringify(codes) : null;
}
