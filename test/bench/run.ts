/**
 * npm run bench: every performance target of the issues, measured on this machine.
 * Pass section names to run only some: npm run bench -- import schedule
 */
import { benchImports } from './import.bench';
import { benchStartup } from './startup.bench';
import { benchSchedule } from './schedule.bench';
import { measurements } from './report';

const sections: Record<string, () => Promise<void>> = {
  startup: benchStartup,
  import: benchImports,
  schedule: benchSchedule,
};

const wanted = process.argv.slice(2);
for (const [name, run] of Object.entries(sections)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  await run();
}
const missed = measurements.filter((m) => m.target !== undefined && m.value > m.target);
console.log(`\n${measurements.length} measurements, ${missed.length} over target${missed.length ? `: ${missed.map((m) => m.name).join('; ')}` : ''}`);
