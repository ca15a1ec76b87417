/**
 * The shape of the code, measured: the largest functions and components, the imports from one
 * core feature into another (public surface or internals) and any import cycle between modules.
 *
 *   npm run structure               # this checkout
 *   npm run structure -- <root>     # another checkout, e.g. a `git worktree` of an older commit
 */
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { measureStructure } from './measure';
import type { Found } from './rules';
import { FUNCTION_LINES, overBudget, SIZE_BUDGET } from './size-budget';

const LIST = 12;

function main(): void {
  const root = resolve(process.argv[2] ?? '.');
  const report = measureStructure(root);
  const out: string[] = [];
  out.push(`Structure of ${root}`);
  out.push('', `Largest functions (core/, electron/), lines:`);
  for (const f of report.functions.slice(0, LIST)) out.push(`  ${String(f.lines).padStart(4)}  ${f.name}  ${f.file}:${f.line}`);
  out.push('', `Largest components and hooks (renderer/), lines:`);
  for (const f of report.components.slice(0, LIST)) out.push(`  ${String(f.lines).padStart(4)}  ${f.name}  ${f.file}:${f.line}`);
  out.push(
    '',
    `Functions over ${FUNCTION_LINES} lines that the size budget (test/structure/size-budget.json) lists: ${SIZE_BUDGET.over.length}; beyond it: ${overBudget(report).length}`,
  );
  for (const f of overBudget(report)) out.push(`  ${f}`);
  out.push('', `Imports from one core feature into another: ${report.crossFeature.length} (${report.internalImports.length} into internals)`);
  for (const i of report.internalImports) out.push(`  internal: ${i.from} -> ${i.to}`);
  const byTarget = new Map<string, number>();
  for (const i of report.crossFeature) byTarget.set(i.to, (byTarget.get(i.to) ?? 0) + 1);
  for (const [to, n] of [...byTarget].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) out.push(`  ${String(n).padStart(3)}  ${to}`);
  out.push('', `SQL run outside repositories and core/db: ${report.sqlOutsideRepos.length}`);
  for (const c of report.sqlOutsideRepos) out.push(`  ${c.call}  ${c.file}:${c.line}`);
  out.push('', `Followed reads asked with call() instead of a live read (renderer/): ${report.readsOutsideLive.length}`);
  for (const c of report.readsOutsideLive) out.push(`  ${c.call}  ${c.file}:${c.line}`);
  out.push('', `Module import cycles: ${report.cycles.length}`);
  for (const c of report.cycles) out.push(`  ${c.join(' -> ')}`);
  out.push('', `Imports up the layers (a shared layer importing a feature): ${report.layerImports.length}`);
  for (const i of report.layerImports) out.push(`  ${i.from} -> ${i.to}`);
  out.push('', `Features depending on each other round a loop: ${report.featureCycles.length}`);
  for (const c of report.featureCycles) out.push(`  ${c.join(' <-> ')}`);
  const rules: [string, Found[]][] = [
    ["Another feature's repository write functions imported (core/)", report.foreignRepoWrites],
    ['Calls to the core outside controllers (renderer/)', report.coreCallsOutsideControllers],
    ['Controllers, stores or helpers importing components or pages', report.upwardImports],
    ['Handlers with behaviour (core/)', report.handlersWithBehaviour],
    ['Second handler maps of a feature', report.extraHandlerMaps],
    ['Exported functions sharing a name', report.duplicateExports],
    ['Second definitions of a bound or a semester set', report.secondBoundDefinitions],
  ];
  for (const [title, found] of rules) {
    out.push('', `${title}: ${found.length}`);
    for (const f of found) out.push(`  ${f.what}  ${f.file}:${f.line}`);
  }
  console.log(out.join('\n'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
