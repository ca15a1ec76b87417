/**
 * The Node side of Termwise as one bundle per entry point: the given entries, each worker thread's
 * module beside them (core/workers.ts loads `<name>.js` next to its caller in a built app), and
 * the files the core reads next to its modules. Packages stay external (loaded from node_modules).
 * Used by the desktop bundle (build/bundle-electron.ts), and by the browser tests and the start-up
 * benchmark for the headless server as built.
 */
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';

/** The worker threads' modules, by the name core/workers.ts looks for. */
const WORKERS = {
  'train-worker': 'core/predict/train-worker.ts',
  'xlsx-worker': 'core/import/xlsx-worker.ts',
  'model-check-worker': 'core/predict/model-check-worker.ts',
  'import-worker': 'core/timetable-import/import-worker.ts',
  'solve-worker': 'core/solver/solve-worker.ts',
  'campus-worker': 'core/autofill/campus-worker.ts',
} as const;

export const NODE_BUNDLE_OPTIONS = { bundle: true, platform: 'node', target: 'node20', packages: 'external', logLevel: 'warning' } as const;

/**
 * Writes `entries` and the workers into `out` (emptied first) as ES modules (`.js`), with the
 * migrations, PostgreSQL schema and sample data beside them. `out` must sit one folder below the
 * project's root, as dist-electron does: a bundle finds ../package.json and ../dist/renderer.
 */
export async function bundleNodeSide(out: string, entries: Readonly<Record<string, string>>, options: { sourcemap?: boolean } = {}): Promise<void> {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  await build({
    ...NODE_BUNDLE_OPTIONS,
    sourcemap: options.sourcemap ?? false,
    entryPoints: { ...entries, ...WORKERS },
    outdir: out,
    format: 'esm',
    outExtension: { '.js': '.js' },
  });
  cpSync('core/db/migrations', join(out, 'migrations'), { recursive: true });
  cpSync('core/db/postgres', join(out, 'postgres'), { recursive: true });
  cpSync('core/sample/data', join(out, 'data'), { recursive: true });
}
