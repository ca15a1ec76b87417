import { describe, expect, it } from 'vitest';
import { SectioningCadence } from '../../core/solver/cadence';

/** The checks at which a cadence re-sections every student, over `checks` checks, told `found` each time. */
function dueAt(cadence: SectioningCadence, checks: number, found: (at: number) => number, restartAt = -1): number[] {
  const due: number[] = [];
  for (let at = 1; at <= checks; at++) {
    if (at === restartAt) cadence.restart();
    if (!cadence.due()) continue;
    due.push(at);
    cadence.found(found(at));
  }
  return due;
}

describe('how often every student is re-sectioned (SectioningCadence)', () => {
  it('comes twice as soon after a re-sectioning that lowered the clashes, down to the shortest interval', () => {
    const cadence = new SectioningCadence({ first: 8, least: 2, most: 32 });
    expect(dueAt(cadence, 20, () => -3)).toEqual([8, 12, 14, 16, 18, 20]);
  });

  it('comes half as often after one that found nothing, up to the longest interval', () => {
    const cadence = new SectioningCadence({ first: 8, least: 2, most: 32 });
    expect(dueAt(cadence, 150, () => 0)).toEqual([8, 24, 56, 88, 120]);
  });

  it('starts again from the first interval when a round starts hot', () => {
    const cadence = new SectioningCadence({ first: 8, least: 2, most: 32 });
    expect(dueAt(cadence, 60, () => 0, 30)).toEqual([8, 24, 37, 53]);
  });
});
