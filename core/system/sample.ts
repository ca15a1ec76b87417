import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CoreContext } from '../context';
import { importCourses } from '../catalog/handlers';
import { importOfferings } from '../offerings/handlers';
import { importDoctors } from '../faculty/handlers';
import { importRooms } from '../rooms/handlers';
import { SAMPLE_DIR } from '../sample/paths';
import type { UploadResult } from '../import/result';

const sampleFile = (name: string): { filename: string; content: Uint8Array } => ({ filename: name, content: new Uint8Array(readFileSync(join(SAMPLE_DIR, name))) });

/** "Load sample data": the shipped catalog, ten years of offerings and the faculty, through the normal imports. */
export async function loadSampleData(ctx: CoreContext): Promise<Record<'courses' | 'offerings' | 'doctors' | 'rooms', UploadResult>> {
  return {
    courses: importCourses(ctx, sampleFile('courses.json')),
    offerings: await importOfferings(ctx, sampleFile('offerings.csv'), { semester: 'Fall', campus: 'Beirut' }),
    doctors: await importDoctors(ctx, sampleFile('doctors.csv')),
    rooms: await importRooms(ctx, sampleFile('rooms.csv')),
  };
}
