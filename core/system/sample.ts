import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CoreContext } from '../context';
import { invalid } from '../domain/errors';
import { inWords } from '../domain/campuses';
import { importCourses } from '../catalog';
import { importOfferings } from '../offerings';
import { importDoctors } from '../faculty';
import { importRooms } from '../rooms';
import { SAMPLE_CAMPUSES, SAMPLE_DIR } from '../sample';
import type { UploadResult } from '../import/result';

const sampleFile = (name: string): { filename: string; content: Uint8Array } => ({
  filename: name,
  content: new Uint8Array(readFileSync(join(SAMPLE_DIR, name))),
});

/** "Load sample data": the shipped catalog, ten years of offerings and the faculty, through the normal imports. */
export async function loadSampleData(ctx: CoreContext): Promise<Record<'courses' | 'offerings' | 'doctors' | 'rooms', UploadResult>> {
  const missing = SAMPLE_CAMPUSES.filter((campus) => ctx.campuses.normalise(campus) !== campus);
  if (missing.length > 0) {
    throw invalid(
      `The sample data is set in ${inWords(SAMPLE_CAMPUSES, 'and')}, but this installation plans for ${ctx.campuses.describe()} (campuses.json in the data folder); load it into a data folder with the default campuses`,
    );
  }
  return {
    courses: await importCourses(ctx, sampleFile('courses.json')),
    offerings: await importOfferings(ctx, sampleFile('offerings.csv')),
    doctors: await importDoctors(ctx, sampleFile('doctors.csv')),
    rooms: await importRooms(ctx, sampleFile('rooms.csv')),
  };
}
