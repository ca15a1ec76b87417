import { describe, expect, it } from 'vitest';
import { incompleteTerms, campusTermKey, type TermCourseCount } from '../../core/offerings/completeness';

const springs = (campus: string, counts: Record<number, number>): TermCourseCount[] =>
  Object.entries(counts).map(([year, courses]) => ({ campus, year: Number(year), semester: 'Spring', courses }));

describe('incomplete terms', () => {
  it('flags a term listing under half the median of its last four same-semester terms, in words', () => {
    const counts = [
      ...springs('Beirut', { 2021: 26, 2022: 28, 2023: 27, 2024: 28, 2025: 2 }),
      ...springs('Byblos', { 2021: 10, 2022: 10, 2023: 10, 2024: 10, 2025: 6 }),
    ];
    expect(incompleteTerms(counts, new Set())).toEqual([
      {
        campus: 'Beirut',
        year: 2025,
        semester: 'Spring',
        courses: 2,
        usual_low: 26,
        usual_high: 28,
        compared_with: 4,
        message: 'Spring 2025 at Beirut lists 2 courses; its last four Springs listed 26–28. Incomplete?',
      },
    ]);
  });

  it('compares an early term with the nearest later ones, needs two to compare with, and forgets a confirmed term', () => {
    const counts = springs('Urbana', { 2010: 3, 2011: 40, 2012: 42 });
    const [early] = incompleteTerms(counts, new Set());
    expect(early?.message).toBe('Spring 2010 at Urbana lists 3 courses; the two nearest Springs listed 40–42. Incomplete?');
    expect(incompleteTerms(counts, new Set([campusTermKey({ campus: 'Urbana', year: 2010, semester: 'Spring' })]))).toEqual([]);
    expect(incompleteTerms(springs('Urbana', { 2010: 3, 2011: 40 }), new Set())).toEqual([]);
  });

  it('lets a department shrink: a term at half the usual size or more is not flagged; Fall is compared with Falls only', () => {
    const counts = [...springs('Beirut', { 2021: 20, 2022: 20, 2023: 20, 2024: 10 }), { campus: 'Beirut', year: 2024, semester: 'Fall' as const, courses: 1 }];
    expect(incompleteTerms(counts, new Set())).toEqual([]);
  });
});
