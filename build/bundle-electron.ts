/**
 * Bundles the Electron main process, preload script and worker threads into dist-electron/
 * (npm run build:electron). Packages stay external: electron-builder ships node_modules, and
 * better-sqlite3 is rebuilt for Electron at package time.
 */
import { build } from 'esbuild';
import { bundleNodeSide, NODE_BUNDLE_OPTIONS } from './bundle-node';

const out = 'dist-electron';
await bundleNodeSide(out, { main: 'electron/main.ts' }, { sourcemap: true });
await build({
  ...NODE_BUNDLE_OPTIONS,
  sourcemap: true,
  entryPoints: { preload: 'electron/preload.ts' },
  outdir: out,
  format: 'cjs',
  outExtension: { '.js': '.cjs' },
  external: ['electron'],
});
console.log(`Electron bundles written to ${out}/`);
