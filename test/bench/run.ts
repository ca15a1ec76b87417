/**
 * npm run bench: every performance target of the issues, measured on this machine.
 * Pass section names to run only some: npm run bench -- import schedule
 */
import { benchImports } from './import.bench';
import { benchStartup } from './startup.bench';
import { benchSchedule } from './schedule.bench';
import { benchTimetableImport } from './timetable-import.bench';
import { benchForest, benchPredict } from './predict.bench';
import { benchRealHistory } from './real.bench';
import { benchRenderer } from './renderer.bench';
import { benchAutofill } from './autofill.bench';
import { benchAutofillReal } from './autofill-real.bench';
import { benchLimits } from './limits.bench';
import { benchReliability } from './reliability.bench';
import { benchItc } from './itc.bench';
import { benchStores } from './stores.bench';
import { benchCampus } from './campus.bench';
import { benchHistory } from './history.bench';
import { benchCampusAutofill } from './campus-autofill.bench';
import { measurements } from './report';

const sections: Record<string, () => Promise<void>> = {
  startup: benchStartup,
  schedule: benchSchedule,
  stores: benchStores,
  campus: benchCampus,
  history: benchHistory,
  'timetable-import': benchTimetableImport,
  import: benchImports,
  limits: benchLimits,
  reliability: benchReliability,
  predict: benchPredict,
  real: benchRealHistory,
  autofill: benchAutofill,
  'autofill-real': benchAutofillReal,
  'campus-autofill': benchCampusAutofill,
  renderer: benchRenderer,
};
/** Sections run only when named: they take minutes (itc: 600 s per problem, an hour and a half for all nine). */
const optIn: Record<string, () => Promise<void>> = { forest: benchForest, milp: benchAutofill, itc: benchItc };

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(sections)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  await run();
}
for (const [name, run] of Object.entries(optIn)) {
  if (wanted.includes(name)) await run();
  else console.log(`(${name}: not run by default — npm run bench -- ${name})`);
}
const missed = measurements.filter((m) => m.target !== undefined && m.value > m.target);
console.log(`\n${measurements.length} measurements, ${missed.length} over target${missed.length ? `: ${missed.map((m) => m.name).join('; ')}` : ''}`);
