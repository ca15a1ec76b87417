import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files the run prints at its end. */
const SHOWN = 12;

/** One test file's time in a run: its tests and hooks, plus importing it (the core it loads the first time). */
export interface FileTime {
  project: string;
  file: string;
  seconds: number;
  tests: number;
}

export function fileTime(module: TestModule, root: string): FileTime {
  const { duration, collectDuration, setupDuration } = module.diagnostic();
  return {
    project: module.project.name,
    file: relative(root, module.moduleId),
    seconds: (duration + collectDuration + setupDuration) / 1000,
    tests: [...module.children.allTests()].length,
  };
}

/** The lines printed under the run's summary: the slowest files first, each with its project and test count. */
export function slowestFilesLines(times: readonly FileTime[], shown = SHOWN): string[] {
  const slowest = [...times].sort((a, b) => b.seconds - a.seconds).slice(0, shown);
  const total = times.reduce((sum, time) => sum + time.seconds, 0);
  const width = Math.max(0, ...slowest.map((time) => time.file.length));
  return [
    `Slowest ${slowest.length} of ${times.length} test files (their tests, hooks and imports; ${total.toFixed(0)} s summed over the workers):`,
    ...slowest.map(
      (time) => `  ${time.seconds.toFixed(1).padStart(6)} s  ${time.file.padEnd(width)}  ${time.project}, ${time.tests} ${time.tests === 1 ? 'test' : 'tests'}`,
    ),
  ];
}

/** A vitest reporter beside the default one: after the run, where the time went, so a contributor sees what to speed up. */
export default class SlowestFilesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    if (modules.length < 2) return;
    const root = process.cwd();
    console.log(`\n${slowestFilesLines(modules.map((module) => fileTime(module, root))).join('\n')}\n`);
  }
}
