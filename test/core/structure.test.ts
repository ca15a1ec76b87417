import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { measureStructure } from '../structure/measure';
import { FUNCTION_LINES, overBudget } from '../structure/size-budget';

// The same measure as `npm run structure`: features meet only through public surfaces, and no module imports itself round a cycle.
describe("the core's structure", () => {
  const report = measureStructure(resolve(import.meta.dirname, '../..'));

  it('has features that reach each other only through an index or a repository', () => {
    expect(report.crossFeature.length).toBeGreaterThan(0);
    expect(report.internalImports).toEqual([]);
  });

  it("has each feature write only its own tables: another feature's repository write functions are not imported", () => {
    expect(report.foreignRepoWrites).toEqual([]);
  });

  it('runs SQL only in repositories and the database layer', () => {
    expect(report.sqlOutsideRepos).toEqual([]);
  });

  it('has the screens ask every read they follow through a live read', () => {
    expect(report.readsOutsideLive).toEqual([]);
  });

  it('has no shared layer importing a feature: the runner and the context sit below them', () => {
    expect(report.layerImports).toEqual([]);
  });

  it(`has no function in core/ or electron/ over ${FUNCTION_LINES} lines, and none in renderer/ longer than the size budget lists`, () => {
    expect(report.functions.length).toBeGreaterThan(0);
    expect(overBudget(report)).toEqual([]);
  });

  it('has no import cycle between modules', () => {
    expect(report.cycles).toEqual([]);
  });

  it('has no two features that depend on each other, directly or round a loop', () => {
    expect(report.featureCycles).toEqual([]);
  });

  it('has the screens call the core only through controllers, which never reach up into components', () => {
    expect(report.coreCallsOutsideControllers).toEqual([]);
    expect(report.upwardImports).toEqual([]);
  });

  it("has handler tables that only declare: each body calls one service function, one served map per feature (and one of the desktop app's own)", () => {
    expect(report.handlersWithBehaviour).toEqual([]);
    expect(report.extraHandlerMaps).toEqual([]);
  });

  it('exports each function name once (core with core, renderer with renderer)', () => {
    expect(report.duplicateExports).toEqual([]);
  });

  it('declares the year bounds and the semester sets once, in core/domain', () => {
    expect(report.secondBoundDefinitions).toEqual([]);
  });
});
