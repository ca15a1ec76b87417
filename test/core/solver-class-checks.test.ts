import { describe, expect, it } from 'vitest';
import { classChecks } from '../../core/solver/class-checks';
import type { Distribution, TimeOption } from '../../core/solver/model';
import { scoreAssignment } from '../../core/solver/score';
import { Search } from '../../core/solver/search';
import { handMadeProblem } from '../helpers/hand-made-problem';

/**
 * A class's distributions as the search checks them: a pair repeated in many distributions (as real
 * problems repeat them) is checked once, its soft copies' penalties added up, so the search still
 * displaces the same classes and counts the same cost as the scorer, which reads every copy.
 */
const MON = 1;
const at = (start: number): TimeOption => ({ days: MON, start, length: 12, weeks: 0, penalty: 0 });
const rule = (type: Distribution['type'], classes: number[], required: boolean, penalty = 0, params: number[] = []): Distribution => ({
  type,
  params,
  required,
  penalty: required ? 0 : penalty,
  classes,
});

describe('a class’s checks', () => {
  it('checks a repeated pair once, adds up soft copies and keeps order and sets apart', () => {
    const problem = handMadeProblem([{ times: [at(100)] }, { times: [at(100)] }, { times: [at(100)] }], {
      name: 'checks',
      distributions: [
        rule('NotOverlap', [0, 1], true),
        rule('NotOverlap', [1, 0, 2], true),
        rule('NotOverlap', [0, 1], true),
        rule('SameStart', [0, 1], false, 5),
        rule('SameStart', [0, 1], false, 7),
        rule('MinGap', [0, 1], false, 3, [12]),
        rule('MinGap', [0, 1], false, 4, [24]),
        rule('Precedence', [0, 2], true),
        rule('Precedence', [2, 0], true),
        rule('MaxDays', [0, 1, 2], false, 9, [1]),
      ],
    });
    const [first] = classChecks(problem);
    const required = (first?.required ?? []).map((c) => `${c.dist.type} ${c.partner} ${c.partnerAfter}`);
    // NotOverlap with 1 once (its order does not matter to the rule but is kept), with 2 once; each Precedence.
    expect(required).toEqual(['NotOverlap 1 true', 'NotOverlap 1 false', 'NotOverlap 2 true', 'Precedence 2 true', 'Precedence 2 false']);
    const soft = (first?.soft ?? []).map((c) => `${c.dist.type} ${c.dist.params.join(',')} ${c.partner} ${c.penalty}`);
    // MinGap of another gap is another rule: kept apart; the set constraint stays one check.
    expect(soft).toEqual(['SameStart  1 12', 'MinGap 12 1 3', 'MinGap 24 1 4', 'MaxDays 1 -1 9']);
  });

  it('lets the search count repeated soft pairs as the scorer does, copy by copy', () => {
    const twice = [rule('SameStart', [0, 1], false, 5), rule('SameStart', [1, 0], false, 7), rule('SameStart', [0, 1], false, 11)];
    const problem = handMadeProblem([{ times: [at(100), at(200)] }, { times: [at(100), at(200)] }], { name: 'soft copies', distributions: twice });
    const search = new Search(problem, 1);
    search.assign(0, 0, -1);
    search.assign(1, 1, -1);
    expect(search.total).toBe(23);
    expect(scoreAssignment(problem, search.snapshot(), search.algebra).total).toBe(23);
    expect(search.softCost(1, 0, -1)).toBe(0);
    search.assign(1, 0, -1);
    expect(search.total).toBe(0);
  });

  it('displaces a class a repeated required pair forbids once, and frees the value apart from it', () => {
    const problem = handMadeProblem([{ times: [at(100), at(200)] }, { times: [at(100)] }, { times: [at(300)] }], {
      name: 'required copies',
      distributions: [rule('NotOverlap', [0, 1], true), rule('NotOverlap', [1, 0], true), rule('NotOverlap', [0, 1, 2], true)],
    });
    const search = new Search(problem, 1);
    search.assign(1, 0, -1);
    search.assign(2, 0, -1);
    expect([...(search.hardConflicts(0, 0, -1) ?? [])]).toEqual([1]);
    expect(search.hardConflicts(0, 0, -1, true)?.size).toBe(1);
    expect(search.hardConflicts(0, 1, -1)?.size).toBe(0);
  });
});
