/**
 * Writes the committed sample dataset (npm run sample-data). Deterministic: running it again
 * gives byte-identical CSV/JSON files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSample } from './generate';
import { coursesJson, doctorsCsv, offeringsCsv, offeringsReportXlsx, roomsCsv } from './files';
import { SAMPLE_DIR } from './paths';

const data = generateSample();
mkdirSync(SAMPLE_DIR, { recursive: true });
writeFileSync(join(SAMPLE_DIR, 'courses.json'), coursesJson(data));
writeFileSync(join(SAMPLE_DIR, 'offerings.csv'), offeringsCsv(data));
writeFileSync(join(SAMPLE_DIR, 'doctors.csv'), doctorsCsv(data));
writeFileSync(join(SAMPLE_DIR, 'rooms.csv'), roomsCsv(data));
writeFileSync(join(SAMPLE_DIR, 'offerings.xlsx'), await offeringsReportXlsx(data.sections));
console.log(
  `Sample data written to ${SAMPLE_DIR}: ${data.courses.length} courses, ${data.offerings.length} offering records (${data.sections.length} sections), ${data.doctors.length} doctors, ${data.rooms.length} rooms`,
);
