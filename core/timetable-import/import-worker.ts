import { openWorkerContext, type WorkerContextData } from '../worker-context';
import { serveJobs } from '../workers';
import { runImport, type TimetableImportInput } from './run';

/** The timetable import's thread: reads the listing, plans and (unless a dry run) applies it on its own connection. */
async function importJob({ context, input }: { context: WorkerContextData; input: TimetableImportInput }): Promise<unknown> {
  const ctx = await openWorkerContext(context);
  try {
    return await runImport(ctx, input);
  } finally {
    await ctx.store.close();
  }
}

serveJobs((job) => importJob(job as { context: WorkerContextData; input: TimetableImportInput }), null);
