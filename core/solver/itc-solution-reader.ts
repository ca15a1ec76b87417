import { SaxesParser } from 'saxes';
import { CoreError, invalid } from '../domain/errors';
import { ITC_LIMITS } from './itc-reader';
import type { Assignment, TimetableProblem } from './model';

const fail = (line: number, problem: string): CoreError => invalid(`The solution file is not a solution of this problem (line ${line}): ${problem}`);

/**
 * Reads a solution in the competition's format (as writeItcSolution, UniTime's solver and the other
 * entrants write it) as a timetable of the problem, so that any solver's answer is scored by the same
 * rules as Termwise's own: each class's days, start and weeks name one of its times (the first, where
 * two differ only in length or penalty), its room one of its rooms, and its students attend it. Bounded as the problem reader is; a class or student the
 * problem does not have, or a time or room the class may not take, is refused naming the line. A class
 * the file leaves out, or lists without a time, is unplaced.
 */
export function readItcSolution(problem: TimetableProblem, xml: string): Assignment {
  if (xml.length > ITC_LIMITS.bytes) throw new CoreError('too_large', `The solution file is larger than ${ITC_LIMITS.bytes / 1024 / 1024} MB`);
  const classIndex = new Map(problem.classes.map((c, i) => [c.id, i]));
  const studentIndex = new Map(problem.students.map((s, i) => [s.id, i]));
  const assignment: Assignment = {
    time: new Int32Array(problem.classes.length).fill(-1),
    room: new Int32Array(problem.classes.length).fill(-1),
    students: problem.students.map(() => []),
  };
  const parser = new SaxesParser({ position: true });
  let current = -1;
  let elements = 0;
  parser.on('opentag', (tag) => {
    if (++elements > ITC_LIMITS.elements)
      throw new CoreError('too_large', `The solution file has more than ${ITC_LIMITS.elements.toLocaleString('en-US')} elements`);
    const attribute = (name: string): string | undefined => {
      const value = tag.attributes[name];
      return typeof value === 'string' ? value : undefined;
    };
    if (tag.name === 'class') current = placeClass(problem, assignment, classIndex, parser.line, attribute);
    else if (tag.name === 'student') {
      const s = studentIndex.get(attribute('id') ?? '');
      if (s === undefined || current < 0) throw fail(parser.line, `student "${attribute('id') ?? ''}" is not one of the problem's, or not in a class`);
      assignment.students[s]?.push(current);
    } else if (tag.name !== 'solution') throw fail(parser.line, `<${tag.name}> is not an element of a solution`);
  });
  parser.on('closetag', (tag) => {
    if (tag.name === 'class') current = -1;
  });
  try {
    parser.write(xml).close();
  } catch (error) {
    if (error instanceof CoreError) throw error;
    throw fail(parser.line, error instanceof Error ? error.message : String(error));
  }
  return assignment;
}

/** A <class> element's time and room (none: unplaced), stored in the assignment; answers the class's index. */
function placeClass(
  problem: TimetableProblem,
  assignment: Assignment,
  classIndex: ReadonlyMap<string, number>,
  line: number,
  attribute: (name: string) => string | undefined,
): number {
  const id = attribute('id') ?? '';
  const c = classIndex.get(id);
  const spec = c === undefined ? undefined : problem.classes[c];
  if (c === undefined || !spec) throw fail(line, `class "${id}" is not one of the problem's`);
  const days = attribute('days');
  if (days === undefined) return c;
  const mask = [...days].reduce((bits, day, d) => (day === '1' ? bits | (1 << d) : bits), 0);
  const start = Number(attribute('start'));
  const weeks = attribute('weeks') ?? '';
  const timeIndex = spec.times.findIndex((o) => o.days === mask && o.start === start && problem.weekPatterns.text[o.weeks] === weeks);
  if (timeIndex < 0) throw fail(line, `class "${id}" has no time on days ${days} at ${start} in weeks ${weeks}`);
  assignment.time[c] = timeIndex;
  const roomId = attribute('room');
  if (roomId !== undefined) {
    const roomIndex = spec.rooms.findIndex((o) => problem.rooms[o.room]?.id === roomId);
    if (roomIndex < 0) throw fail(line, `class "${id}" may not meet in room "${roomId}"`);
    assignment.room[c] = roomIndex;
  }
  return c;
}
