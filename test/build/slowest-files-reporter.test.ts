import { describe, expect, it } from 'vitest';
import { slowestFilesLines, type FileTime } from '../helpers/slowest-files-reporter';

const time = (file: string, seconds: number, project = 'sqlite', tests = 3): FileTime => ({ project, file, seconds, tests });

describe('the slowest files npm test prints after its summary', () => {
  it('lists the slowest first, with their project, test count and the run total', () => {
    const lines = slowestFilesLines([time('test/a.test.ts', 1.25), time('test/http/b.test.ts', 20, 'postgres'), time('test/c.test.ts', 7, 'sqlite', 1)], 2);
    expect(lines[0]).toBe('Slowest 2 of 3 test files (their tests, hooks and imports; 28 s summed over the workers):');
    expect(lines.slice(1).map((line) => line.trim())).toEqual(['20.0 s  test/http/b.test.ts  postgres, 3 tests', '7.0 s  test/c.test.ts       sqlite, 1 test']);
  });
});
