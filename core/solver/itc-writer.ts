import type { Assignment, TimetableProblem } from './model';

/** Who made a solution, as the competition's solution file names it. */
export interface SolutionAuthor {
  runtimeSeconds: number;
  cores: number;
  technique: string;
  author: string;
  institution: string;
  country: string;
}

export const TERMWISE_AUTHOR: Omit<SolutionAuthor, 'runtimeSeconds'> = {
  cores: 1,
  technique: 'Iterative forward search, then simulated annealing with student sectioning (Termwise)',
  author: 'Termwise',
  institution: 'Termwise',
  country: 'Lebanon',
};

const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function daysText(mask: number, nrDays: number): string {
  let text = '';
  for (let d = 0; d < nrDays; d++) text += mask & (1 << d) ? '1' : '0';
  return text;
}

/**
 * A timetable in the competition's solution format, so that any result can be checked with the
 * organisers' own validator: each class with its days, start, weeks and room, and its students.
 */
export function writeItcSolution(problem: TimetableProblem, assignment: Assignment, author: SolutionAuthor): string {
  const studentsOf = problem.classes.map(() => [] as string[]);
  assignment.students.forEach((classes, s) => {
    for (const classIndex of classes) studentsOf[classIndex]?.push(problem.students[s]?.id ?? '');
  });
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<solution name="${escape(problem.name)}" runtime="${author.runtimeSeconds.toFixed(1)}" cores="${author.cores}" technique="${escape(author.technique)}" author="${escape(author.author)}" institution="${escape(author.institution)}" country="${escape(author.country)}">`,
  ];
  problem.classes.forEach((c, i) => {
    const time = c.times[assignment.time[i] ?? -1];
    const room = c.rooms[assignment.room[i] ?? -1];
    if (!time) {
      lines.push(`  <class id="${escape(c.id)}"/>`);
      return;
    }
    const attributes = `id="${escape(c.id)}" days="${daysText(time.days, problem.nrDays)}" start="${time.start}" weeks="${problem.weekPatterns.text[time.weeks] ?? ''}"${room ? ` room="${escape(problem.rooms[room.room]?.id ?? '')}"` : ''}`;
    const students = studentsOf[i] ?? [];
    if (students.length === 0) lines.push(`  <class ${attributes}/>`);
    else lines.push(`  <class ${attributes}>`, ...students.map((s) => `    <student id="${escape(s)}"/>`), '  </class>');
  });
  lines.push('</solution>', '');
  return lines.join('\n');
}
