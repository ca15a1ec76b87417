/**
 * Bundles the Electron main process, preload script and training worker into dist-electron/
 * (npm run build:electron). Packages stay external: electron-builder ships node_modules, and
 * better-sqlite3 is rebuilt for Electron at package time.
 */
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const out = 'dist-electron';
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const common = { bundle: true, platform: 'node', target: 'node20', packages: 'external', sourcemap: true, logLevel: 'warning' } as const;
await build({
  ...common,
  entryPoints: {
    main: 'electron/main.ts',
    'train-worker': 'core/predict/train-worker.ts',
    'xlsx-worker': 'core/import/xlsx-worker.ts',
    'model-check-worker': 'core/predict/model-check-worker.ts',
    'import-worker': 'core/schedule/import-worker.ts',
    'solve-worker': 'core/solver/solve-worker.ts',
  },
  outdir: out,
  format: 'esm',
  outExtension: { '.js': '.js' },
});
await build({
  ...common,
  entryPoints: { preload: 'electron/preload.ts' },
  outdir: out,
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  external: ['electron'],
});
// Files the core reads next to its modules.
cpSync('core/db/migrations', `${out}/migrations`, { recursive: true });
cpSync('core/db/postgres', `${out}/postgres`, { recursive: true });
cpSync('core/sample/data', `${out}/data`, { recursive: true });
console.log(`Electron bundles written to ${out}/`);
